"""CPU against CPU in virtual time, through the same referee as people.

A discrete-event loop: CPU players look at the decided table, plan a play, and their
presses are delivered to the referee a little later (a seeded delivery delay within the
race window, so the referee's reordering is exercised on every game). Nothing sleeps;
a game of several virtual minutes takes about a millisecond.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from game.bots import CpuPlayer, Level, choose_play
from game.cards import derived_rng, shuffled_deck
from game.edges import Button, Edge, EdgeKind
from game.engine import fitting_ranks
from game.events import Event, GameOver, Played, Rejected, Spat, Started
from game.record import MatchRecord, start_match, summarize
from game.rules import MS, Rules

#: A game still running after this much virtual time is abandoned (a safety net: CPU
#: players always play when they can, so real games end long before).
MAX_GAME_NS = 3_600_000 * MS

SLOT_BUTTONS = tuple(Button.slot(i) for i in range(4))
PILE_BUTTONS = (Button.PILE1, Button.PILE2)
PRESS = EdgeKind.PRESS


@dataclass(frozen=True, slots=True)
class CpuGame:
    """One finished CPU-vs-CPU game: its record (replayable) and its summary."""

    record: MatchRecord
    summary: dict[str, Any]
    duration_ns: int


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
    fits = fitting_ranks(rules.ace_wraps)
    delay_max = max_delay_ns if max_delay_ns is not None else rules.race_window_ns * 9 // 10
    random = derived_rng(seed, "delivery").random
    cpus = [CpuPlayer(p, levels[p], derived_rng(seed, f"cpu{p}")) for p in (0, 1)]

    deliveries: list[tuple[int, int, Edge]] = []  # (delivered_ns, seq, edge)
    decided_at: list[int] = []  # clock readings at which a CPU's pile press is decided
    seq = 0
    window = referee.window_ns
    # Per CPU: when it next looks at the table; None while a play is under way or
    # while it waits, stuck, for the table to change.
    look_at: list[int | None] = [0, 0]
    acting = [False, False]
    events: list[Event] = []
    now = 0

    def absorb(new: list[Event], t: int) -> bool:
        """Take in decided events; True when a CPU now has somewhere to look."""
        if not new:
            return False
        events.extend(new)
        changed = False
        looks = False
        for event in new:
            kind = type(event)
            if kind is Played or kind is Rejected:
                assert isinstance(event, Played | Rejected)
                if acting[event.player]:
                    # The CPU's own play was decided: it carries on from here.
                    acting[event.player] = False
                    look_at[event.player] = t
                    looks = True
                changed = changed or kind is Played
            elif kind is Spat or kind is Started or kind is GameOver:
                changed = True
        if changed:
            for p in (0, 1):
                if not acting[p] and look_at[p] is None:
                    look_at[p] = t
                    looks = True
        return looks or changed

    absorb(referee.tick(0), 0)
    plans_ahead = (cpus[0].level.plans_ahead, cpus[1].level.plans_ahead)
    while game.outcome is None:
        for p in (0, 1):
            at = look_at[p]
            if at is not None and at <= now:
                look_at[p] = None
                tops = (game.pile_top(0), game.pile_top(1))
                choice = choose_play(game.layout(p), tops, fits, plans_ahead=plans_ahead[p])
                if choice is not None:
                    acting[p] = True
                    slot_at, pile_at = cpus[p].press_times(now)
                    for button, t in (
                        (SLOT_BUTTONS[choice[0]], slot_at),
                        (PILE_BUTTONS[choice[1]], pile_at),
                    ):
                        delivered = t + int(random() * delay_max)
                        heapq.heappush(
                            deliveries, (delivered, seq, Edge(p, button, PRESS, t, delivered))
                        )
                        seq += 1
                    heapq.heappush(decided_at, pile_at + window)
        # The next moment something other than a delivery must happen.
        upcoming = MAX_GAME_NS + 1
        if decided_at:
            upcoming = decided_at[0]
        for at in look_at:
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
        meta={"players": ["cpu", "cpu"], "levels": [levels[0].number, levels[1].number]},
    )
    summary = summarize(game, referee, events)
    summary["events"] = len(events)
    return CpuGame(record, summary, now)
