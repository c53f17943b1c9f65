"""The hall of fame's screens, as plain frozen values (every string already translated):
:class:`InitialsView` (players entering initials after a game) and
:class:`FameBoardView` (the board, in attract's turn) and :class:`ChampionsView` (the
route's champions, in a turn of their own)."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.lights import LightState


@dataclass(frozen=True, slots=True)
class InitialsPanel:
    """One player's side while initials are entered: a player who set a record gets
    ``letters`` (three characters) with ``position`` (0-2, the one being chosen; 3 when
    done); one who did not gets ``letters`` ``None`` and only the lines."""

    title: str
    lines: tuple[str, ...]
    """The records set, e.g. ("Most plays in a game: 47 · 1st",)."""
    letters: str | None = None
    position: int = 0
    status: str = ""
    """E.g. "12 s left" or "Saved"."""


@dataclass(frozen=True, slots=True)
class InitialsView:
    """Both players' sides, and the controls' help line."""

    players: tuple[InitialsPanel, InitialsPanel]
    help: str
    lights: LightState | None = None


@dataclass(frozen=True, slots=True)
class FameRow:
    rank: str
    initials: str
    figure: str
    date: str
    new: bool = False
    """Set since the board was last shown in attract (highlighted)."""


@dataclass(frozen=True, slots=True)
class FameColumn:
    title: str
    rows: tuple[FameRow, ...]


@dataclass(frozen=True, slots=True)
class FameBoardView:
    """The hall of fame: a title and one column per category with entries."""

    title: str
    columns: tuple[FameColumn, ...]
    lights: LightState | None = None


@dataclass(frozen=True, slots=True)
class ChampionRow:
    """One category's champion across the route: who, the figure, and where."""

    category: str
    initials: str
    figure: str
    venue: str


@dataclass(frozen=True, slots=True)
class ChampionsView:
    """The route's champions: a title and one row per category that has one."""

    title: str
    rows: tuple[ChampionRow, ...]
    lights: LightState | None = None
