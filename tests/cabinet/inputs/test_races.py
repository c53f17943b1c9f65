"""Races through real gpiozero mock pins, the switch filter and the referee: the press
with the earlier hardware timestamp wins, whatever order software sees them in."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.controls import Control
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.feed import FeedEvent
from cabinet.inputs.mock import MockInput, ScheduledEdge, play_out, simultaneous_presses
from game.edges import Button
from game.events import Played, Rejected, RejectReason, Tie
from game.rules import Rules, TieRule

from .conftest import RACE_DECKS, START_NS, TIE_DECKS, make_feed, ms, referee_for

P1_SLOT1, P1_PILE1 = Control(0, Button.SLOT1), Control(0, Button.PILE1)
P2_SLOT1, P2_PILE1 = Control(1, Button.SLOT1), Control(1, Button.PILE1)


def decided_plays(events: list[FeedEvent]) -> tuple[Played, Rejected]:
    """The one play made and the one refused in a race's events."""
    played = [e for e in events if isinstance(e, Played)]
    rejected = [e for e in events if isinstance(e, Rejected)]
    assert len(played) == 1 and len(rejected) == 1, events
    return played[0], rejected[0]


def select_slots(at_ns: int) -> list[ScheduledEdge]:
    """Both players press and release slot 1 at ``at_ns``, delivered at once."""
    return [
        ScheduledEdge(P1_SLOT1, True, at_ns, at_ns),
        ScheduledEdge(P2_SLOT1, True, at_ns, at_ns),
        ScheduledEdge(P1_SLOT1, False, at_ns + ms(40), at_ns + ms(40)),
        ScheduledEdge(P2_SLOT1, False, at_ns + ms(40), at_ns + ms(40)),
    ]


def run_race(
    mock: MockInput,
    clock: VirtualClock,
    margin_ns: int,
    p1_first: bool,
    delays_ns: tuple[int, int],
) -> tuple[Played, Rejected, int]:
    """Both players select slot 1, then press pile 1 ``margin_ns`` apart; the first
    press reaches the referee's side ``delays_ns[0]`` after it happened, the second
    ``delays_ns[1]`` after. Returns the play, the refused play, and the referee's count
    of reordered races."""
    referee = referee_for(RACE_DECKS)
    feed = make_feed(mock, clock, referee)
    t0 = START_NS + ms(100)
    events = play_out(mock, feed, clock, select_slots(t0))
    first, second = (P1_PILE1, P2_PILE1) if p1_first else (P2_PILE1, P1_PILE1)
    t_press = t0 + ms(200)
    staged = [
        ScheduledEdge(first, True, t_press, t_press + delays_ns[0]),
        ScheduledEdge(second, True, t_press + margin_ns, t_press + margin_ns + delays_ns[1]),
    ]
    events += play_out(mock, feed, clock, staged)
    clock.advance(referee.window_ns + 1)
    events += feed.pump()
    assert referee.stats.late_edges == 0
    played, beaten = decided_plays(events)
    return played, beaten, referee.stats.reordered_races


def run_race_delivered_backwards(
    mock: MockInput, clock: VirtualClock, margin_ns: int, p1_first: bool
) -> tuple[Played, Rejected, int]:
    """A race whose later press is delivered first, 1 ns before the earlier one, using
    :func:`simultaneous_presses`."""
    referee = referee_for(RACE_DECKS)
    feed = make_feed(mock, clock, referee)
    t0 = START_NS + ms(100)
    events = play_out(mock, feed, clock, select_slots(t0))
    first, second = (P1_PILE1, P2_PILE1) if p1_first else (P2_PILE1, P1_PILE1)
    t_press = t0 + ms(200)
    staged = simultaneous_presses(
        [(first, t_press), (second, t_press + margin_ns)],
        [1, 0],
        delivered_from_ns=t_press + margin_ns,
        spacing_ns=1,
    )
    events += play_out(mock, feed, clock, staged)
    clock.advance(referee.window_ns + 1)
    events += feed.pump()
    assert referee.stats.late_edges == 0
    played, beaten = decided_plays(events)
    return played, beaten, referee.stats.reordered_races


