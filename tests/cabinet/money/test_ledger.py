"""The ledger: each event's counts, and the invariants under any sequence of events."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cabinet.money.ledger import COUNT_NAMES, Ledger, LedgerError
from cabinet.money.pricing import Pricing

PAID = Pricing(free_play=False)


def test_four_coins_buy_five_credits_with_a_bonus() -> None:
    pricing = Pricing(free_play=False, bonus_units=4, bonus_credits=1)
    ledger = Ledger()
    for _ in range(4):
        ledger = ledger.insert(1, pricing, units=1)
    assert (ledger.credits, ledger.credits_bonus, ledger.credits_paid) == (5, 1, 5)
    ledger.check()


def test_the_bonus_counts_units_until_a_game_starts() -> None:
    pricing = Pricing(free_play=False, bonus_units=4, bonus_credits=1)
    ledger = Ledger().insert(1, pricing, units=1).insert(1, pricing, units=1).spend(1)
    ledger = ledger.insert(1, pricing, units=1).insert(1, pricing, units=1)
    assert ledger.credits_bonus == 0  # 2 + 2 units, a game between them
    assert ledger.credits == 3


def test_half_credits_are_held_until_the_next_unit() -> None:
    pricing = Pricing(free_play=False, units_per_credit=2)
    ledger = Ledger().insert(1, pricing, units=1)
    assert (ledger.credits, ledger.units_held) == (0, 1)
    ledger = ledger.insert(2, pricing, units=3)
    assert (ledger.credits, ledger.units_held, ledger.units_converted) == (2, 0, 4)
    assert (ledger.coins1, ledger.coins2, ledger.meter_owed) == (1, 1, 4)


def test_coins_taken_during_the_menu_wait_for_it_to_close() -> None:
    ledger = Ledger().insert(1, PAID, units=2, pending=True)
    assert (ledger.credits, ledger.units_pending, ledger.meter_owed) == (0, 2, 2)
    ledger.check()
    ledger = ledger.release_pending(Pricing(free_play=False, units_per_credit=2))
    assert (ledger.credits, ledger.units_pending) == (1, 0)


def test_clearing_takes_the_credits_the_part_credit_and_pending_coins() -> None:
    pricing = Pricing(free_play=False, units_per_credit=2)
    ledger = Ledger().insert(1, pricing, units=5).insert(1, pricing, units=1, pending=True)
    cleared = ledger.clear_credits()
    assert (cleared.credits, cleared.units_held, cleared.units_pending) == (0, 0, 0)
    assert (cleared.credits_cleared, cleared.units_cleared) == (2, 2)
    cleared.check()


def test_spending_more_than_there_is_is_refused() -> None:
    with pytest.raises(LedgerError, match="2 credits spent with 1"):
        Ledger().service_credit().spend(2)


def test_a_meter_pulse_needs_one_owed() -> None:
    with pytest.raises(LedgerError, match="none owed"):
        Ledger().meter_pulsed()


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({"units_in": 1}, "coin units in"),
        ({"credits": 1}, "credits granted"),
        ({"units_in": 1, "units_held": 1}, "meter pulses"),
        ({"coins1": -1}, "whole number"),
        ({"credits": 1, "credits_paid": 1}, "a credit without its coin"),
    ],
)
def test_check_names_the_broken_invariant(counts: dict[str, int], message: str) -> None:
    with pytest.raises(LedgerError, match=message):
        Ledger(**counts).check()


def test_rows_round_trip() -> None:
    ledger = Ledger().insert(2, PAID, units=3).service_credit().spend(2)
    rows = ledger.as_rows()
    assert tuple(rows) == COUNT_NAMES
    assert Ledger.from_rows(rows) == ledger
    assert Ledger.from_rows({"credits": 4, "unknown": 9}) == Ledger(credits=4)


pricings = st.builds(
    Pricing,
    free_play=st.booleans(),
    coin_units=st.tuples(st.integers(1, 5), st.integers(1, 5)),
    units_per_credit=st.integers(1, 4),
    bonus_units=st.integers(0, 6),
    bonus_credits=st.integers(0, 3),
)
events = st.one_of(
    st.tuples(st.just("coin"), st.sampled_from((1, 2)), st.integers(1, 9), st.booleans()),
    st.tuples(st.just("release"), pricings),
    st.tuples(st.just("service")),
    st.tuples(st.just("spend"), st.integers(0, 4)),
    st.tuples(st.just("clear")),
    st.tuples(st.just("meter")),
    st.tuples(st.just("test")),
    st.tuples(st.just("error")),
)


@settings(max_examples=300, deadline=None)
@given(pricing=pricings, sequence=st.lists(events, max_size=60))
def test_any_sequence_of_events_keeps_the_invariants(
    pricing: Pricing, sequence: list[tuple[object, ...]]
) -> None:
    ledger = Ledger()
    units_in = coins = 0
    for event in sequence:
        kind = event[0]
        before = ledger
        if kind == "coin":
            _, mech, units, pending = event
            assert isinstance(mech, int) and isinstance(units, int)
            ledger = ledger.insert(mech, pricing, units=units, pending=bool(pending))
            units_in += units
            coins += 1
        elif kind == "release":
            assert isinstance(event[1], Pricing)
            ledger = ledger.release_pending(event[1])
            assert ledger.units_pending == 0
        elif kind == "service":
            ledger = ledger.service_credit()
        elif kind == "spend":
            n = event[1]
            assert isinstance(n, int)
            if n <= ledger.credits:
                ledger = ledger.spend(n)
        elif kind == "clear":
            ledger = ledger.clear_credits()
        elif kind == "meter":
            if ledger.meter_owed:
                ledger = ledger.meter_pulsed()
        elif kind == "test":
            ledger = ledger.meter_tested()
        else:
            ledger = ledger.coin_error()
        ledger.check()
        # Nothing ever goes back: the lifetime counts only grow.
        for name in ("units_in", "credits_paid", "credits_spent", "meter_done", "coin_errors"):
            assert getattr(ledger, name) >= getattr(before, name)
    assert ledger.units_in == units_in
    assert ledger.coins1 + ledger.coins2 == coins
    assert ledger.meter_done + ledger.meter_owed == units_in
