"""The referee: race window, time order, ties, late edges and the gesture (R8, R10)."""

from __future__ import annotations

import random

import pytest

from game.edges import Button, Edge
from game.events import Played, Rejected, RejectReason, Selected, Tie
from game.referee import ClockError, Referee
from game.rules import Rules, TieRule
from game.units import MS, US

from .conftest import position

S1, S2, P1 = Button.SLOT1, Button.SLOT2, Button.PILE1


def race_position(rules: Rules | None = None) -> Referee:
    """Both players hold a card fitting pile 1 (4H): player 1's 5S, player 2's 3D."""
    game = position("5S KH KD KC", "3D 9H 9D 9C", "4H", "JD", "2C 8S", "2D 8D", rules=rules)
    return Referee(game, tie_rng=random.Random(1))


def played(events: list) -> list[Played]:
    return [e for e in events if isinstance(e, Played)]


def test_r10_race_won_by_1us_is_decided_by_timestamp_not_delivery_order() -> None:
    ref = race_position()
    window = ref.window_ns
    ref.take(Edge.press(0, S1, 1 * MS), 1 * MS)
    ref.take(Edge.press(1, S1, 1 * MS), 1 * MS)
    t = 10 * MS
    # Player 2 pressed 1 µs later but software sees it first.
    events = ref.take(Edge.press(1, P1, t + 1 * US), t + 2 * US)
    events += ref.take(Edge.press(0, P1, t), t + window // 2)
    assert played(events) == []  # nothing decided before the window passes
    events += ref.tick(t + window + 1 * US)
    assert [(e.player, e.card.notation()) for e in played(events)] == [(0, "5S")]
    beaten = [e for e in events if isinstance(e, Rejected)]
    assert beaten == [Rejected(t + 1 * US, 1, 0, 0, RejectReason.BEATEN, 1 * US)]
    assert ref.stats.reordered_races == 1
    assert ref.stats.late_edges == 0


def test_r10_an_edge_later_than_the_window_is_applied_at_the_horizon_and_counted() -> None:
    ref = race_position()
    window = ref.window_ns
    ref.take(Edge.press(0, S1, 0), 0)
    ref.take(Edge.press(1, S1, 0), 0)
    t = 10 * MS
    ref.take(Edge.press(1, P1, t + 1 * US), t + 1 * US)
    # Player 1 really pressed first, but the edge arrives after the window: too late.
    events = ref.take(Edge.press(0, P1, t), t + window + 5 * US)
    events += ref.tick(t + 2 * window)
    assert [e.player for e in played(events)] == [1]
    assert ref.stats.late_edges == 1
    rejected = [e for e in events if isinstance(e, Rejected)]
    assert rejected[0].reason is RejectReason.BEATEN
    assert rejected[0].t_ns == t + 5 * US  # applied at the horizon, not at t


def test_r10_exact_ties_alternate_from_a_coin_toss() -> None:
    firsts = []
    for seed in range(6):
        ref = Referee(race_position().game, tie_rng=random.Random(seed))
        ref.take(Edge.press(0, S1, 0), 0)
        ref.take(Edge.press(1, S1, 0), 0)
        ref.take(Edge.press(0, P1, 5 * MS), 5 * MS)
        events = ref.take(Edge.press(1, P1, 5 * MS), 5 * MS)
        events += ref.tick(5 * MS + ref.window_ns)
        tie = [e for e in events if isinstance(e, Tie)]
        assert len(tie) == 1
        assert [e.player for e in played(events)] == [tie[0].first]
        firsts.append(tie[0].first)
    assert set(firsts) == {0, 1}  # the coin decides who starts with priority


@pytest.mark.parametrize("rule", list(TieRule))
def test_r10_ties_are_fair_over_10000(rule: TieRule) -> None:
    rules = Rules(tie_rule=rule, spit_delay_ms=0)
    game = position("5S KH KD KC", "5D 9H 9D 9C", "4H", "JD", "2C 8S", "2D 8D", rules=rules)
    ref = Referee(game, tie_rng=random.Random(99))
    wins = [0, 0]
    t = 0
    for _ in range(10_000):
        t += MS
        # Both press pile 1 at exactly t with nothing selected: a tie with no play.
        events = ref.take(Edge.press(0, P1, t), t) + ref.take(Edge.press(1, P1, t), t)
        for event in events:
            if isinstance(event, Tie):
                wins[event.first] += 1
    for event in ref.tick(t + 10 * MS):
        if isinstance(event, Tie):
            wins[event.first] += 1
    assert sum(wins) == 10_000 == ref.stats.ties
    assert abs(wins[0] / 10_000 - 0.5) <= 0.02


def test_r8_gesture_selection_stays_after_a_rejection_and_clears_after_a_play() -> None:
    ref = race_position()
    w = ref.window_ns
    events = ref.take(Edge.press(0, S2, MS), MS)  # KH
    events += ref.take(Edge.press(0, P1, 2 * MS), 2 * MS)  # KH onto 4H: illegal
    events += ref.tick(2 * MS + w)
    assert Selected(MS, 0, 1) in events
    assert ref.selected(0) == 1
    ref.take(Edge.press(0, S1, 30 * MS), 30 * MS)  # 5S
    events = ref.take(Edge.press(0, P1, 40 * MS), 40 * MS)
    events += ref.tick(40 * MS + w)
    assert [e.card.notation() for e in played(events)] == ["5S"]
    assert ref.selected(0) is None


def test_r8_a_pile_press_with_nothing_selected_does_nothing_and_is_counted() -> None:
    ref = race_position()
    events = ref.take(Edge.press(0, P1, MS), MS) + ref.tick(MS + ref.window_ns)
    assert played(events) == []
    assert ref.stats.pile_without_selection == 1


def test_releases_and_edges_before_the_start_do_nothing() -> None:
    ref = Referee(race_position().game, tie_rng=random.Random(0), start_ns=10 * MS)
    ref.take(Edge.press(0, S1, 5 * MS), 11 * MS)
    ref.take(Edge.release(0, S1, 12 * MS), 12 * MS)
    ref.tick(20 * MS)
    assert ref.stats.early_edges == 1
    assert ref.selected(0) is None


def test_clock_errors() -> None:
    ref = race_position()
    ref.tick(5 * MS)
    with pytest.raises(ClockError, match="backwards"):
        ref.tick(4 * MS)
    with pytest.raises(ClockError, match="before it happened"):
        ref.take(Edge.press(0, S1, 9 * MS), 8 * MS)


def test_the_summary_counts_early_edges_and_pile_presses_without_a_selection() -> None:
    from game.record import summarize

    ref = Referee(race_position().game, tie_rng=random.Random(0), start_ns=10 * MS)
    ref.take(Edge.press(0, S1, 5 * MS), 11 * MS)  # before the start
    events = ref.take(Edge.press(1, P1, 20 * MS), 20 * MS)
    events += ref.tick(40 * MS)
    summary = summarize(ref.game, ref, events)
    assert summary.early_edges == 1
    assert summary.pile_without_selection == 1
