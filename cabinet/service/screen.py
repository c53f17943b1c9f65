"""What a menu page shows, as plain values: the renderer draws it, tests read it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from firmware_bridge.lights import LightState


class Tone(enum.StrEnum):
    """How a row reads: its colour on screen, and whether the cursor stops on it."""

    NORMAL = "normal"
    HEAD = "head"
    """A heading or a read-only value: the cursor passes over it."""
    WARN = "warn"
    GOOD = "good"
    DIM = "dim"


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a page: a ``label`` on the left and its ``value`` on the right, in its
    :class:`Tone`."""

    label: str
    value: str = ""
    tone: Tone = Tone.NORMAL


@dataclass(frozen=True, slots=True)
class MenuScreen:
    """One page as it looks now. ``cursor`` indexes :attr:`rows` (``None``: no cursor).
    ``pattern`` is a monitor test pattern (``bars``, ``crosshatch``, ``safe``) drawn
    full screen instead of rows, turned 180° when ``turned``."""

    title: str
    rows: tuple[Row, ...] = ()
    cursor: int | None = None
    help: str = ""
    notice: str = ""
    pattern: str | None = None
    turned: bool = False
    lights: LightState = field(default_factory=LightState.all_off)
