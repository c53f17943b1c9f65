"""The cabinet's parts, put together once at start: the pins, the lights, the door and
where finished games go. ``spit-cabinet run`` builds the display process's cabinet from
them (and hands every part to :class:`~cabinet.display.app.CabinetApp` at construction);
``spit-cabinet doctor`` opens the buttons on the same pins.

- **Pins**: the table process opens the buttons on the installer's pin map; the display
  reads it first (:func:`button_pins`), so a bad map is said once, before the table starts.
- **Lights**: the LED board's port (:func:`board_port`) goes to the table process, which
  drives the board; the display's light states go to the board's stand-in, or to the
  on-screen strip when there is no board (:func:`lights_output`).
- **Door**: the door switch as the table process reports it (:func:`door_open_from`, and
  for a release's install :func:`door_shut_from`).
- **Games**: finished games go into the books (:func:`game_sink`).
- **Coin lines**: the coin meter and lockout outputs (:func:`coin_lines`), driven by the
  display process's money keeper.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from cabinet.display.games import StoredGames
from cabinet.display.lights_output import LightsOutput, TableLights
from cabinet.inputs.select import InputKind

if TYPE_CHECKING:
    from cabinet.inputs.controls import Control
    from cabinet.inputs.door import DoorOpen, DoorShut
    from cabinet.money.outputs import CoinLines
    from cabinet.storage.store import CabinetStore
    from cabinet.table.remote import RemoteTable

log = logging.getLogger("spit-cabinet")
"""The command line's logger: what is said here is said as ``spit-cabinet``'s."""


def button_pins(path: Path | None) -> dict[Control, int] | None:
    """The buttons' pins from the installer's override file (``path``), or ``None`` for
    the default map; read as the table process reads them, so a bad file raises
    :class:`~wiring.errors.WiringError` here too."""
    from cabinet.table.hardware import load_pins

    return load_pins(path)


def board_port(choice: str) -> str | None:
    """The LED board's serial port for the table process: the one named, the board found
    by its USB id for ``auto``, or ``None`` (``none``, or no board: lights on screen). A
    named port that does not exist is said, once, and the lights go on screen, as for
    ``auto`` with no board."""
    if choice == "none":
        return None
    if choice != "auto":
        if os.name == "posix" and not os.path.exists(choice):
            log.warning("LED board port %s does not exist: the lights are shown on screen", choice)
            return None
        return choice
    from firmware_bridge.transport import find_board

    port = find_board()
    if port is None:
        log.info("no LED board found: the lights are shown on screen")
    return port


def lights_output(port: str | None, table: RemoteTable) -> LightsOutput:
    """Where the display's light states go: with a board (``port``), the table process
    drives it and reports its link's health; without one, the on-screen strip."""
    if port is None:
        return LightsOutput()
    return TableLights(lambda: table.status.link)


def door_open_from(table: RemoteTable) -> DoorOpen:
    """The door switch as the table reports it (open when none is wired, or before the
    table's first report)."""

    def door_open() -> bool:
        state = table.status.door_open
        return True if state is None else state

    return door_open


def door_shut_from(table: RemoteTable) -> DoorShut:
    """For a release's install: the door switch reads shut, or the cabinet has none (which
    the table's first report says; before it, the door is not known shut). A cabinet
    without a switch would otherwise never install a release."""

    def door_shut() -> bool:
        status = table.status
        return status.reported and status.door_open is not True

    return door_shut


def coin_lines(path: Path | None, backend_name: InputKind) -> CoinLines:
    """The coin meter and lockout outputs of the installer's pin map (``path``, or the
    default map): on the GPIO with the gpio backend (lgpio on a Pi), on gpiozero mock pins
    otherwise. Outputs that cannot be opened are said, once, and the cabinet runs on with
    none (coins are still counted; the meter is owed what it misses)."""
    from cabinet.money.outputs import GpioCoinLines, NoLines
    from cabinet.table.hardware import pin_map
    from wiring.pinmap import Control as WiredControl
    from wiring.pinmap import Function

    wired = pin_map(path)
    meter = wired.bcm(WiredControl(Function.METER))
    lockout = wired.bcm(WiredControl(Function.LOCKOUT))
    factory = None
    if backend_name is not InputKind.GPIO:
        from gpiozero.pins.mock import MockFactory

        factory = MockFactory()
    try:
        return GpioCoinLines(meter, lockout, pin_factory=factory)
    except Exception as exc:  # a GPIO taken by another program, no GPIO chip at all
        log.warning("the coin meter and lockout outputs cannot be opened (%s): not driven", exc)
        return NoLines()


def game_sink(store: CabinetStore) -> StoredGames:
    """Where finished games go: into ``store``'s books, one transaction each (and the
    last few kept in memory, with the count of every game recorded)."""
    return StoredGames(store)
