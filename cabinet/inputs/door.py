"""The door switch: the service menu opens only while the cabinet's door is open.

The switch is optional (``wiring/``: ``Function.DOOR``, ``door = false`` when absent). It
is wired like a button, from its GPIO to ground with the Pi's pull-up, and mounted so the
shut door holds it closed: the line reads low while the door is shut. An open door and a
broken wire both read high, "door open", so a failed switch never locks the operator out.

The input layer does not report the door (it is no game control); the menu
(:mod:`cabinet.service.menu`) asks :meth:`DoorSwitch.is_open` when TEST is pressed and
once a frame while it is open. The switch is a GPIO input like the buttons, so it lives
here with them; the menu only asks it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpiozero import DigitalInputDevice

DoorOpen = Callable[[], bool]
"""``door_open()``: whether the door is open now. Cabinets without a switch pass none."""
DoorShut = Callable[[], bool]
"""``door_shut()``: whether the door is known shut now, or there is no switch (a release
is installed only then)."""


def no_door() -> bool:
    """A cabinet without a door switch: always open."""
    return True


class DoorSwitch:
    """The door switch on BCM GPIO ``bcm`` through gpiozero (``pin_factory``: gpiozero's,
    e.g. the mock backend's own MockFactory)."""

    def __init__(self, bcm: int, *, pin_factory: Any = None) -> None:
        self.device = DigitalInputDevice(
            bcm, pull_up=True, bounce_time=None, pin_factory=pin_factory
        )

    def is_open(self) -> bool:
        """The door is open (or the wire is broken): the line is high."""
        return not bool(self.device.is_active)

    def close(self) -> None:
        self.device.close()

    def __call__(self) -> bool:
        return self.is_open()
