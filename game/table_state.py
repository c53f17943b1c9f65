"""What the table looks like at one moment, as one small value.

The table process decides the game; the display process draws it. Between the two goes
:class:`TableState`: everything the screen, the lights and the flow read of a running
game (layouts, piles, decks, selections, stuck flags, a due spit, the outcome), taken
from a referee with :meth:`TableState.of`. It is frozen and made only of cards, ints and
tuples, so it pickles small and can be read on any thread.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.cards import Card
from game.events import Outcome
from game.referee import Referee


@dataclass(frozen=True, slots=True)
class TableState:
    """One moment of a game, as decided so far. Players and piles are 0-based; times
    are match time (ns, 0 at the start's spit, R5)."""

    layouts: tuple[tuple[Card | None, ...], tuple[Card | None, ...]]
    """Each player's four layout slots, slot 1 first; ``None`` for an empty slot."""
    deck_sizes: tuple[int, int]
    pile_tops: tuple[Card | None, Card | None]
    pile_sizes: tuple[int, int]
    selected: tuple[int | None, int | None]
    """Each player's selected slot (R8), or ``None``."""
    stuck: tuple[bool, bool]
    """R11: no layout card fits either pile."""
    playable: tuple[tuple[int, ...], tuple[int, ...]]
    """Each player's slots whose card fits a pile (for the operator's button hints)."""
    spit_due_ns: int | None
    """When R11's countdown ends in a spit, or ``None``."""
    outcome: Outcome | None
    """How the game ended, or ``None`` while it runs."""
    now_ns: int
    """The referee's clock when this was taken."""

    @classmethod
    def of(cls, referee: Referee) -> TableState:
        """The table as ``referee`` has decided it so far."""
        game = referee.game
        return cls(
            layouts=(game.layout(0), game.layout(1)),
            deck_sizes=(game.deck_size(0), game.deck_size(1)),
            pile_tops=(game.pile_top(0), game.pile_top(1)),
            pile_sizes=(game.pile_size(0), game.pile_size(1)),
            selected=(referee.selected(0), referee.selected(1)),
            stuck=(game.is_stuck(0), game.is_stuck(1)),
            playable=(_playable(referee, 0), _playable(referee, 1)),
            spit_due_ns=game.spit_due_ns,
            outcome=game.outcome,
            now_ns=referee.now_ns,
        )

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def cards_left(self, player: int) -> int:
        """Cards the player still has to get rid of (deck and layout, R12)."""
        return self.deck_sizes[player] + sum(c is not None for c in self.layouts[player])


def _playable(referee: Referee, player: int) -> tuple[int, ...]:
    return tuple(sorted({slot for slot, _ in referee.game.legal_plays(player)}))
