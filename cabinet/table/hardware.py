"""What the table process opens besides the buttons: the pin map and the door switch.

Shared with ``spit-cabinet run`` (which checks the pin map before it starts the table)
and ``spit-cabinet doctor``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cabinet.inputs.controls import Control


def load_pins(path: Path | None) -> dict[Control, int] | None:
    """The input layer's pin map from the installer's override file, or ``None`` for
    the default map."""
    if path is None:
        return None
    from cabinet.inputs.gpio import pins_from_wiring
    from wiring.config import load_config

    return pins_from_wiring(load_config(path))


def pin_map(path: Path | None) -> Any:
    """The whole pin map (buttons, door, …): the override file's, or the default."""
    if path is None:
        from wiring.default import DEFAULT_PIN_MAP

        return DEFAULT_PIN_MAP
    from wiring.config import load_config

    return load_config(path)


def open_door(backend: Any, pins: Any) -> Any:
    """The door switch on the GPIO (or mock) backend's pin factory, when the pin map has
    one (``wiring/``: ``door``); ``None`` otherwise (the keyboard, or no switch)."""
    from cabinet.inputs.door import DoorSwitch
    from cabinet.inputs.gpio import GpioInput
    from wiring.pinmap import Control as WiredControl
    from wiring.pinmap import Function

    if not isinstance(backend, GpioInput):
        return None
    bcm = pins.bcm(WiredControl(Function.DOOR))
    if bcm is None:
        return None
    return DoorSwitch(bcm, pin_factory=backend.pin_factory)
