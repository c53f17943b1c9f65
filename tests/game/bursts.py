"""Bursts of presses inside one race window, delivered in every order.

The promise (R10, docs/rules.md) is that the first press wins whatever order software sees
the presses in. A *burst* is a game played up to some moment, then a handful of edges of
both players within half a race window of each other (exact ties among them). Each order
of delivering the burst is one record; every record of a burst must replay to the same
game, event for event. The suite runs a bounded number of bursts
(``tests/game/test_delivery_order.py``); ``bench/permutations.py`` runs many more.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from game.cards import Card, shuffled_deck
from game.edges import Button, Edge, EdgeKind
from game.engine import Game
from game.events import Event
from game.record import MatchRecord, replay
from game.rules import Rules, TieRule
from game.units import MS

SLOT_BUTTONS = (Button.SLOT1, Button.SLOT2, Button.SLOT3, Button.SLOT4)
PILE_BUTTONS = (Button.PILE1, Button.PILE2)


@dataclass(frozen=True, slots=True)
class Burst:
    """A game's opening (edges delivered at once, a window apart) and then ``burst``, the
    edges whose delivery order varies."""

    rules: Rules
    seed: int
    opening: tuple[Edge, ...]
    burst: tuple[Edge, ...]

    def record_at(self, delays: list[int]) -> MatchRecord:
        """The record of delivering each edge of the burst ``delays[i]`` after it
        happened, in the order that makes."""
        delivered = sorted(
            (
                edge.delivered(edge.t_ns + delay)
                for edge, delay in zip(self.burst, delays, strict=True)
            ),
            key=lambda edge: edge.delivered_ns or 0,
        )
        return MatchRecord(self.rules, self.decks, self.opening + tuple(delivered), self.seed)

    @property
    def decks(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        return (tuple(shuffled_deck(self.seed, 0)), tuple(shuffled_deck(self.seed, 1)))

    def record(self, order: tuple[int, ...]) -> MatchRecord:
        """The record of delivering the burst in ``order`` (indexes into ``burst``), each
        edge after every edge of the burst happened and within the window of its own."""
        last = max(edge.t_ns for edge in self.burst)
        delivered = [self.burst[i].delivered(last + step) for step, i in enumerate(order, start=1)]
        return MatchRecord(self.rules, self.decks, self.opening + tuple(delivered), self.seed)


def outcome(record: MatchRecord) -> tuple[tuple[Event, ...], tuple[object, ...]]:
    """Everything a replay decides: its events in order and the table it ends with."""
    done = replay(record)
    game = done.game
    table = tuple((game.layout(p), game.pile(p), game.deck(p), game.is_stuck(p)) for p in (0, 1))
    return done.events, (table, game.outcome, game.spit_due_ns, done.referee.stats.late_edges)


def make_burst(rng: random.Random) -> Burst:
    """A random opening of plays, then 2 to 5 edges within half a window: slot presses
    for cards that fit, pile presses, other buttons and some releases, of both players."""
    window_ms = rng.choice((0.5, 2.0, 5.0))
    rules = Rules(
        race_window_ms=window_ms,
        spit_delay_ms=rng.choice((0, 1, 300)),
        tie_rule=rng.choice(list(TieRule)),
    )
    window = rules.race_window_ns
    seed = rng.randrange(2**32)
    game = Game((shuffled_deck(seed, 0), shuffled_deck(seed, 1)), rules)
    game.start(0)
    opening: list[Edge] = []
    t = 0
    for _ in range(rng.randrange(12)):
        t += window + rng.randrange(1, 400 * MS)
        game.advance(t)
        player = rng.randrange(2)
        slot = rng.randrange(4)
        pile = rng.randrange(2)
        game.play(player, slot, pile, t)
        opening.append(Edge(player, SLOT_BUTTONS[slot], EdgeKind.PRESS, t).delivered(t))
        opening.append(Edge(player, PILE_BUTTONS[pile], EdgeKind.PRESS, t).delivered(t))
    start = t + window + rng.randrange(1, 400 * MS)
    due = game.spit_due_ns
    if due is not None and due > t + window and rng.random() < 0.5:
        start = due - rng.randrange(window)  # a burst just before a spit falls due
    game.advance(start)
    span = rng.choice((0, 1, window // 10, window // 2))
    burst = []
    for _ in range(rng.randint(2, 5)):
        player = rng.randrange(2)
        at = start + (rng.randint(0, span) if rng.random() < 0.7 else 0)
        burst.append(Edge(player, _button(rng, game, player), _kind(rng), at))
    return Burst(rules, seed, tuple(opening), tuple(burst))


def _button(rng: random.Random, game: Game, player: int) -> Button:
    roll = rng.random()
    if roll < 0.45:
        return rng.choice(PILE_BUTTONS)
    if roll < 0.85:
        fitting = game.legal_plays(player)
        if fitting:
            return SLOT_BUTTONS[rng.choice(fitting)[0]]
    return rng.choice(list(Button))


def _kind(rng: random.Random) -> EdgeKind:
    return EdgeKind.RELEASE if rng.random() < 0.1 else EdgeKind.PRESS


def changed_orders(burst: Burst) -> list[tuple[int, ...]]:
    """Every delivery order of ``burst`` whose replay differs from delivering it in the
    order the edges happened (empty when the promise holds)."""
    orders = itertools.permutations(range(len(burst.burst)))
    first = next(orders)
    expected = outcome(burst.record(first))
    return [order for order in orders if outcome(burst.record(order)) != expected]


def changed_moments(burst: Burst, rng: random.Random, tries: int = 2) -> int:
    """How many of ``tries`` deliveries of ``burst`` at random moments inside the window
    (each edge on its own, as test_properties delivers) replay differently from delivering
    it at once (0 when the promise holds)."""
    window = burst.rules.race_window_ns
    expected = outcome(burst.record_at([0] * len(burst.burst)))
    changed = 0
    for _ in range(tries):
        delays = [rng.randrange(window) if window else 0 for _ in burst.burst]
        changed += outcome(burst.record_at(delays)) != expected
    return changed
