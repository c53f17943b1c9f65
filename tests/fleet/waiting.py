"""Waiting in the fleet's tests: until a condition holds, blocked on what can make it hold,
never on a timer (a test does not sleep).

:func:`wait_for` subscribes to its sources, then looks; while the condition does not hold
it blocks in one ``select`` on every source until one says something may have changed,
and looks again; past its deadline it fails the test, naming what it waited for. Each
source is a file descriptor, so one wait can block on several at once (the fleet's
database and a cabinet's link in a process of its own, say):

- :class:`Listen`: a PostgreSQL channel; ingest says ``NOTIFY fleet_stored`` in each of
  its transactions (:data:`fleet.store.CHANNEL`);
- :class:`Changes`: changes said by threads of this process (a cabinet's store and link,
  an MQTT client's callbacks, the mail server, a process's output as :class:`Output`
  reads it);
- :class:`Pipe`: what a child process writes on a pipe.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

import psycopg
from psycopg import sql

from fleet import store


class Wake(Protocol):
    """One subscription to a source: readable (``select``) once something may have
    changed."""

    def fileno(self) -> int: ...

    def take(self) -> bool:
        """Take what made it readable; ``False`` once nothing more can come (its end)."""
        ...


class Source(Protocol):
    """What can make a condition hold."""

    def subscribe(self) -> AbstractContextManager[Wake]: ...


def wait_for(what: str, check: Callable[[], bool], *on: Source, timeout_s: float = 30.0) -> None:
    """Return once ``check()`` holds; fail the test after ``timeout_s``. ``on``: the sources
    of the changes that can make it hold, each subscribed to before the first look, so a
    change between a look and the wait after it still wakes the wait."""
    assert on, f"waiting for {what} on nothing that could bring it"
    deadline = time.monotonic() + timeout_s
    with contextlib.ExitStack() as stack:
        wakes = [stack.enter_context(source.subscribe()) for source in on]
        while not check():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting for {what} ({timeout_s:g} s)")
            if not wakes:
                raise AssertionError(f"nothing left that could bring {what}")
            ready, _, _ = select.select(wakes, [], [], left)
            for wake in ready:
                if not wake.take():
                    wakes.remove(wake)


class Changes:
    """Changes said by threads of this process (:meth:`note`, from any thread). Each
    subscription is a socket pair :meth:`note` writes a byte to: the thread's change wakes
    the waiting ``select``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: set[socket.socket] = set()

    def note(self) -> None:
        """Something changed."""
        with self._lock:
            for sock in self._waiting:
                with contextlib.suppress(BlockingIOError):  # full: readable already
                    sock.send(b"\0")

    @contextlib.contextmanager
    def subscribe(self) -> Iterator[Wake]:
        ours, theirs = socket.socketpair()
        ours.setblocking(False)
        theirs.setblocking(False)
        with self._lock:
            self._waiting.add(theirs)
        try:
            yield _Noted(ours)
        finally:
            with self._lock:
                self._waiting.discard(theirs)
            ours.close()
            theirs.close()


@dataclass(frozen=True, slots=True)
class _Noted:
    sock: socket.socket

    def fileno(self) -> int:
        return self.sock.fileno()

    def take(self) -> bool:
        with contextlib.suppress(BlockingIOError):
            while self.sock.recv(4096):
                pass
        return True


@dataclass(frozen=True, slots=True)
class Listen:
    """A PostgreSQL notification channel (default ingest's, ``fleet_stored``): each
    subscription a connection of its own that ``LISTEN``s on it."""

    conninfo: str
    channel: str = store.CHANNEL

    @contextlib.contextmanager
    def subscribe(self) -> Iterator[Wake]:
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
            yield _Notified(conn)


@dataclass(frozen=True, slots=True)
class _Notified:
    conn: psycopg.Connection[Any]

    def fileno(self) -> int:
        return self.conn.fileno()

    def take(self) -> bool:
        for _ in self.conn.notifies(timeout=0):
            pass
        return True


@dataclass(frozen=True, slots=True)
class Pipe:
    """The read end of a child process's pipe: whatever it writes (its end: it exited)."""

    stream: IO[bytes]

    @contextlib.contextmanager
    def subscribe(self) -> Iterator[Wake]:
        yield _Written(self.stream.fileno())


@dataclass(frozen=True, slots=True)
class _Written:
    fd: int

    def fileno(self) -> int:
        return self.fd

    def take(self) -> bool:
        return bool(os.read(self.fd, 65536))


class Said(dict[str, str]):
    """What callbacks on other threads said, by name (an MQTT client's ``on_connect``,
    ``on_publish``): each entry set is a change (:attr:`changes`)."""

    def __init__(self) -> None:
        super().__init__()
        self.changes = Changes()

    def __setitem__(self, key: str, value: str) -> None:
        super().__setitem__(key, value)
        self.changes.note()


class Output:
    """A child process's output, read line by line as it comes by a thread of its own
    (which blocks on the pipe): appended to ``log``, kept for the test (:meth:`text`),
    each line a change (:attr:`changes`), and its end too (:attr:`ended`: the process has
    exited, or closed its output)."""

    def __init__(self, stream: IO[bytes], log: Path) -> None:
        self.log = log
        self.changes = Changes()
        self.ended = False
        self._lines: list[str] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(
            target=self._copy, args=(stream,), name=f"output to {log.name}", daemon=True
        )
        self._thread.start()

    def _copy(self, stream: IO[bytes]) -> None:
        with stream, self.log.open("ab") as out:
            for line in iter(stream.readline, b""):
                out.write(line)
                out.flush()
                with self._lock:
                    self._lines.append(line.decode(errors="replace"))
                self.changes.note()
        self.ended = True
        self.changes.note()

    def text(self) -> str:
        """Everything read so far."""
        with self._lock:
            return "".join(self._lines)

    def join(self, timeout_s: float = 10.0) -> None:
        """Wait for the end of the output (once the process has exited): everything it
        wrote is then in the log."""
        self._thread.join(timeout_s)