@pytest.mark.parametrize("margin_ns", [1_000, 10_000, 1_000_000, 1_500_000])
@pytest.mark.parametrize("p1_first", [True, False])
def test_the_earlier_press_wins_when_delivered_second(
    mock: MockInput, clock: VirtualClock, margin_ns: int, p1_first: bool
) -> None:
    played, beaten, reordered = run_race_delivered_backwards(mock, clock, margin_ns, p1_first)
    winner = 0 if p1_first else 1
    assert played.player == winner
    assert beaten.player == 1 - winner
    assert beaten.reason is RejectReason.BEATEN
    assert beaten.margin_ns == margin_ns
    assert reordered == 1


def test_a_one_microsecond_race_in_delivery_order_is_not_counted_as_reordered(
    mock: MockInput, clock: VirtualClock
) -> None:
    played, beaten, reordered = run_race(mock, clock, 1_000, False, (0, 0))
    assert (played.player, beaten.player, beaten.margin_ns) == (1, 0, 1_000)
    assert reordered == 0


@settings(max_examples=60, deadline=None)
@given(
    margin_ns=st.integers(1_000, 50_000_000),
    p1_first=st.booleans(),
    delay_fractions=st.tuples(st.floats(0, 0.9), st.floats(0, 0.9)),
)
def test_races_are_decided_by_timestamp_for_any_margin_and_delivery(
    margin_ns: int, p1_first: bool, delay_fractions: tuple[float, float]
) -> None:
    """Each press delivered up to 90 % of the race window after it happened, so small
    margins are often seen in the wrong order."""
    clock = VirtualClock(START_NS)
    mock = MockInput(EdgeQueue(), clock=clock)
    mock.open()
    window = Rules().race_window_ns
    delays = (int(delay_fractions[0] * window), int(delay_fractions[1] * window))
    try:
        played, beaten, reordered = run_race(mock, clock, margin_ns, p1_first, delays)
    finally:
        mock.close()
    winner = 0 if p1_first else 1
    assert played.player == winner
    assert reordered == (margin_ns + delays[1] < delays[0])
    if margin_ns <= Rules().beaten_window_ms * 1_000_000:
        assert beaten.reason is RejectReason.BEATEN
        assert beaten.margin_ns == margin_ns
    else:
        assert beaten.reason is RejectReason.ILLEGAL


@pytest.mark.parametrize("tie_rule", list(TieRule))
def test_exact_ties_split_fairly(mock: MockInput, clock: VirtualClock, tie_rule: TieRule) -> None:
    """10,000 exact ties through the pins: each player gets priority 50 % ± 2 %."""
    referee = referee_for(TIE_DECKS, Rules(tie_rule=tie_rule), seed=12345)
    feed = make_feed(mock, clock, referee)
    t = START_NS + ms(100)
    events = play_out(mock, feed, clock, select_slots(t))
    ties = 10_000
    firsts = [0, 0]
    for _ in range(ties):
        t += ms(100)
        mock.press(P1_PILE1, t)
        mock.press(P2_PILE1, t)
        clock.set(t + ms(1))
        events += feed.pump()
        mock.release(P1_PILE1, t + ms(30))
        mock.release(P2_PILE1, t + ms(30))
        clock.set(t + ms(31))
        events += feed.pump()
    clock.advance(ms(10))
    events += feed.pump()
    for event in events:
        if isinstance(event, Tie):
            firsts[event.first] += 1
    assert referee.stats.ties == ties
    assert referee.stats.late_edges == 0
    assert sum(firsts) == ties
    assert abs(firsts[0] / ties - 0.5) <= 0.02
    if tie_rule is TieRule.ALTERNATE:
        assert firsts == [ties // 2, ties // 2]
    rejected = [e for e in events if isinstance(e, Rejected)]
    assert len(rejected) == 2 * ties
    assert all(e.reason is RejectReason.ILLEGAL for e in rejected)
