"""The firmware's main loop: read the host without blocking, reply, drive the lights.

:func:`main` is the board's entry point (``main.py`` calls it). The simulator builds the
same :class:`Firmware` with stub hardware and runs the same :meth:`Firmware.step` loop on a
pseudo-terminal. MicroPython subset.
"""

import select

from firmware_bridge.firmware.board import Board
from firmware_bridge.firmware.config import CONFIG_PATH, Config, boot_config
from firmware_bridge.firmware.host_input import read_host_bytes
from firmware_bridge.firmware.outputs import make_output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from firmware_bridge.firmware.interfaces import (
        MachineLike,
        MicropythonLike,
        NeopixelLike,
        PollerLike,
        ReaderLike,
        WatchdogLike,
        WriterLike,
    )

#: Longest wait for host bytes in one turn of the loop, in ms (bounds render latency).
POLL_MS = 5
#: Most bytes read in one turn, so a babbling host cannot starve the lights or watchdog.
MAX_READ = 512


def ticks_clock(
    ticks_ms: "Callable[[], int]", ticks_diff: "Callable[[int, int], int]"
) -> "Callable[[], int]":
    """A millisecond clock that never wraps, from MicroPython's wrapping ``time.ticks_ms``.

    Call it at least once per wrap period (about 12 days on the RP2040); the loop does."""
    state = [ticks_ms(), 0]

    def now_ms() -> int:
        t = ticks_ms()
        state[1] += ticks_diff(t, state[0])
        state[0] = t
        return state[1]

    return now_ms


class Firmware:
    """The board: configuration, outputs, watchdog and :class:`Board` logic.

    Building it calls ``micropython.kbd_intr(-1)`` first: otherwise a 0x03 byte inside a
    frame would raise KeyboardInterrupt and flush the input. ``config_error``, when given,
    says why the configuration file was not used (``config`` is then the built-in defaults):
    the lights show the configuration-error pattern instead of the link-lost one.
    """

    def __init__(
        self,
        config: "Config",
        machine: "MachineLike",
        neopixel: "NeopixelLike | None",
        micropython: "MicropythonLike",
        clock_ms: "Callable[[], int]",
        config_error: "str | None" = None,
    ) -> None:
        micropython.kbd_intr(-1)
        self.config = config
        self.config_error = config_error
        self.clock_ms = clock_ms
        self.output = make_output(config, machine, neopixel)
        self.board = Board(
            config.light_count,
            self.output.capabilities,
            clock_ms(),
            link_lost_ms=config.link_lost_ms,
            link_lost_rgb=config.link_lost_rgb,
            link_lost_period_ms=config.link_lost_period_ms,
            selftest_step_ms=config.selftest_step_ms,
            config_error=config_error is not None,
        )
        self.watchdog: WatchdogLike | None = None
        if config.watchdog_ms:
            self.watchdog = machine.WDT(timeout=config.watchdog_ms)
        self.shown: list[tuple[int, int, int]] = []

    def step(
        self,
        reader: "ReaderLike",
        writer: "WriterLike",
        poller: "PollerLike",
        timeout_ms: int = POLL_MS,
    ) -> int:
        """One turn of the loop: wait up to ``timeout_ms`` for host bytes, read what has
        arrived (at most :data:`MAX_READ`), send the replies, update the lights, feed the
        watchdog. Returns the number of bytes read."""
        chunk = read_host_bytes(reader, poller, timeout_ms, MAX_READ)
        now = self.clock_ms()
        if chunk:
            for reply in self.board.feed(chunk, now):
                writer.write(reply)
        self.shown = self.board.render(now)
        self.output.show(self.shown)
        if self.watchdog is not None:
            self.watchdog.feed()
        return len(chunk)

    def serve(
        self,
        reader: "ReaderLike",
        writer: "WriterLike",
        poller: "PollerLike",
        running: "Callable[[], bool]",
    ) -> None:
        """Loop :meth:`step` while ``running()`` is true."""
        while running():
            self.step(reader, writer, poller)


def boot(
    machine: "MachineLike",
    micropython: "MicropythonLike",
    clock_ms: "Callable[[], int]",
    load_neopixel: "Callable[[], NeopixelLike]",
    config_path: str = CONFIG_PATH,
) -> Firmware:
    """Read the configuration at ``config_path`` as the board does at power-on and build the
    :class:`Firmware`. Never fails on a bad file: it falls back to the built-in defaults and
    shows the configuration-error pattern (:func:`~firmware_bridge.firmware.config.boot_config`).
    ``load_neopixel`` is called only for the ws2812 driver."""
    config, error = boot_config(config_path)
    neopixel = load_neopixel() if config.driver == "ws2812" else None
    return Firmware(config, machine, neopixel, micropython, clock_ms, config_error=error)


def _import_neopixel() -> "NeopixelLike":
    import neopixel  # type: ignore[import-not-found]

    return neopixel  # type: ignore[no-any-return]


def main(config_path: str = CONFIG_PATH) -> None:
    """The board's entry point: real hardware, USB CDC on stdin/stdout, forever."""
    import sys
    import time

    import machine  # type: ignore[import-not-found]
    import micropython  # type: ignore[import-not-found]

    firmware = boot(
        machine,
        micropython,
        ticks_clock(time.ticks_ms, time.ticks_diff),  # type: ignore[attr-defined]
        _import_neopixel,
        config_path,
    )
    reader = sys.stdin.buffer
    poller = select.poll()
    poller.register(reader, select.POLLIN)
    firmware.serve(reader, sys.stdout.buffer, poller, lambda: True)
