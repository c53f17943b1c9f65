"""LiveMatch: the cabinet's way of running a game, driven here by a virtual clock."""

from __future__ import annotations

from game.bots import level
from game.edges import Button, Edge
from game.events import GameOver, Played, Termination
from game.live_match import LiveMatch
from game.record import replay
from game.record_parts import RecordResult
from game.rules import Rules
from game.units import MS

START = 5_000_000_000_000  # an arbitrary cabinet clock reading: match time 0
FRAME = 16_666_667


def test_cpu_against_cpu_at_60_fps_finishes_replays_and_is_never_late() -> None:
    match = LiveMatch(Rules(), 12, (level(4), level(5)), START)
    now = START
    while not match.over:
        now += FRAME
        match.advance(now)
        assert now - START < 30 * 60 * 1_000 * MS
    summary = match.summary()
    assert summary.finished
    assert summary.late_edges == 0
    again = replay(match.record()).summary()
    assert RecordResult.of(again) == RecordResult.of(summary)


def test_the_frame_rate_does_not_change_a_cpu_game() -> None:
    results = []
    for frame in (FRAME, 3 * MS, 101 * MS):
        match = LiveMatch(Rules(), 3, (level(3), level(4)), START)
        now = START
        while not match.over:
            now += frame
            match.advance(now)
        results.append(RecordResult.of(match.summary()))
    assert results[0] == results[1] == results[2]


def test_a_person_plays_through_take_and_the_record_keeps_match_time() -> None:
    match = LiveMatch(Rules(), 7, (None, None), START)
    game = match.game
    slot, pile = next(iter(game.legal_plays(0)), (None, None))
    assert slot is not None and pile is not None
    t = START + 400 * MS
    match.take(Edge.press(0, Button.slot(slot), t), t + 100_000)
    match.take(Edge.press(0, Button.pile(pile), t + 200 * MS), t + 200 * MS + 150_000)
    events = match.advance(t + 300 * MS)
    assert [e.player for e in events if isinstance(e, Played)] == [0]
    record = match.record()
    assert record.edges[0].t_ns == 400 * MS
    assert record.edges[0].delivered_ns == 400 * MS + 100_000
    assert record.meta.to_json()["players"] == ["human", "human"]


def test_abandon_ends_the_game_without_a_winner() -> None:
    match = LiveMatch(Rules(), 7, (None, level(2)), START)
    match.advance(START + 3_000 * MS)
    events = match.abandon(START + 4_000 * MS)
    over = [e for e in events if isinstance(e, GameOver)]
    assert over and over[0].outcome.winner is None
    assert match.summary().termination is Termination.ABANDONED


def test_next_wake_points_at_the_cpu() -> None:
    match = LiveMatch(Rules(), 9, (None, level(1)), START)
    wake = match.next_wake_abs_ns()
    assert wake is not None and wake >= START
    match.advance(wake)
    later = match.next_wake_abs_ns()
    assert later is not None and later > wake  # the CPU is now thinking about a press


def test_an_abandoned_game_replays_to_its_recorded_result() -> None:
    match = LiveMatch(Rules(), 21, (None, level(3)), START)
    match.advance(START + 20_000 * MS)
    match.abandon(START + 21_000 * MS)
    summary = match.summary()
    assert summary.termination is Termination.ABANDONED and summary.draw is False
    record = match.record()
    assert record.abandoned_ns is not None
    assert RecordResult.of(replay(record).summary()) == RecordResult.of(summary)


def test_presses_on_a_cpu_seats_buttons_do_nothing() -> None:
    match = LiveMatch(Rules(), 22, (None, level(1)), START)
    t = START + 100 * MS
    match.take(Edge.press(1, Button.SLOT1, t), t)
    match.take(Edge.press(1, Button.PILE1, t + MS), t + MS)
    match.advance(t + 50 * MS)
    assert match.referee.stats.edges == 0  # the beginner CPU presses 1.6 s in at the earliest
    assert match.referee.selected(1) is None


def test_the_deal_is_shown_at_spit_not_before() -> None:
    start = START + 1_500 * MS  # a match being readied: "ready… spit!" runs until then
    match = LiveMatch(Rules(), 23, (None, None), start)
    assert match.advance(START) == []
    assert match.advance(start - MS) == []
    events = match.advance(start)
    assert type(events[0]).__name__ == "Started"


def test_a_clock_reading_older_than_the_match_is_taken_as_now() -> None:
    match = LiveMatch(Rules(), 24, (None, None), START)
    match.advance(START + 50 * MS)
    match.abandon(START + 60 * MS)
    match.advance(START + 55 * MS)  # a pump that read the clock before the abandon
    assert match.summary().termination is Termination.ABANDONED
