"""The game flow through every state, on a virtual clock."""

from __future__ import annotations

import random

from cabinet.display.flow import Flow, FlowSettings, GameFinished, InitialsEntered, PhaseChanged, S
from cabinet.halloffame.board import Category
from cabinet.halloffame.places import NewPlace
from cabinet.shared.phase import Phase
from game.bots import level
from game.cpu_seat import CpuSeat
from game.edges import Button, Edge
from game.events import Termination
from game.live_match import LiveMatch
from game.record import replay
from game.record_parts import RecordResult
from game.rules import Rules
from game.summary import Seat
from game.units import MS

T0 = 1_000 * S


class Person:
    """A simulated person at seat ``player``: a CPU seat's choices, pressed through the
    match's human path (``LiveMatch.take``) and reported to the flow as presses."""

    def __init__(self, player: int, match: LiveMatch) -> None:
        self.seat = CpuSeat(player, level(4), random.Random(player), ace_wraps=True)
        self.match = match
        self.pending: list[Edge] = []

    def act(self, flow: Flow, t: int) -> None:
        game = self.match.game
        look = self.seat.look_at
        if not self.pending and look is not None and self.match.to_abs(look) <= t:
            presses = self.seat.look(game, self.match.to_match(t))
            if presses:
                self.pending = [
                    Edge(e.player, e.button, e.edge, self.match.to_abs(e.t_ns)) for e in presses
                ]
        while self.pending and self.pending[0].t_ns <= t:
            edge = self.pending.pop(0)
            events = self.match.take(edge, t)
            self.seat.observe(events, self.match.to_match(t))
            flow.match_events(events, t)
            flow.press(edge.player, t)


def run(
    flow: Flow, start: int, end: int, step: int = 16 * MS, people: bool = False
) -> list[object]:
    """Advance the flow (and its running game, as the referee thread would) to ``end``;
    with ``people``, simulated people play the human seats."""
    notices: list[object] = []
    t = start
    persons: list[Person] = []
    while t < end:
        t = min(t + step, end)
        match = flow.match
        if flow.phase is Phase.ATTRACT:
            flow.demo.advance(t)
        elif match is not None and flow.phase is Phase.PLAY:
            if people and (not persons or persons[0].match is not match):
                persons = [Person(p, match) for p in match.humans]
            for person in persons:
                person.act(flow, t)
            events = match.advance(t)
            for person in persons:
                person.seat.observe(events, match.to_match(t))
            flow.match_events(events, t)
        notices += flow.update(t)
    return notices


def phases(notices: list[object]) -> list[Phase]:
    return [n.phase for n in notices if isinstance(n, PhaseChanged)]


def test_attract_runs_a_demo_that_restarts() -> None:
    flow = Flow(FlowSettings(), seed=1, now_ns=T0)
    first = flow.demo
    run(flow, T0, T0 + 600 * S, step=100 * MS)
    assert flow.phase is Phase.ATTRACT
    assert flow.demo is not first  # the demo game ended and a new one began


def test_a_lone_player_plays_the_cpu_after_the_wait() -> None:
    settings = FlowSettings(cpu_level=5, join_wait_s=5)
    flow = Flow(settings, seed=2, now_ns=T0)
    flow.press(1, T0 + S)
    assert flow.phase is Phase.JOIN
    assert flow.join_cpu_in_s(T0 + 2 * S) == 4
    notices = run(flow, T0 + S, T0 + 6 * S + MS)
    assert phases(notices) == [Phase.JOIN, Phase.READY]
    assert flow.cpu_seat == 0 and flow.seat_kinds == (Seat.CPU, Seat.HUMAN)
    ready_at = flow.phase_since_ns
    assert T0 + 6 * S <= ready_at <= T0 + 6 * S + MS
    assert flow.match is not None  # "ready… spit!" runs its whole countdown from here
    assert flow.match.start_abs_ns - (ready_at + MS) == settings.rules.spit_delay_ns - MS


def test_two_players_join_ready_play_and_abandon_when_idle() -> None:
    settings = FlowSettings(idle_timeout_s=30)
    flow = Flow(settings, seed=3, now_ns=T0)
    flow.press(0, T0)
    flow.press(1, T0 + S)
    assert flow.phase is Phase.READY and flow.cpu_seat is None
    notices = run(flow, T0 + S, T0 + 40 * S)
    assert phases(notices) == [Phase.JOIN, Phase.READY, Phase.PLAY, Phase.ATTRACT]
    finished = [n for n in notices if isinstance(n, GameFinished)]
    assert len(finished) == 1
    assert finished[0].summary.termination is Termination.ABANDONED
    assert finished[0].players == (Seat.HUMAN, Seat.HUMAN)


def test_join_times_out_to_attract_without_the_cpu() -> None:
    flow = Flow(FlowSettings(cpu_allowed=False, idle_timeout_s=20), seed=4, now_ns=T0)
    flow.press(0, T0)
    notices = run(flow, T0, T0 + 21 * S, step=S)
    assert phases(notices) == [Phase.JOIN, Phase.ATTRACT]
    assert flow.join_cpu_in_s(T0) is None


