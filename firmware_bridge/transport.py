"""Byte transports to the light board: the interface the link needs, and pyserial's.

A transport is opened by an *opener* (a callable with no arguments). One thread reads:
:meth:`Transport.read` waits for bytes. Writes never wait: :meth:`Transport.write` hands
the OS what it takes at once and says how much that was, so the game's own thread can write
a frame (the link serialises writers with a lock). :meth:`Transport.wake` may be called
from any thread to cut a read's wait short. Failures are :class:`OSError` (pyserial's
``SerialException`` is one).
"""

from __future__ import annotations

import contextlib
import os
import select
from collections.abc import Callable, Sequence
from typing import Protocol

import serial
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

#: USB vendor and product id of a Raspberry Pi Pico running MicroPython.
MICROPYTHON_VID = 0x2E8A
MICROPYTHON_PID = 0x0005


class BoardNotFoundError(OSError):
    """No serial port with the light board's USB vendor and product id is connected."""


class Transport(Protocol):
    """A connection to the board."""

    @property
    def name(self) -> str:
        """The port's path, for the service menu."""
        ...

    def read(self, timeout_s: float) -> bytes:
        """Bytes that have arrived, waiting up to ``timeout_s`` seconds for the first;
        ``b""`` on timeout or :meth:`wake`. Raises OSError when the board is gone."""
        ...

    def write(self, data: bytes) -> int:
        """Hand ``data`` to the OS without waiting; return how many bytes it took (fewer
        than ``len(data)``, possibly 0, when its buffer is full). Raises OSError when the
        board is gone."""
        ...

    def wake(self) -> None:
        """Make a pending or the next :meth:`read` return at once. Any thread."""
        ...

    def close(self) -> None: ...


class SerialTransport:
    """The board's USB serial port through pyserial.

    MicroPython's USB CDC ignores the baud rate. Writes go straight to the non-blocking
    file descriptor: pyserial's own ``write`` either waits for the port to report writable
    after every write (measured on a pty: tens of milliseconds now and then) or, with a
    zero write timeout, retries at once on a full buffer until the data fits.
    """

    def __init__(self, port: str, *, baudrate: int = 115200) -> None:
        self._serial = serial.Serial(port, baudrate=baudrate, timeout=0)
        self._fd = self._serial.fileno()
        os.set_blocking(self._fd, False)
        self._port = port
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        with contextlib.suppress(OSError):
            self._serial.reset_input_buffer()  # stale replies from an earlier session

    @property
    def name(self) -> str:
        return self._port

    def read(self, timeout_s: float) -> bytes:
        fd = self._fd
        ready, _, _ = select.select([fd, self._wake_r], [], [], max(0.0, timeout_s))
        if self._wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(self._wake_r, 512)
        if fd in ready:
            data: bytes = self._serial.read(max(1, self._serial.in_waiting))
            return data
        return b""

    def write(self, data: bytes) -> int:
        try:
            return os.write(self._fd, data)
        except BlockingIOError:
            return 0

    def wake(self) -> None:
        with contextlib.suppress(OSError):  # a full pipe already wakes the reader
            os.write(self._wake_w, b"w")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._serial.close()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)


def find_board(
    vid: int = MICROPYTHON_VID,
    pid: int = MICROPYTHON_PID,
    *,
    comports: Callable[[], Sequence[ListPortInfo]] = list_ports.comports,
) -> str | None:
    """The device path of the first serial port with USB ``vid``:``pid``, or None."""
    matches = sorted(p.device for p in comports() if p.vid == vid and p.pid == pid)
    return matches[0] if matches else None


class SerialOpener:
    """Opens the board: ``port`` if given, else the first port with ``vid``:``pid``.

    Calling it returns a :class:`SerialTransport` or raises OSError
    (:class:`BoardNotFoundError` when nothing matches)."""

    def __init__(
        self,
        port: str | None = None,
        *,
        vid: int = MICROPYTHON_VID,
        pid: int = MICROPYTHON_PID,
        comports: Callable[[], Sequence[ListPortInfo]] = list_ports.comports,
    ) -> None:
        self.port = port
        self.vid = vid
        self.pid = pid
        self._comports = comports

    def __call__(self) -> SerialTransport:
        port = self.port or find_board(self.vid, self.pid, comports=self._comports)
        if port is None:
            raise BoardNotFoundError(
                f"no light board found: no serial port has USB id {self.vid:04X}:{self.pid:04X}"
            )
        return SerialTransport(port)
