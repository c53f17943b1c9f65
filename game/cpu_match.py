"""CPU against CPU in virtual time, through the same referee as people.

A discrete-event loop: CPU players look at the decided table, plan a play, and their
presses are delivered to the referee a little later (a seeded delivery delay within the
race window, so the referee's reordering is exercised on every game). Nothing sleeps;
a game of several virtual minutes takes about a millisecond.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from game.bots import Level
from game.cards import derived_rng, shuffled_deck
from game.cpu_seat import CpuSeat
from game.edges import Edge
from game.events import Event
from game.record import MatchRecord, start_match
from game.record_parts import RecordMeta
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
    random = derived_rng(seed, "delivery").random

    def jitter(t_ns: int) -> int:
        return t_ns + int(random() * delay_max)

    seats = [
        CpuSeat(p, levels[p], derived_rng(seed, f"cpu{p}"), ace_wraps=rules.ace_wraps)
        for p in (0, 1)
    ]
    deliveries: list[tuple[int, int, Edge]] = []  # (delivered_ns, seq, edge)
    decided_at: list[int] = []  # clock readings at which a CPU's pile press is decided
    seq = 0
    window = referee.window_ns
    events: list[Event] = []
    now = 0

    def absorb(new: list[Event], t: int) -> bool:
        """Take in decided events; True when a CPU now wants to look."""
        if not new:
            return False
        events.extend(new)
        return seats[0].observe(new, t) | seats[1].observe(new, t)

    absorb(referee.tick(0), 0)
    while game.outcome is None:
        for seat in seats:
            at = seat.look_at
            if at is not None and at <= now:
                presses = seat.look(game, now, jitter)
                if presses is not None:
                    for edge in presses:
                        delivered = edge.delivered_ns
                        assert delivered is not None
                        heapq.heappush(deliveries, (delivered, seq, edge))
                        seq += 1
                    heapq.heappush(decided_at, presses[1].t_ns + window)
        # The next moment something other than a delivery must happen.
        upcoming = MAX_GAME_NS + 1
        if decided_at:
            upcoming = decided_at[0]
        for seat in seats:
            at = seat.look_at
            if at is not None and at < upcoming:
                upcoming = at
        due = game.spit_due_ns
        if due is not None and due + window < upcoming:
            upcoming = due + window
        # Deliveries before it go straight in, until one wakes a CPU.
        woke = False
        while deliveries and deliveries[0][0] <= upcoming:
            delivered, _, edge = heapq.heappop(deliveries)
            now = max(now, delivered)
            if absorb(referee.take(edge, now), now):
                woke = True
                break
        if woke:
            continue
        if upcoming > MAX_GAME_NS:
            game.abandon(max(now, referee.horizon_ns))
            events.extend(game.take_events())
            break
        now = max(now, upcoming)
        while decided_at and decided_at[0] <= now:
            heapq.heappop(decided_at)
        absorb(referee.tick(now), now)

    record = MatchRecord(
        rules=rules,
        decks=decks,
        edges=tuple(referee.stats.edge_log),
        seed=seed,
        end_ns=now,
        meta=RecordMeta(seats=(Seat.CPU, Seat.CPU), levels=(levels[0].number, levels[1].number)),
    )
    return CpuGame(record, summarize(game, referee, events), now, tuple(events))