def test_a_best_of_3_match_plays_games_until_decided_and_records_each() -> None:
    settings = FlowSettings(rules=Rules(best_of=3), cpu_level=2, join_wait_s=1, game_over_s=2)
    flow = Flow(settings, seed=5, now_ns=T0)
    flow.press(0, T0)
    notices = run(flow, T0, T0 + 600 * S, step=20 * MS, people=True)
    games = [n for n in notices if isinstance(n, GameFinished)]
    assert 2 <= len(games) <= 3 or any(g.summary.draw for g in games)
    assert phases(notices)[-1] is Phase.ATTRACT
    wins = [g.summary.winner for g in games]
    assert max(wins.count(0), wins.count(1)) == 2
    for game in games:  # every record replays to its result
        assert RecordResult.of(replay(game.record).summary()) == RecordResult.of(game.summary)


def test_a_human_press_through_the_match_keeps_the_game_alive() -> None:
    settings = FlowSettings(idle_timeout_s=5)
    flow = Flow(settings, seed=6, now_ns=T0)
    flow.press(0, T0)
    flow.press(1, T0)
    match = flow.match
    assert match is not None
    t = match.start_abs_ns + S
    run(flow, T0, t)
    for _ in range(8):  # 8 s of play, longer than the idle timeout, one press a second
        match.take(Edge.press(0, Button.SLOT1, t - MS), t)
        flow.press(0, t)
        run(flow, t, t + S)
        t += S
    assert flow.phase is Phase.PLAY
    assert match.referee.stats.edges == 8


def test_abandon_from_the_service_menu_is_recorded() -> None:
    flow = Flow(FlowSettings(), seed=7, now_ns=T0)
    flow.press(0, T0)
    flow.press(1, T0)
    run(flow, T0, T0 + 5 * S)
    flow.abandon(T0 + 5 * S)
    notices = flow.update(T0 + 5 * S)
    assert flow.phase is Phase.ATTRACT
    assert [n.summary.termination for n in notices if isinstance(n, GameFinished)] == [
        Termination.ABANDONED
    ]


def test_records_set_lead_to_initials_after_game_over_and_streaks_grow() -> None:
    settings = FlowSettings(rules=Rules(best_of=3), cpu_level=1, join_wait_s=1, game_over_s=2)
    flow = Flow(settings, seed=5, now_ns=T0)
    flow.press(0, T0)
    notices = run(flow, T0, T0 + 600 * S, step=20 * MS, people=True)
    games = [n for n in notices if isinstance(n, GameFinished)]
    humans_wins = [g for g in games if g.summary.winner == 0]
    assert humans_wins, "the person never beat the CPU at level 1"
    # Each finished game offers the person's figures; a won game their fastest win
    # against level 1 and their streak so far; the CPU is offered nothing.
    streak = 0
    for game in games:
        streak = streak + 1 if game.summary.winner == 0 else 0
        by = {c.category: c for c in game.candidates}
        assert all(c.player == 0 for c in game.candidates)
        if game.summary.winner == 0:
            assert by[Category.FASTEST_WIN_CPU_1].figure == (game.summary.end_t_ns or 0) // MS
            assert by[Category.LONGEST_STREAK].figure == streak
        else:
            assert Category.FASTEST_WIN_CPU_1 not in by


def test_initials_start_when_game_over_ends_and_finish_at_the_time_limit() -> None:
    settings = FlowSettings(cpu_level=1, join_wait_s=1, game_over_s=2)
    flow2 = Flow(settings, seed=8, now_ns=T0)
    flow2.press(0, T0)
    t = T0
    while flow2.phase is not Phase.GAME_OVER:  # until the game ends: the books answer
        notices = run(flow2, t, t + S, step=20 * MS, people=True)
        t += S
    (game,) = [n for n in notices if isinstance(n, GameFinished)]
    made = [NewPlace(100 + k, c) for k, c in enumerate(game.candidates)]
    flow2.enter_initials({0: made}, t)
    assert flow2.phase is Phase.GAME_OVER  # game over is shown first
    run(flow2, t, t + 2 * S + 20 * MS)
    assert flow2.phase is Phase.INITIALS and set(flow2.entries) == {0}
    start = flow2.phase_since_ns
    flow2.press(0, start + S, button=Button.SLOT1)  # B
    flow2.press(0, start + 2 * S, button=Button.PILE2)
    flow2.press(1, start + 2 * S, button=Button.PILE2)  # the CPU's seat: nothing
    later = run(flow2, start + 2 * S, start + 31 * S, step=100 * MS)
    entered = [n for n in later if isinstance(n, InitialsEntered)]
    assert entered == [InitialsEntered(0, "B  ", tuple(p.entry_id for p in made))]
    assert flow2.phase is Phase.ATTRACT
