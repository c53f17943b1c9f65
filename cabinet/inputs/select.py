"""Choosing and opening the input backend: ``--input gpio|mock|keyboard``.

With no choice made (no ``--input``, no setting), the backend is:

- ``gpio`` when ``GPIOZERO_PIN_FACTORY`` is set (the operator named a gpiozero pin
  factory; it is honoured, e.g. ``GPIOZERO_PIN_FACTORY=mock`` for gpiozero's own mock);
- ``gpio`` on a Raspberry Pi, on gpiozero's lgpio factory (kernel timestamps). A Pi
  without the ``lgpio`` module is an error that says what to install;
- ``gpio`` on lgpio's factory for gpiochip N when ``SPIT_CABINET_GPIO_CHIP=N`` is set, Pi
  or not: the virtual Pi's simulated chip (docs/virtual-pi.md), or another chip on a Pi;
- ``keyboard`` elsewhere when there is a display to open a window on;
- ``mock`` elsewhere with no display (CI, a shell over ssh): gpiozero's MockFactory.

:func:`choose_backend` decides from a :class:`Platform` (what :meth:`Platform.detect`
finds), so the decision is tested without a Pi; :func:`open_backend` builds it.
"""

from __future__ import annotations

import argparse
import enum
import importlib.util
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cabinet.inputs.base import InputBackend
from cabinet.inputs.clock import Clock, monotonic_clock
from cabinet.inputs.controls import Control
from cabinet.inputs.edge_queue import EdgeQueue


class InputKind(enum.StrEnum):
    """An input backend, as ``--input`` and the ``input_backend`` setting name it."""

    GPIO = "gpio"
    """The Pi's pins through gpiozero (lgpio: the kernel's edge timestamps)."""
    MOCK = "mock"
    """gpiozero's mock pins: pressed by tests, the press socket or simulated people."""
    KEYBOARD = "keyboard"
    """A keyboard, through pygame (a desktop)."""


BACKENDS: tuple[InputKind, ...] = tuple(InputKind)

PI_INSTALL_HINT = "pip install 'spit-cabinet[pi]' (or: sudo apt install python3-lgpio)"

GPIO_CHIP_ENV_VAR = "SPIT_CABINET_GPIO_CHIP"
"""Names the gpiochip (a number) the gpio backend opens, instead of the Pi's own."""

_MODEL_FILES = (
    Path("/proc/device-tree/model"),
    Path("/sys/firmware/devicetree/base/model"),
)
_HEADLESS_SDL_DRIVERS = ("dummy", "offscreen")


class UnknownBackendError(ValueError):
    """``--input`` (or the setting) names no backend."""


class BackendUnavailableError(RuntimeError):
    """The chosen backend cannot run here; the message says what to install or choose."""


@dataclass(frozen=True, slots=True)
class Platform:
    """What the backend choice depends on."""

    is_pi: bool
    """Running on a Raspberry Pi (its device tree says so)."""
    has_lgpio: bool
    """The ``lgpio`` module can be imported."""
    has_display: bool
    """A window can be opened (X11, Wayland, or an SDL video driver other than dummy)."""
    pin_factory: str | None = None
    """``GPIOZERO_PIN_FACTORY``, if set."""
    gpio_chip: int | None = None
    """``SPIT_CABINET_GPIO_CHIP``, if set: the gpiochip the buttons are on."""

    @classmethod
    def detect(cls, environ: Mapping[str, str] | None = None) -> Platform:
        """What this machine is. A ``SPIT_CABINET_GPIO_CHIP`` that is not a chip number
        raises :class:`BackendUnavailableError`."""
        env = os.environ if environ is None else environ
        sdl = env.get("SDL_VIDEODRIVER", "").strip().lower()
        if sdl:
            display = sdl not in _HEADLESS_SDL_DRIVERS
        else:
            display = bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
        return cls(
            is_pi=_is_raspberry_pi(),
            has_lgpio=importlib.util.find_spec("lgpio") is not None,
            has_display=display,
            pin_factory=env.get("GPIOZERO_PIN_FACTORY") or None,
            gpio_chip=_gpio_chip(env.get(GPIO_CHIP_ENV_VAR, "")),
        )


