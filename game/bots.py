"""CPU players: a pure decision and a timing model per level.

The decision (:func:`choose_play`) looks only at what a person at the table sees: the
player's own layout and the two pile tops. The timing model (:class:`CpuPlayer`) turns
"the table changed at t" into virtual slot and pile presses at later times, drawn from
the match's own seeded random stream, so a CPU player wins and loses races by the same
rule as a person (R10): its presses go through the same referee.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from game.cards import Card
from game.edges import Button, Edge
from game.units import MS


class LevelError(ValueError):
    """There is no CPU level with that number."""


@dataclass(frozen=True, slots=True)
class Level:
    """One CPU skill level. Times in milliseconds, drawn uniformly from each range."""

    number: int
    name: str
    think_ms: tuple[int, int]
    """From seeing the table (or finishing the last play) to pressing the slot button."""
    move_ms: tuple[int, int]
    """From the slot button to the pile button: the hand's travel."""
    plans_ahead: bool = False
    """Prefers plays that leave its next card playable."""

    @property
    def seconds_per_card(self) -> tuple[float, float]:
        """The fastest and slowest time one play takes, in seconds."""
        low = self.think_ms[0] + self.move_ms[0]
        high = self.think_ms[1] + self.move_ms[1]
        return (low / 1000, high / 1000)


LEVELS: tuple[Level, ...] = (
    Level(1, "Beginner", think_ms=(1_600, 2_400), move_ms=(400, 600)),
    Level(2, "Casual", think_ms=(950, 1_450), move_ms=(250, 350)),
    Level(3, "Skilled", think_ms=(520, 780), move_ms=(180, 260), plans_ahead=True),
    Level(4, "Expert", think_ms=(230, 400), move_ms=(120, 200), plans_ahead=True),
    Level(5, "Champion", think_ms=(170, 260), move_ms=(90, 140), plans_ahead=True),
)
"""Levels 1 (about 2 to 3 s a card) to 5; level 4 beats most people (0.35 to 0.6 s)."""


def level(number: int) -> Level:
    """The CPU level numbered ``number`` (1 = beginner)."""
    if not 1 <= number <= len(LEVELS):
        raise LevelError(f"CPU level must be 1 to {len(LEVELS)}, got {number!r}")
    return LEVELS[number - 1]


def choose_play(
    layout: Sequence[Card | None],
    tops: Sequence[Card | None],
    fits: Sequence[frozenset[int]],
    *,
    plans_ahead: bool = False,
) -> tuple[int, int] | None:
    """The (slot, pile) to play, or ``None`` when no layout card fits a pile (R11).

    ``fits[rank]`` is the set of ranks playable onto ``rank`` (see
    :func:`game.engine.fitting_ranks`). A simple player takes the first play it sees,
    scanning its slots left to right; one that plans ahead prefers the play after which
    most of its other cards can follow onto the card it just played.
    """
    best: tuple[int, int] | None = None
    best_score = -1
    for slot, card in enumerate(layout):
        if card is None:
            continue
        for pile, top in enumerate(tops):
            if top is None or card.rank not in fits[top.rank]:
                continue
            if not plans_ahead:
                return (slot, pile)
            onward = fits[card.rank]
            score = 0
            for other in layout:
                if other is not None and other is not card and other.rank in onward:
                    score += 1
            if score > best_score:
                best, best_score = (slot, pile), score
    return best


class CpuPlayer:
    """The timing of one CPU player: when it presses what."""

    def __init__(self, player: int, level: Level, rng: random.Random) -> None:
        self.player = player
        self.level = level
        self._rng = rng

    def _draw_ns(self, bounds: tuple[int, int]) -> int:
        # random() scaled, not randint(): a third of the cost, and as reproducible.
        low = bounds[0] * MS
        return low + int(self._rng.random() * (bounds[1] * MS - low))

    def press_times(self, t_ns: int) -> tuple[int, int]:
        """When the slot button and then the pile button of a play decided at ``t_ns``
        are pressed (ns)."""
        lv = self.level
        slot_at = t_ns + self._draw_ns(lv.think_ms)
        return slot_at, slot_at + self._draw_ns(lv.move_ms)

    def presses_for(self, slot: int, pile: int, t_ns: int) -> tuple[Edge, Edge]:
        """The two presses of one play decided at ``t_ns``: the slot, then the pile.

        Virtual presses have no button to let go of, so no releases are made: the
        referee ignores releases for play, and leaving them out halves a simulation's
        edges.
        """
        slot_at, pile_at = self.press_times(t_ns)
        p = self.player
        return (
            Edge.press(p, Button.slot(slot), slot_at),
            Edge.press(p, Button.pile(pile), pile_at),
        )
