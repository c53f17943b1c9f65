"""What the service menu reaches of the running cabinet, in one small value.

The menu changes settings in :attr:`ServiceContext.store` (saved when it closes) and reads
the rest through callables, so it never reaches into the main loop: the input test reads
:attr:`switches`, the output test drives lights through the page's light state and reads
:attr:`link_health`, the sound test plays on :attr:`sounds`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cabinet.inputs.debounce import SwitchStatus
from cabinet.sound import SoundBoard
from cabinet.storage.store import CabinetStore
from firmware_bridge.link import LinkHealth

if TYPE_CHECKING:
    from cabinet.money.keeper import MoneyKeeper


def _no_ports() -> list[str]:
    return []


def _no_link() -> LinkHealth | None:
    return None


@dataclass(slots=True)
class ServiceContext:
    store: CabinetStore
    sounds: SoundBoard
    switches: Callable[[], tuple[SwitchStatus, ...]]
    """Every control's level and counters now (the input layer's snapshot)."""
    link_health: Callable[[], LinkHealth | None] = _no_link
    """The LED board link's health, or ``None`` when the lights are on screen."""
    hardware_timestamps: bool = False
    """Whether presses carry the kernel's timestamp (gpio, mock) or the time software saw
    them (keyboard): the input test says which, the fairness test needs the kernel's."""
    input_backend: str = ""
    """The input backend the buttons come through (``gpio``, ``mock``, ``keyboard``; empty:
    not known): the fairness test's certificate says what pressed."""
    serial_ports: Callable[[], list[str]] = field(default=_no_ports)
    """The serial devices present, offered for the LED port setting."""
    money: MoneyKeeper | None = None
    """The coins and credits (clear credits, the meter test, the coin lines' pulses);
    ``None``: no money is kept (no store)."""
