"""What the engine and the referee report, in order, as small values.

The cabinet drives its display, lights, sound and audits from these events alone, so each
carries everything needed to show it (the card, the slot, the pile, the time) without
re-deriving rules. ``t_ns`` is when the event happened on the match's clock.

Events are read-only by convention: they are plain slotted dataclasses rather than frozen
ones because a frozen dataclass takes four times as long to build (measured: 0.93 µs
against 0.24 µs for five fields), and the engine builds two or three per play.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from game.cards import Card


class Termination(enum.Enum):
    """How a game ended."""

    WENT_OUT = "went_out"
    """R12: a player played their last card."""
    BLOCKED = "blocked"
    """R13: both decks empty and both players stuck; fewer cards left wins."""
    ABANDONED = "abandoned"
    """The cabinet stopped the game (idle, service menu); no winner."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game. ``winner`` is 0, 1, or ``None`` for a draw."""

    termination: Termination
    winner: int | None
    cards_left: tuple[int, int]

    @property
    def draw(self) -> bool:
        return self.winner is None


class RejectReason(enum.Enum):
    """Why a play was refused (R7, R10)."""

    ILLEGAL = "illegal"
    """The card is not one rank above or below the pile's top."""
    BEATEN = "beaten"
    """The opponent's play onto that pile arrived just before and made it illegal."""
    EMPTY_SLOT = "empty_slot"
    """The chosen layout slot holds no card."""
    NOT_RUNNING = "not_running"
    """The game has not started or is over."""


@dataclass(slots=True)
class Started:
    """R5: the start's spit; ``cards[p]`` went onto pile ``p``."""

    t_ns: int
    cards: tuple[Card, Card]


@dataclass(slots=True)
class Played:
    """R7, R8: ``card`` went from ``player``'s ``slot`` onto ``pile`` (0-based)."""

    t_ns: int
    player: int
    slot: int
    pile: int
    card: Card


@dataclass(slots=True)
class Refilled:
    """R9: ``slot`` was refilled with ``card`` from ``player``'s deck."""

    t_ns: int
    player: int
    slot: int
    card: Card


@dataclass(slots=True)
class Rejected:
    """A play was refused; the card stays in the slot (R10). ``margin_ns`` is set when
    beaten: how long after the opponent's winning play this one arrived."""

    t_ns: int
    player: int
    slot: int
    pile: int
    reason: RejectReason
    margin_ns: int | None = None


@dataclass(slots=True)
class StuckChanged:
    """R11: ``player`` became stuck (no layout card fits a pile) or unstuck."""

    t_ns: int
    player: int
    stuck: bool


@dataclass(slots=True)
class SpitDue:
    """R11: both players are stuck; the countdown runs and spit falls due at ``due_ns``."""

    t_ns: int
    due_ns: int


@dataclass(slots=True)
class Spat:
    """R11: spit was called; ``cards[p]`` went onto pile ``p``, or ``None`` when player
    ``p``'s deck was empty."""

    t_ns: int
    cards: tuple[Card | None, Card | None]


@dataclass(slots=True)
class GameOver:
    """The game ended (R12, R13, or abandoned by the cabinet)."""

    t_ns: int
    outcome: Outcome


@dataclass(slots=True)
class Selected:
    """R8 (referee): ``player`` pressed ``slot``'s button; it is now selected."""

    t_ns: int
    player: int
    slot: int


@dataclass(slots=True)
class Tie:
    """R10 (referee): both players pressed a pile button at exactly ``t_ns``; ``first``
    was given priority by the tie rule."""

    t_ns: int
    first: int


@dataclass(slots=True)
class LateEdge:
    """(referee) an edge arrived more than the race window after it happened and was
    applied at the horizon ``applied_ns`` instead of its own ``t_ns``."""

    t_ns: int
    player: int
    applied_ns: int
    delivered_ns: int


EngineEvent = Started | Played | Refilled | Rejected | StuckChanged | SpitDue | Spat | GameOver
Event = EngineEvent | Selected | Tie | LateEdge
