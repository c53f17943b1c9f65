"""What a cabinet is put together from, beyond its screen, its input queue and its
settings: :class:`CabinetParts`, each part optional, handed to
:class:`~cabinet.display.app.CabinetApp` whole (``spit-cabinet run`` fills it in,
tests give only the parts they need)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from cabinet.display.games import GameSink
from cabinet.display.lights_output import LightsOutput
from cabinet.display.service_host import SettingsOverlay
from cabinet.drawing.backend import DisplayBackend
from cabinet.inputs.base import InputBackend
from cabinet.money.keeper import MoneyKeeper
from cabinet.money.outputs import CoinLines
from cabinet.sound import SoundBoard
from cabinet.storage.store import CabinetStore
from cabinet.table.interface import Table

if TYPE_CHECKING:
    # gpiozero's: the display needs them only typed
    from cabinet.inputs.door import DoorOpen, DoorShut


@dataclass(frozen=True, slots=True)
class CabinetParts:
    """The parts of one cabinet; ``None`` takes the default."""

    sounds: SoundBoard | None = None
    """The sound effects (default: silent)."""
    lights: LightsOutput | None = None
    """Where the lights go (default: the on-screen strip only)."""
    games: GameSink | None = None
    """Where finished games go (default: kept in memory)."""
    pump_input: Callable[[], None] | None = None
    """Called once a frame to read an input backend that has no thread of its own."""
    store: CabinetStore | None = None
    """The stored settings and books; with it, TEST opens the service menu."""
    door_open: DoorOpen | None = None
    """Whether the door is open (the menu needs it; default: no door switch)."""
    door_shut: DoorShut | None = None
    """Whether the door is known shut, for a release's install (default: no door switch,
    never in the way)."""
    install_dir: Path | None = None
    """The install directory, when the unit runs the cabinet: with it (and a store on the
    card), the releases its fleet offers are taken (:mod:`cabinet.updates.watch`)."""
    set_mode: Callable[[str], DisplayBackend | pygame.Surface] | None = None
    """Opens the screen at a resolution setting (``"auto"`` or ``"WIDTHxHEIGHT"``), for a
    resolution changed in the menu."""
    fallback: Callable[[], DisplayBackend] | None = None
    """The software backend to hand over to if the screen's fails mid-run (default: one
    on ``pygame.display.set_mode`` at the same size)."""
    input_backend: InputBackend | None = None
    """Shown in the input test (hardware timestamps or not)."""
    table: Table | None = None
    """What decides the games: the table process's
    :class:`~cabinet.table.remote.RemoteTable` on the cabinet (default: a
    :class:`~cabinet.table.local.LocalTable` in this process)."""
    settings_overlay: SettingsOverlay | None = None
    """What this run's command line puts on top of the stored settings, applied again
    whenever the menu hands back new settings."""
    coin_lines: CoinLines | None = None
    """The coin meter and lockout outputs."""
    money: MoneyKeeper | None = None
    """The money keeper (default: one over ``store``, driving ``coin_lines``; none without
    a store: every game free)."""


NO_PARTS = CabinetParts()
"""Every part its default."""
