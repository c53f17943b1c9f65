"""What each screen shows, as plain frozen values the flow builds and the renderer draws.

Every string in a view is already translated: the display never looks text up, it only
draws it. Players, slots and piles are 0-based (player 0 is the rules' player 1).

Screens: :class:`TableView` (a game in play), :class:`AttractView` (the CPU demo with the
prompt and a how-to card), :class:`JoinView` and :class:`GameOverView`. Each carries the
light strip's :class:`~firmware_bridge.lights.LightState` (or ``None`` when no strip is
drawn). :func:`table_view` builds a :class:`TableView` from a
:class:`~game.table_state.TableState` (what the table process decided).
"""

from __future__ import annotations

from dataclasses import dataclass

from cabinet.drawing.fame_views import ChampionsView, FameBoardView, InitialsView
from firmware_bridge.lights import LightState
from game.cards import Card
from game.engine import SLOTS
from game.table_state import TableState


class ViewError(ValueError):
    """A view was built with values the display cannot show (wrong counts, bad indexes)."""


@dataclass(frozen=True, slots=True)
class PlayerTable:
    """One player's side of a game in play."""

    label: str
    """Name / status line, e.g. ``"PLAYER 1"`` or ``"CPU"``."""
    layout: tuple[Card | None, ...]
    """The four layout slots, slot 1 first; ``None`` for an empty slot."""
    deck_size: int
    """Cards left in the deck (drawn on the deck)."""
    selected: int | None = None
    """The selected slot (0-3), or ``None``."""
    stuck: bool = False
    """R11: no layout card fits either pile (shows the STUCK badge)."""
    warning: str | None = None
    """A stuck-switch warning for this player's buttons (e.g. a button held down for
    minutes), shown on their message line; ``None`` for none."""
    cards_left: str | None = None
    """The cards the player still has to get rid of (deck and layout, R12), written
    beside the name all game, e.g. ``"27 cards left"``; ``None``: not shown."""

    def __post_init__(self) -> None:
        if len(self.layout) != SLOTS:
            raise ViewError(f"a layout has {SLOTS} slots, got {len(self.layout)}")
        if self.selected is not None and not 0 <= self.selected < SLOTS:
            raise ViewError(f"selected slot must be 0..3 or None, got {self.selected!r}")
        if self.deck_size < 0:
            raise ViewError(f"deck size cannot be negative, got {self.deck_size}")


@dataclass(frozen=True, slots=True)
class RaceMoment:
    """A race on ``pile`` won by a hair, e.g. ``"Player 1 first by 3.2 ms"``: written by
    the pile for a moment, for both players."""

    pile: int
    text: str

    def __post_init__(self) -> None:
        if self.pile not in (0, 1):
            raise ViewError(f"a race moment's pile must be 0 or 1, got {self.pile!r}")


@dataclass(frozen=True, slots=True)
class TableView:
    """A game in play: both players' sides, the piles, and the countdown if one runs."""

    players: tuple[PlayerTable, PlayerTable]
    pile_tops: tuple[Card | None, Card | None]
    pile_sizes: tuple[int, int]
    stuck_text: str
    """The STUCK badge's text, translated."""
    countdown: str | None = None
    """R11's "ready… spit!" (or the start's), shown in the middle; ``None`` when none runs."""
    lights: LightState | None = None
    score: str | None = None
    """The match score, e.g. ``"Match 1 – 0"``, shown all game; ``None`` for a single game."""
    races: tuple[RaceMoment, ...] = ()
    """The close races to show now, at most one per pile (a countdown hides them)."""

    def __post_init__(self) -> None:
        if len(self.players) != 2 or len(self.pile_tops) != 2 or len(self.pile_sizes) != 2:
            raise ViewError("a table has two players and two piles")
        piles = [race.pile for race in self.races]
        if len(piles) != len(set(piles)):
            raise ViewError(f"one race moment per pile at most, got piles {piles}")


@dataclass(frozen=True, slots=True)
class AttractView:
    """The attract screen: a CPU-vs-CPU game with the prompt and a how-to-play card."""

    table: TableView
    prompt: str
    """E.g. "Press any button"; the renderer blinks it (0.6 s on, 0.4 s off)."""
    howto: str
    """The current how-to-play card's text; newlines are kept, long lines wrapped."""
    credits: str | None = None
    """E.g. "FREE PLAY" or "CREDITS 1 1/2 · 1 credit per player"; ``None``: no line."""

    @property
    def lights(self) -> LightState | None:
        return self.table.lights


@dataclass(frozen=True, slots=True)
class JoinPlayer:
    """One player's panel while players join."""

    title: str
    """E.g. "PLAYER 1"."""
    status: str
    """E.g. "Press any button to join" or "Ready!"."""
    joined: bool


@dataclass(frozen=True, slots=True)
class JoinView:
    """Players joining: a panel each, and a shared line (e.g. "CPU joins in 5")."""

    players: tuple[JoinPlayer, JoinPlayer]
    footer: str | None = None
    lights: LightState | None = None
    credits: str | None = None
    """The money line, as on the attract screen."""


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One player's panel at game over: a title and lines of figures, already formatted."""

    title: str
    lines: tuple[str, ...]
    """E.g. ("Cards left: 0", "Plays: 42", "Fastest play: 312 ms")."""
    winner: bool = False


@dataclass(frozen=True, slots=True)
class GameOverView:
    """Game over: the winner, each player's figures, and the match score when the match
    is longer than one game."""

    headline: str
    """E.g. "Player 1 wins!" or "Draw"."""
    players: tuple[PlayerSummary, PlayerSummary]
    match_line: str | None = None
    """E.g. "Match: 2 – 1"; ``None`` for a single game."""
    lights: LightState | None = None


View = (
    TableView | AttractView | JoinView | GameOverView | InitialsView | FameBoardView | ChampionsView
)
"""Every screen the renderer draws (the hall of fame's are in :mod:`.fame_views`)."""


@dataclass(frozen=True, slots=True)
class TableLabels:
    """The translated strings a table needs: the two players' names and the STUCK badge."""

    names: tuple[str, str]
    stuck: str


def table_view(
    state: TableState,
    labels: TableLabels,
    *,
    countdown: str | None = None,
    warnings: tuple[str | None, str | None] = (None, None),
    lights: LightState | None = None,
    cards_left: tuple[str | None, str | None] = (None, None),
    score: str | None = None,
    races: tuple[RaceMoment, ...] = (),
) -> TableView:
    """The table as ``state`` shows it (``TableState.of(referee)``): layouts, piles, decks,
    selections and stuck flags, with the flow's translated ``labels``, ``countdown`` text
    (or ``None``), per-player stuck-switch ``warnings`` and ``cards_left`` texts, the
    match ``score`` and the race moments."""
    players = tuple(
        PlayerTable(
            label=labels.names[p],
            layout=state.layouts[p],
            deck_size=state.deck_sizes[p],
            selected=state.selected[p],
            stuck=state.stuck[p],
            warning=warnings[p],
            cards_left=cards_left[p],
        )
        for p in (0, 1)
    )
    return TableView(
        players=(players[0], players[1]),
        pile_tops=state.pile_tops,
        pile_sizes=state.pile_sizes,
        stuck_text=labels.stuck,
        countdown=countdown,
        lights=lights,
        score=score,
        races=races,
    )
