"""What the jig needs from the hardware, as typing protocols (CPython and mypy only).

As with the light board (:mod:`firmware_bridge.firmware.interfaces`, whose serial
protocols the jig shares), the jig's modules import this one only under
``TYPE_CHECKING``, so it is never needed on the board; :mod:`firmware_bridge.jig.fake`
implements these protocols for the tests.
"""

from __future__ import annotations

from typing import Protocol


class ClockLike(Protocol):
    """MicroPython's ``time`` module: tick counters that wrap (every 2**30 ticks on the
    RP2040), compared only through ``ticks_diff`` and moved only through ``ticks_add``."""

    def ticks_us(self) -> int: ...

    def ticks_ms(self) -> int: ...

    def ticks_diff(self, end: int, start: int, /) -> int: ...

    def ticks_add(self, ticks: int, delta: int, /) -> int: ...

    def sleep_ms(self, ms: int, /) -> None: ...


class IrqLike(Protocol):
    """``machine.disable_irq`` / ``machine.enable_irq``: hold interrupts off, then restore."""

    def disable_irq(self) -> object: ...

    def enable_irq(self, state: object, /) -> None: ...


class JigPinLike(Protocol):
    """A GPIO pin (``machine.Pin``): ``value(level)`` sets it, ``value()`` reads it."""

    def value(self, level: int = ..., /) -> int | None: ...


class JigPinClassLike(Protocol):
    """The ``machine.Pin`` class: ``Pin(id, mode, pull, value=...)``; ``id`` a GPIO number
    or a board name (``"LED"``), ``pull`` ``None`` for no pull."""

    IN: int
    OUT: int
    OPEN_DRAIN: int
    PULL_UP: int

    def __call__(
        self, pin_id: int | str, mode: int = ..., pull: int | None = ..., *, value: int = ...
    ) -> JigPinLike: ...


class JigMachineLike(IrqLike, Protocol):
    """The parts of MicroPython's ``machine`` module the jig uses."""

    @property
    def Pin(self) -> JigPinClassLike: ...


class LineLike(Protocol):
    """One button line as the jig works it (:class:`firmware_bridge.jig.lines.OpenDrainLine`):
    pulled to ground, or let go."""

    def press(self) -> None: ...

    def release(self) -> None: ...
