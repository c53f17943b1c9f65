"""What a menu page shows, as plain values: the renderer draws it, tests read it."""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_bridge.lights import LightState


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a page: a ``label`` on the left and its ``value`` on the right.
    ``tone``: ``normal``, ``head`` (a heading, not selectable), ``warn``, ``good``,
    ``dim``."""

    label: str
    value: str = ""
    tone: str = "normal"


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