def _gpio_chip(text: str) -> int | None:
    if not text.strip():
        return None
    if not text.strip().isdigit():
        raise BackendUnavailableError(
            f"{GPIO_CHIP_ENV_VAR}={text!r} is not a gpiochip number (0 for /dev/gpiochip0)"
        )
    return int(text)


def _is_raspberry_pi() -> bool:
    for path in _MODEL_FILES:
        try:
            model = path.read_bytes()
        except OSError:
            continue
        return b"Raspberry Pi" in model
    return False


def choose_backend(requested: str | None, platform: Platform) -> InputKind:
    """The backend to use: ``requested`` (from ``--input`` or the setting, as typed) if
    given, else the platform's default (see the module docstring)."""
    if requested is not None:
        name = requested.strip().lower()
        if name not in BACKENDS:
            raise UnknownBackendError(
                f"unknown input backend {requested!r}: choose one of {', '.join(BACKENDS)}"
            )
        return InputKind(name)
    if platform.pin_factory is not None or platform.is_pi or platform.gpio_chip is not None:
        return InputKind.GPIO
    return InputKind.KEYBOARD if platform.has_display else InputKind.MOCK


def gpio_pin_factory(platform: Platform) -> Any:
    """The gpiozero pin factory for the gpio backend, or ``None`` to let gpiozero make
    its own from ``GPIOZERO_PIN_FACTORY``."""
    if platform.pin_factory is not None:
        return None
    if platform.gpio_chip is not None:
        if not platform.has_lgpio:
            raise BackendUnavailableError(
                f"{GPIO_CHIP_ENV_VAR} is set but there is no lgpio module: {PI_INSTALL_HINT}"
            )
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory(chip=platform.gpio_chip)
    if platform.is_pi:
        if not platform.has_lgpio:
            raise BackendUnavailableError(
                "this Raspberry Pi has no lgpio module, which the buttons are read "
                f"through: {PI_INSTALL_HINT}"
            )
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    raise BackendUnavailableError(
        "this machine has no GPIO header: use --input keyboard or --input mock, "
        "or name a gpiozero pin factory in GPIOZERO_PIN_FACTORY"
    )


def open_backend(
    name: str,
    edges: EdgeQueue,
    *,
    platform: Platform | None = None,
    pins: Mapping[Control, int] | None = None,
    keymap: Any = None,
    clock: Clock = monotonic_clock,
) -> InputBackend:
    """Build (not yet open) backend ``name`` reporting onto ``edges``.

    ``pins``: the pin map for gpio and mock (default: the built-in one); ``keymap``: a
    :class:`~cabinet.inputs.keyboard.KeyMap` for the keyboard (default: the built-in one).
    """
    kind = choose_backend(name, platform or Platform(False, False, False))
    if kind is InputKind.GPIO:
        from cabinet.inputs.gpio import GpioInput

        factory = gpio_pin_factory(platform if platform is not None else Platform.detect())
        return GpioInput(edges, pins=pins, pin_factory=factory, clock=clock)
    if kind is InputKind.MOCK:
        from cabinet.inputs.mock import MockInput

        return MockInput(edges, pins=pins, clock=clock)
    from cabinet.inputs.keyboard import KeyboardInput

    return KeyboardInput(edges, keymap=keymap, clock=clock)


def add_input_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--input {gpio,mock,keyboard}`` to a command's parser (default: ``None``,
    which :func:`choose_backend` resolves for the platform)."""
    parser.add_argument(
        "--input",
        choices=BACKENDS,
        default=None,
        help="where button presses come from: gpio (the cabinet's buttons), mock "
        "(gpiozero mock pins) or keyboard (default: gpio on a Raspberry Pi, keyboard "
        "elsewhere, mock without a display)",
    )
