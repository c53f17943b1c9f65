"""CPU against CPU in virtual time, through the same referee as people.

A discrete-event loop: CPU players look at the decided table, plan a play, and their
presses are delivered to the referee a little later (a seeded delivery delay within the
race window, so the referee's reordering is exercised on every game). Nothing sleeps;
a game of several virtual minutes takes about a millisecond.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from game.bots import Level
from game.cards import Card, derived_rng, shuffled_deck
from game.cpu_seat import CpuSeat
from game.edges import Edge
from game.events import Event
from game.record import MatchRecord, start_match
from game.record_parts import RecordMeta
from game.referee import Referee
from game.rules import Rules
from game.summary import GameSummary, Seat, summarize
from game.units import MS

#: A game still running after this much virtual time is abandoned (a safety net: CPU
#: players always play when they can, so real games end long before).
MAX_GAME_NS = 3_600_000 * MS


@dataclass(frozen=True, slots=True)
class CpuGame:
    """One finished CPU-vs-CPU game: its record (replayable), its summary, how long it
    took (virtual ns) and its events, in order."""

    record: MatchRecord
    summary: GameSummary
    duration_ns: int
    events: tuple[Event, ...]


Deliveries = list[tuple[int, int, Edge]]
"""Presses on their way to the referee, a heap of ``(delivered_ns, seq, edge)``."""


def play_cpu_game(
    seed: int,
    levels: tuple[Level, Level],
    rules: Rules | None = None,
    *,
    max_delay_ns: int | None = None,
) -> CpuGame:
    """Play one game between two CPU players, deterministically from ``seed``.

    Each press is delivered to the referee after a delay drawn uniformly from
    ``0..max_delay_ns`` (default: 90 % of the race window), so presses are often seen
    out of order yet never late.
    """
    rules = rules if rules is not None else Rules()
    decks = (shuffled_deck(seed, 0), shuffled_deck(seed, 1))
    referee = start_match(rules, decks, seed)
    game = referee.game
    delay_max = max_delay_ns if max_delay_ns is not None else rules.race_window_ns * 9 // 10
    jitter = _jitter(seed, delay_max)
    seats = _seats(seed, levels, rules)
    deliveries: Deliveries = []
    decided_at: list[int] = []  # clock readings at which a CPU's pile press is decided
    sequence = itertools.count()
    window = referee.window_ns
    events: list[Event] = []
    now = 0
    _absorb(referee.tick(0), 0, seats, events)
    while game.outcome is None:
        for seat in seats:
            at = seat.look_at
            if at is not None and at <= now:
                presses = seat.look(game, now, jitter)
                if presses is not None:
                    _send(presses, deliveries, sequence)
                    heapq.heappush(decided_at, presses[1].t_ns + window)
        upcoming = _next_moment(seats, decided_at, game.spit_due_ns, window)
        # Deliveries before it go straight in, until one wakes a CPU.
        now, woke = _deliver(deliveries, upcoming, now, referee, seats, events)
        if woke:
            continue
        if upcoming > MAX_GAME_NS:
            game.abandon(max(now, referee.horizon_ns))
            events.extend(game.take_events())
            break
        now = max(now, upcoming)
        while decided_at and decided_at[0] <= now:
            heapq.heappop(decided_at)
        _absorb(referee.tick(now), now, seats, events)
    record = _record(rules, decks, referee, seed, now, levels)
    return CpuGame(record, summarize(game, referee, events), now, tuple(events))


def _jitter(seed: int, delay_max: int) -> Callable[[int], int]:
    """When a press made at ``t_ns`` reaches the referee: a seeded delay of up to
    ``delay_max`` later."""
    random = derived_rng(seed, "delivery").random

    def jitter(t_ns: int) -> int:
        return t_ns + int(random() * delay_max)

    return jitter


def _seats(seed: int, levels: tuple[Level, Level], rules: Rules) -> tuple[CpuSeat, CpuSeat]:
    """Both CPU players, each timed by its own stream drawn from ``seed``."""
    wraps = rules.ace_wraps
    return (
        CpuSeat(0, levels[0], derived_rng(seed, "cpu0"), ace_wraps=wraps),
        CpuSeat(1, levels[1], derived_rng(seed, "cpu1"), ace_wraps=wraps),
    )


def _absorb(
    new: list[Event], t_ns: int, seats: tuple[CpuSeat, CpuSeat], events: list[Event]
) -> bool:
    """Take in events decided at ``t_ns``; True when a CPU now wants to look."""
    if not new:
        return False
    events.extend(new)
    return seats[0].observe(new, t_ns) | seats[1].observe(new, t_ns)


def _send(presses: tuple[Edge, Edge], deliveries: Deliveries, sequence: Iterator[int]) -> None:
    """Put a play's slot and pile presses on their way, each due at its ``delivered_ns``."""
    for edge in presses:
        delivered = edge.delivered_ns
        assert delivered is not None
        heapq.heappush(deliveries, (delivered, next(sequence), edge))


def _next_moment(
    seats: tuple[CpuSeat, CpuSeat], decided_at: list[int], spit_due_ns: int | None, window: int
) -> int:
    """The next moment something other than a delivery must happen: a pile press is
    decided, a CPU looks, or a spit falls due and is decided (past :data:`MAX_GAME_NS`
    when nothing will)."""
    upcoming = decided_at[0] if decided_at else MAX_GAME_NS + 1
    for seat in seats:
        at = seat.look_at
        if at is not None and at < upcoming:
            upcoming = at
    if spit_due_ns is not None and spit_due_ns + window < upcoming:
        upcoming = spit_due_ns + window
    return upcoming


def _deliver(
    deliveries: Deliveries,
    until_ns: int,
    now: int,
    referee: Referee,
    seats: tuple[CpuSeat, CpuSeat],
    events: list[Event],
) -> tuple[int, bool]:
    """Hand the referee, in delivery order, each press delivered by ``until_ns``, until
    one wakes a CPU: the clock after the last one handed in, and whether one woke."""
    while deliveries and deliveries[0][0] <= until_ns:
        delivered, _, edge = heapq.heappop(deliveries)
        now = max(now, delivered)
        if _absorb(referee.take(edge, now), now, seats, events):
            return now, True
    return now, False


def _record(
    rules: Rules,
    decks: tuple[tuple[Card, ...], tuple[Card, ...]],
    referee: Referee,
    seed: int,
    end_ns: int,
    levels: tuple[Level, Level],
) -> MatchRecord:
    """The finished game's record: every edge the referee took, both seats CPUs."""
    return MatchRecord(
        rules=rules,
        decks=decks,
        edges=tuple(referee.stats.edge_log),
        seed=seed,
        end_ns=end_ns,
        meta=RecordMeta(seats=(Seat.CPU, Seat.CPU), levels=(levels[0].number, levels[1].number)),
    )
