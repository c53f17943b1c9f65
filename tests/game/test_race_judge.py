"""One race judged by the real referee and engine (game/race_judge.py): what the fairness
test (docs/fairness.md) asks of every pair of presses (R10)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from game.cards import Card
from game.edges import Button, Edge
from game.race_judge import judge_race, race_position
from game.rules import Rules

T0 = 5_000_000_000
WINDOW = Rules(race_window_ms=2)


def press(player: int, t_ns: int, delivered_ns: int) -> Edge:
    return Edge.press(player, Button.PILE1, t_ns).delivered(delivered_ns)


def test_the_position_is_a_race_both_can_win_and_the_loser_is_beaten() -> None:
    game = race_position(WINDOW, T0)
    assert game.layout(0)[0] == Card.parse("6H")
    assert game.layout(1)[0] == Card.parse("6D")
    assert game.pile_top(0) == Card.parse("5S")  # a six fits, and a six on a six does not


@given(
    offset_ns=st.integers(1_000, 1_900_000),
    first=st.integers(0, 1),
    lag_first=st.integers(0, 1_900_000),
    lag_second=st.integers(0, 1_900_000),
)
def test_the_earlier_stamp_wins_whatever_the_delivery_order_within_the_window(
    offset_ns: int, first: int, lag_first: int, lag_second: int
) -> None:
    """Both presses delivered within the window of the earlier one: the kernel's stamps
    decide, never the order the software saw them in."""
    second_t = T0 + offset_ns
    early = press(first, T0, T0 + lag_first)
    late = press(1 - first, second_t, max(second_t, T0 + lag_second))
    verdict = judge_race(WINDOW, early, late)
    assert verdict.winner == first
    assert verdict.late == 0
    assert judge_race(WINDOW, late, early) == verdict  # the argument order is no order


def test_a_press_delivered_after_the_window_is_late_and_can_lose_the_race() -> None:
    early = press(1, T0, T0 + 5_000_000)  # stamped first, seen 5 ms on: past the window
    second = press(0, T0 + 100_000, T0 + 200_000)
    verdict = judge_race(WINDOW, early, second)
    assert verdict.late == 1
    assert verdict.winner == 0
    # With a window wide enough, the same delivery is on time and the stamp wins.
    assert judge_race(Rules(race_window_ms=10), early, second).winner == 1


def test_a_lone_press_wins_and_no_press_has_no_winner() -> None:
    assert judge_race(WINDOW, press(1, T0, T0)).winner == 1
    assert judge_race(WINDOW).winner is None


def test_same_instant_presses_are_settled_by_the_tie_rule_not_the_delivery() -> None:
    a = press(0, T0, T0 + 10)
    b = press(1, T0, T0 + 20)
    winners = {judge_race(WINDOW, a, b, tie_seed=s).winner for s in range(20)}
    assert winners <= {0, 1}
    for seed in range(20):
        assert judge_race(WINDOW, a, b, tie_seed=seed) == judge_race(
            WINDOW, b.delivered(T0 + 10), a.delivered(T0 + 20), tie_seed=seed
        )
