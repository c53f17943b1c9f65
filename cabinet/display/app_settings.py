"""The cabinet's settings as the display process uses them: :class:`AppSettings`, made
from the operator's stored settings (and, in ``spit-cabinet run``, the command line's
choices on top). Plain values: no pygame, no database."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cabinet.display.flow import FlowSettings
from cabinet.drawing.geometry import Orientation
from cabinet.storage import setting_table as table

if TYPE_CHECKING:
    from cabinet.storage.settings import Settings


DEFAULT_ORIENTATION = Orientation(table.ORIENTATION.default)


@dataclass(slots=True)
class AppSettings:
    """The cabinet's settings as the main loop uses them."""

    flow: FlowSettings = field(default_factory=FlowSettings)
    language: str = table.LANGUAGE.default
    orientation: Orientation = DEFAULT_ORIENTATION
    volume_percent: int = table.VOLUME.default
    attract_sound: bool = table.ATTRACT_SOUND.default
    hints: bool = table.BUTTON_HINTS.default
    brightness_percent: int = table.LIGHT_BRIGHTNESS.default
    resolution: str = table.RESOLUTION.default
    """``"auto"`` or ``"WIDTHxHEIGHT"``: the screen mode (applied through ``set_mode``)."""

    @classmethod
    def from_stored(cls, stored: Settings) -> AppSettings:
        """The main loop's settings from the operator's stored ones."""
        flow = FlowSettings(
            rules=stored.rules(),
            cpu_allowed=stored.get(table.CPU_OPPONENT),
            cpu_level=stored.get(table.CPU_LEVEL),
            join_wait_s=stored.get(table.JOIN_CPU_WAIT_S),
            idle_timeout_s=stored.get(table.IDLE_TIMEOUT_S),
            hall_of_fame=stored.get(table.HALL_OF_FAME),
        )
        return cls(
            flow=flow,
            language=stored.get(table.LANGUAGE),
            orientation=Orientation(stored.get(table.ORIENTATION)),
            volume_percent=stored.get(table.VOLUME),
            attract_sound=stored.get(table.ATTRACT_SOUND),
            hints=stored.get(table.BUTTON_HINTS),
            brightness_percent=stored.get(table.LIGHT_BRIGHTNESS),
            resolution=stored.get(table.RESOLUTION),
        )
