"""A light board simulator: the real firmware, under CPython, on a pseudo-terminal.

:class:`Simulator` opens a pty, builds :class:`firmware_bridge.firmware.app.Firmware` with
the stub hardware of :mod:`firmware_bridge.sim.hardware` and runs its loop in a thread. The
host opens the pty's other end (or a symlink to it) exactly as it opens a real board.
:meth:`Simulator.unplug` and :meth:`Simulator.replug` pull and reinsert the cable: the pty
goes away, and a new one (the board rebooted) appears behind the same symlink.

The board's clock under test is a :class:`VirtualClock`, which moves only when told:

>>> clock = VirtualClock()
>>> clock.advance(1_000), clock()
(1000, 1000)
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import threading
import time
import tty
from collections.abc import Callable

from firmware_bridge.firmware.app import POLL_MS, Firmware, boot
from firmware_bridge.firmware.config import Config
from firmware_bridge.sim.hardware import StubMachine, StubMicropython, StubNeopixelModule

__all__ = ["Simulator", "VirtualClock"]


class VirtualClock:
    """A millisecond clock that moves only when told: ``clock.advance(1000)``. Thread-safe."""

    def __init__(self, start_ms: int = 0) -> None:
        self._now_ms = start_ms
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            return self._now_ms

    def advance(self, ms: int) -> int:
        """Move forward ``ms`` milliseconds; return the new time."""
        if ms < 0:
            raise ValueError("a clock cannot go backwards")
        with self._lock:
            self._now_ms += ms
            return self._now_ms


def monotonic_ms() -> int:
    """Milliseconds on CLOCK_MONOTONIC."""
    return time.monotonic_ns() // 1_000_000


class _PtyReader:
    """The board's end of the pty, read one byte at a time as the firmware does on USB."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def read(self, n: int) -> bytes | None:
        try:
            return os.read(self.fd, n)
        except BlockingIOError:
            return None
        except OSError as exc:
            if exc.errno == errno.EIO:
                return b""
            raise


