"""What the firmware needs from the hardware, as typing protocols (CPython and mypy only).

The firmware imports this module only under ``TYPE_CHECKING``, so it is never needed on
the board; the simulator's stub hardware implements these protocols.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class PinLike(Protocol):
    """A GPIO pin (``machine.Pin``)."""

    def value(self, level: int, /) -> object: ...


class PwmLike(Protocol):
    """A PWM channel (``machine.PWM``): frequency in Hz, duty as a 16-bit fraction."""

    def freq(self, hz: int) -> None: ...

    def duty_u16(self, duty: int) -> None: ...


class WatchdogLike(Protocol):
    """The hardware watchdog (``machine.WDT``): resets the board unless fed in time."""

    def feed(self) -> None: ...


class PinClassLike(Protocol):
    """The ``machine.Pin`` class: ``Pin(id, Pin.OUT)`` makes an output pin."""

    OUT: int

    def __call__(self, pin_id: int, mode: int = ...) -> PinLike: ...


class MachineLike(Protocol):
    """The parts of MicroPython's ``machine`` module the firmware uses."""

    @property
    def Pin(self) -> PinClassLike: ...

    def PWM(self, pin: PinLike) -> PwmLike: ...

    def WDT(self, timeout: int) -> WatchdogLike: ...


class PixelsLike(Protocol):
    """A WS2812 chain (``neopixel.NeoPixel``): item assignment of (r, g, b), then write()."""

    def __setitem__(self, index: int, colour: tuple[int, int, int]) -> None: ...

    def write(self) -> None: ...


class NeopixelLike(Protocol):
    """MicroPython's ``neopixel`` module."""

    def NeoPixel(self, pin: PinLike, n: int) -> PixelsLike: ...


class MicropythonLike(Protocol):
    """MicroPython's ``micropython`` module."""

    def kbd_intr(self, char: int) -> None: ...


class ReaderLike(Protocol):
    """The host's bytes (``sys.stdin.buffer`` on the board): read(1) after poll says ready."""

    def read(self, n: int) -> bytes | None: ...


class WriterLike(Protocol):
    """Bytes to the host (``sys.stdout.buffer`` on the board)."""

    def write(self, data: bytes) -> int | None: ...


class PollerLike(Protocol):
    """A ``select.poll`` object with the reader registered for POLLIN."""

    def poll(self, timeout_ms: int, /) -> Sequence[tuple[object, int]]: ...
