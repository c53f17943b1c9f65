"""The table's two threads on the display's socket: commands in, reports out.

The reader thread only queues each command and wakes the loop; the sender thread only
frames and writes the reports the loop has pickled, whatever has queued up as one
message, one write. So a display that is slow, stopped or gone never holds up a
decision. When the display's end closes, the reader queues :class:`DisplayGone`.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection

from cabinet.table.messages import Command, Report, pack_reports, pickle_report


@dataclass(frozen=True, slots=True)
class DisplayGone:
    """Put on the command queue by the reader thread when the display's end closes."""


class DisplayLink:
    """The display's end of the socket pair, ``conn``, served by a reader and a sender
    thread; ``wake()`` is called after each command is queued (it wakes the loop)."""

    def __init__(self, conn: Connection, wake: Callable[[], None]) -> None:
        self.conn = conn
        self._wake = wake
        self._commands: queue.SimpleQueue[Command | DisplayGone] = queue.SimpleQueue()
        self._outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        """Reports, pickled by the loop (small, one at a time), for the sender thread,
        which only frames and writes them: a long pickling there would hold the GIL
        that the buttons' callback thread needs."""
        self._sender: threading.Thread | None = None

    def start(self) -> None:
        """Start both threads (daemons: neither keeps the process alive)."""
        threading.Thread(target=self._read, name="table-commands", daemon=True).start()
        self._sender = threading.Thread(target=self._write, name="table-reports", daemon=True)
        self._sender.start()

    def send(self, report: Report) -> None:
        """Queue ``report`` for the sender thread, pickled here."""
        self._outbox.put(pickle_report(report))

    def next_command(self) -> Command | DisplayGone | None:
        """The next queued command, or ``None`` when none is waiting."""
        try:
            return self._commands.get_nowait()
        except queue.Empty:
            return None

    def close(self, timeout_s: float = 1.0) -> None:
        """Let the sender write what has queued, then stop, waiting up to ``timeout_s``."""
        self._outbox.put(None)
        if self._sender is not None:
            self._sender.join(timeout_s)

    def _read(self) -> None:
        conn = self.conn
        while True:
            try:
                command = conn.recv()
            except (EOFError, OSError):
                self._commands.put(DisplayGone())
                self._wake()
                return
            self._commands.put(command)
            self._wake()

    def _write(self) -> None:
        """The sender thread: whatever has queued up goes as one message, one write."""
        conn = self.conn
        outbox = self._outbox
        while True:
            reports = [outbox.get()]
            while True:
                try:
                    reports.append(outbox.get_nowait())
                except queue.Empty:
                    break
            done = reports[-1] is None
            try:
                conn.send_bytes(pack_reports([r for r in reports if r is not None]))
            except OSError:
                return  # the display is gone: the reader hears it too
            if done:
                return