class _PtyWriter:
    """Writes replies; when the host does not read and the buffer is full, they are dropped
    (as MicroPython's USB CDC does with no host attached)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.dropped = 0

    def write(self, data: bytes) -> int | None:
        try:
            return os.write(self.fd, data)
        except OSError:  # a full buffer (BlockingIOError) or no host
            self.dropped += 1
            return None


class Simulator:
    """The light board on a pseudo-terminal.

    ``link_path``, if given, is a symlink kept pointing at the current pty (the stable name
    a host is configured with). ``clock_ms`` is the firmware's millisecond clock (default
    CLOCK_MONOTONIC; pass a :class:`VirtualClock` to drive blink, pulse and link-lost timing
    from a test). ``config_path``, instead of ``config``, makes every power-up read that
    configuration file exactly as the board reads ``lights.json``
    (:func:`firmware_bridge.firmware.app.boot`): an unusable file means the built-in defaults
    and the configuration-error pattern; :attr:`config` is then what the board runs with.
    """

    def __init__(
        self,
        config: Config | None = None,
        *,
        link_path: str | None = None,
        clock_ms: Callable[[], int] = monotonic_ms,
        config_path: str | None = None,
    ) -> None:
        if config is not None and config_path is not None:
            raise ValueError("give a configuration or a configuration file, not both")
        self.config = config if config is not None else Config()
        self.config_path = config_path
        self.link_path = link_path
        self.clock_ms = clock_ms
        self.boots = 0
        self._master = -1
        self._keeper = -1
        self._tty_name = ""
        self._thread: threading.Thread | None = None
        self._running = threading.Event()
        self._lock = threading.Lock()
        self.machine = StubMachine()
        self.neopixel = StubNeopixelModule()
        self.micropython = StubMicropython()
        self.firmware: Firmware | None = None
        self.writer: _PtyWriter | None = None

    # ---- plugging ------------------------------------------------------------------------

    @property
    def port(self) -> str:
        """The path a host opens: the symlink if configured, else the pty's own name."""
        return self.link_path if self.link_path is not None else self._tty_name

    @property
    def plugged(self) -> bool:
        return self._thread is not None

    def start(self) -> str:
        """Power the board up on a fresh pty; return :attr:`port`."""
        if self._thread is not None:
            raise RuntimeError("the simulator is already running")
        master, keeper = os.openpty()
        tty.setraw(keeper)
        os.set_blocking(master, False)
        self._master, self._keeper = master, keeper
        self._tty_name = os.ttyname(keeper)
        if self.link_path is not None:
            tmp = f"{self.link_path}.new"
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            os.symlink(self._tty_name, tmp)
            os.replace(tmp, self.link_path)
        # A board that loses USB power reboots: new hardware state, new firmware state.
        self.machine = StubMachine()
        self.neopixel = StubNeopixelModule()
        self.micropython = StubMicropython()
        if self.config_path is None:
            self.firmware = Firmware(
                self.config, self.machine, self.neopixel, self.micropython, self.clock_ms
            )
        else:
            neopixel = self.neopixel
            self.firmware = boot(
                self.machine, self.micropython, self.clock_ms, lambda: neopixel, self.config_path
            )
            self.config = self.firmware.config
        self.boots += 1
        self.writer = _PtyWriter(master)
        poller = select.poll()
        poller.register(master, select.POLLIN)
        self._running.set()
        firmware, reader, writer = self.firmware, _PtyReader(master), self.writer
        self._thread = threading.Thread(
            target=self._serve, args=(firmware, reader, writer, poller), daemon=True
        )
        self._thread.start()
        return self.port

    def _serve(
        self, firmware: Firmware, reader: _PtyReader, writer: _PtyWriter, poller: select.poll
    ) -> None:
        while self._running.is_set():
            with self._lock:
                firmware.step(reader, writer, poller, timeout_ms=0)
            # Wait outside the lock so tests can inspect the state between turns.
            poller.poll(POLL_MS)

    def unplug(self) -> None:
        """Pull the cable: stop the firmware and close the pty (the host sees EIO)."""
        thread = self._thread
        if thread is None:
            return
        self._running.clear()
        thread.join(timeout=5)
        self._thread = None
        for fd in (self._master, self._keeper):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._master = self._keeper = -1

    def replug(self) -> str:
        """Plug the cable back in: the board reboots on a new pty behind the same symlink."""
        self.unplug()
        return self.start()

    def stop(self) -> None:
        """Unplug and remove the symlink."""
        self.unplug()
        if self.link_path is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.link_path)

    def __enter__(self) -> Simulator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- what the board shows --------------------------------------------------------------

    def shown(self) -> list[tuple[int, int, int]]:
        """What the lights show now, read back from the stub hardware: (r, g, b) per light.

        PWM and plain LEDs show as grey levels (their brightness)."""
        with self._lock:
            if self.config.driver == "ws2812":
                return list(self.neopixel.chains[0].shown) if self.neopixel.chains else []
            out = []
            for gpio in self.config.pins:
                if self.config.driver == "pwm":
                    duty = self.machine.pwms[gpio].duty
                    if self.config.active_low:
                        duty = 65535 - duty
                    level = _level_from_duty(duty)
                else:
                    on = self.machine.pins[gpio].level != self.config.active_low
                    level = 255 if on else 0
                out.append((level, level, level))
            return out

    def inspect(self, fn: Callable[[Firmware], object]) -> object:
        """Run ``fn(firmware)`` between two turns of the board's loop."""
        with self._lock:
            if self.firmware is None:
                raise RuntimeError("the simulator has not started")
            return fn(self.firmware)


def _level_from_duty(duty: int) -> int:
    """Brightness 0..255 from a gamma-2 duty (inverse of ``outputs.duty_for``)."""
    level = int((duty * 65025 / 65535) ** 0.5 + 0.5)
    return min(level, 255)
