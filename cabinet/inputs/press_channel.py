"""Timed presses from outside the process: a socket that drives the mock pins.

On a cabinet, a button's edge reaches the table process on lgpio's callback thread,
stamped by the kernel. Off a Pi the buttons are mock pins, and whoever presses them
(a benchmark's presser process, a test, simulated people) may live in another process.
:class:`PressChannel` stands in for lgpio's thread there: it listens on a Unix datagram
socket and, for each datagram, drives the named mock pin at the timestamp the datagram
carries (:meth:`~cabinet.inputs.mock.MockInput.press`), on its own thread, exactly as
lgpio hands the kernel's timestamp to the pin's change handler.

A datagram is one line of ASCII: ``<control> <1|0> <t_ns>``, e.g. ``p1.pile1 1
1234567890``: control name as in :attr:`~cabinet.inputs.controls.Control.name`, ``1``
for a press and ``0`` for a release, and the edge's time in ns on CLOCK_MONOTONIC.
:class:`PressSender` writes them. A malformed datagram is counted and dropped.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from pathlib import Path
from typing import Protocol

from cabinet.inputs.controls import Control, ControlError

log = logging.getLogger(__name__)

MAX_DATAGRAM = 128


class TimedPresser(Protocol):
    """What the channel drives: :class:`~cabinet.inputs.mock.MockInput` is one."""

    def change(self, control: Control, pressed: bool, t_ns: int) -> None: ...


def encode_press(control: Control, pressed: bool, t_ns: int) -> bytes:
    """One datagram: ``control`` goes down (``pressed``) or up at ``t_ns``."""
    return f"{control.name} {int(pressed)} {int(t_ns)}".encode("ascii")


def decode_press(data: bytes) -> tuple[Control, bool, int]:
    """The inverse of :func:`encode_press`; :class:`ValueError` on a malformed datagram."""
    try:
        name, level, t = data.decode("ascii").split()
    except (UnicodeDecodeError, ValueError):
        raise ValueError(f"not a press datagram: {data[:40]!r}") from None
    if level not in ("0", "1") or not t.isdigit() or len(t) > 20:
        raise ValueError(f"not a press datagram: {data[:40]!r}")
    try:
        control = Control.parse(name)
    except ControlError as exc:
        raise ValueError(str(exc)) from None
    return control, level == "1", int(t)


PathStamp = tuple[int, int, int]
"""One edge's way through the channel (ns on CLOCK_MONOTONIC): its ``t_ns``, when its
datagram was received, and when the pin's change handler had queued it."""


class PressChannel:
    """Listens on ``path`` (a Unix datagram socket it creates) and drives ``target``'s
    pins with each press it receives, on its own thread. With a ``trace`` list, appends
    each edge's :data:`PathStamp` to it (benchmarks: where an edge's delay arises)."""

    def __init__(
        self, path: Path, target: TimedPresser, trace: list[PathStamp] | None = None
    ) -> None:
        self.path = path
        self.target = target
        self.trace = trace
        self.received = 0
        self.malformed = 0
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sock.bind(os.fspath(path))
        self._thread = threading.Thread(target=self._run, name="press-channel", daemon=True)
        self._closed = False

    def start(self) -> PressChannel:
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop listening and remove the socket file. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def _run(self) -> None:
        sock = self._sock
        trace = self.trace
        while not self._closed:
            try:
                data = sock.recv(MAX_DATAGRAM)
            except OSError:
                return
            received = time.monotonic_ns() if trace is not None else 0
            if not data:
                if self._closed:
                    return
                continue
            try:
                control, pressed, t_ns = decode_press(data)
            except ValueError as exc:
                self.malformed += 1
                log.warning("press channel: %s", exc)
                continue
            self.received += 1
            self.target.change(control, pressed, t_ns)
            if trace is not None:
                trace.append((t_ns, received, time.monotonic_ns()))


class PressSender:
    """Sends timed presses to a :class:`PressChannel` at ``path`` (any process)."""

    def __init__(self, path: Path) -> None:
        self.path = os.fspath(path)
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)

    def send(self, control: Control, pressed: bool, t_ns: int) -> None:
        self._sock.sendto(encode_press(control, pressed, t_ns), self.path)

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> PressSender:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
