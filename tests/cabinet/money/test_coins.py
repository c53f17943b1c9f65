"""Coin pulses: a low pulse within the window is a coin; anything else an error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.inputs.controls import COIN1, COIN2, TEST
from cabinet.inputs.debounce import OperatorEdge, SwitchStuck
from cabinet.money.coins import Coin, CoinDetector, CoinError, CoinErrorKind
from game.units import MS

T = 5_000 * MS


def pulse(d: CoinDetector, length_ns: int, control: object = COIN1, at: int = T) -> list[object]:
    assert d.take(OperatorEdge(COIN1 if control is COIN1 else COIN2, True, at)) == []
    return list(d.take(OperatorEdge(COIN1 if control is COIN1 else COIN2, False, at + length_ns)))


@pytest.mark.parametrize(
    ("length_ms", "kind"),
    [
        (19.999, CoinErrorKind.SHORT),
        (20, None),
        (60, None),
        (150, None),
        (150.001, CoinErrorKind.LONG),
        (900, CoinErrorKind.LONG),
    ],
)
def test_the_window_includes_both_ends(length_ms: float, kind: CoinErrorKind | None) -> None:
    d = CoinDetector()
    length = round(length_ms * MS)
    out = pulse(d, length)
    if kind is None:
        assert out == [Coin(1, T + length, length)]
        assert (d.lines[1].coins, d.lines[1].errors) == (1, 0)
    else:
        assert out == [CoinError(1, kind, T + length, length)]
        assert (d.lines[1].coins, d.lines[1].errors) == (0, 1)
    assert d.lines[1].last_pulse_ns == length


@given(lo=st.integers(5, 95), hi=st.integers(100, 900), length=st.integers(1, 2_000 * MS))
def test_any_pulse_is_a_coin_exactly_when_inside_the_window(lo: int, hi: int, length: int) -> None:
    d = CoinDetector(min_ms=lo, max_ms=hi, held_ms=5_000)
    out = pulse(d, length, COIN2)
    assert len(out) == 1
    assert isinstance(out[0], Coin) == (lo * MS <= length <= hi * MS)
    assert out[0].mech == 2


def test_a_line_held_low_is_one_error_and_its_release_adds_nothing() -> None:
    d = CoinDetector()
    d.take(OperatorEdge(COIN1, True, T))
    assert d.poll(T + 999 * MS) == []
    assert d.next_due_ns() == T + 1_000 * MS
    assert d.poll(T + 1_000 * MS) == [CoinError(1, CoinErrorKind.HELD_LOW, T + 1_000 * MS, None)]
    assert d.lines[1].held_low and d.lines[1].low
    assert d.poll(T + 5_000 * MS) == []
    assert d.take(OperatorEdge(COIN1, False, T + 6_000 * MS)) == []
    assert d.lines[1].errors == 1 and not d.lines[1].held_low
    assert pulse(d, 50 * MS, at=T + 7_000 * MS)[0] == Coin(1, T + 7_050 * MS, 50 * MS)


def test_a_line_stuck_since_start_is_held_low() -> None:
    d = CoinDetector()
    stuck = SwitchStuck(COIN1, 0, T)
    assert d.take(stuck) == [CoinError(1, CoinErrorKind.HELD_LOW, T, None)]
    assert d.take(stuck) == []  # said once
    # its release ends no pulse (it never began one)
    assert d.take(OperatorEdge(COIN1, False, T + MS)) == []
    assert d.lines[1].errors == 1


def test_a_release_without_a_press_is_no_pulse() -> None:
    d = CoinDetector()
    assert d.take(OperatorEdge(COIN1, False, T)) == []
    assert d.lines[1].coins == d.lines[1].errors == 0


def test_only_coin_lines_are_taken() -> None:
    assert CoinDetector.is_coin_line(OperatorEdge(COIN2, True, T))
    assert not CoinDetector.is_coin_line(OperatorEdge(TEST, True, T))
    with pytest.raises(ValueError, match="0 < min_ms < max_ms < held_ms"):
        CoinDetector(min_ms=150, max_ms=20)
