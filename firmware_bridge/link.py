"""The host's link to the light board: a supervisor thread the game never waits for.

::

    link = LightLink()                 # finds a Pico running MicroPython by USB id
    link.start()
    link.show(LightState.all_off().with_lights(stuck1=Light.blink(400, RED)))
    link.health()                      # connected, port, firmware, RTT, errors, reconnects
    link.stop()

The thread opens the port, handshakes, sends the wanted state at least every
``heartbeat_ms`` (the board shows its link-lost pattern after 1 s without one), reads ACKs,
and after an unplug, a read or write error or a silent board closes the port and tries again
with backoff (``backoff_ms``, doubling up to ``max_backoff_ms``), then sends the whole state
again.

:meth:`LightLink.show` writes a changed state's SNAPSHOT itself, in the caller's thread,
when the board is connected: handing it to the supervisor thread cost a thread wake-up (and,
from a busy game loop, a wait for the GIL) on every change. Writes never wait: what the OS
cannot take at once is dropped and counted, and the next heartbeat repairs it. A write
error is handed to the supervisor, which drops the connection. So ``show()`` never blocks on
the board and never raises because of it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.lights import LightState
from firmware_bridge.session import BoardCounters, BoardInfo, LinkSession, Timing
from firmware_bridge.transport import (
    MICROPYTHON_PID,
    MICROPYTHON_VID,
    SerialOpener,
    Transport,
)


@dataclass(frozen=True, slots=True)
class LinkHealth:
    """The link as the service menu shows it."""

    #: True once the board has answered the handshake, until the connection drops.
    connected: bool
    #: The port in use (or last tried), or None before the first try.
    port: str | None
    #: What the board reported at the handshake (None until then).
    board: BoardInfo | None
    #: Last round trip, snapshot sent to its ACK received, in milliseconds.
    rtt_ms: float | None
    #: Damaged frames, board error replies, handshake and I/O failures, since start.
    errors: int
    #: Connections dropped and tried again after having been up, since start.
    reconnects: int
    last_error: str | None
    #: The board's own counters, after :meth:`LightLink.request_counters`.
    board_counters: BoardCounters | None
    snapshots_sent: int
    acks: int
    #: The last state the board acknowledged on this connection.
    acked: LightState | None
    #: Writes the OS could not take at once (its buffer was full), dropped whole or in
    #: part, since start; the next heartbeat repaired each.
    dropped_writes: int

    @property
    def firmware_version(self) -> str | None:
        return self.board.firmware if self.board is not None else None


class LightLink:
    """Keeps the board showing the latest :class:`LightState`, whatever the cable does.

    ``port`` names the serial device (or a stable symlink to it); without it the board is
    found by USB ``vid``:``pid`` at each connection. ``opener`` replaces both (any callable
    returning a :class:`~firmware_bridge.transport.Transport`), and ``clock_ns`` the
    monotonic nanosecond clock, for tests.
    """

    def __init__(
        self,
        port: str | None = None,
        *,
        vid: int = MICROPYTHON_VID,
        pid: int = MICROPYTHON_PID,
        opener: Callable[[], Transport] | None = None,
        clock_ns: Callable[[], int] = time.monotonic_ns,
        timing: Timing | None = None,
        backoff_ms: int = 50,
        max_backoff_ms: int = 500,
    ) -> None:
        self._opener: Callable[[], Transport] = (
            opener if opener is not None else SerialOpener(port, vid=vid, pid=pid)
        )
        self._clock_ns = clock_ns
        self._timing = timing if timing is not None else Timing()
        self._backoff_s = backoff_ms / 1000
        self._max_backoff_s = max_backoff_ms / 1000
        # One lock guards everything below, the session, and every write to the transport
        # (so frames from the game's thread and the supervisor never interleave).
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._desired = LightState.all_off()
        self._transport: Transport | None = None
        self._session: LinkSession | None = None
        self._want_counters = False
        self._port: str | None = port
        #: Why a write failed on this connection; the supervisor then drops it.
        self._write_failure: str | None = None
        #: A frame went out only in part: the next write starts with a 0x00 delimiter so
        #: the board drops the broken frame rather than the one after it as well.
        self._resync = False
        self._errors = 0  # failures outside a session (opening, I/O, timeouts)
        self._session_errors = 0  # errors of sessions that have ended
        self._reconnects = 0
        self._last_error: str | None = None
        self._board_counters: BoardCounters | None = None
        self._snapshots = 0
        self._acks = 0
        self._dropped_writes = 0

    # ---- the game's side -----------------------------------------------------------------

    def start(self) -> LightLink:
        """Start the supervisor thread (once). Returns the link."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="light-link", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout_s: float = 2.0) -> None:
        """Stop the thread and close the port."""
        with self._lock:
            self._stop.set()
            self._wake_locked()
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None

    def __enter__(self) -> LightLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def show(self, state: LightState) -> None:
        """Make ``state`` what the lights show. Any thread; returns at once.

        Connected, a state that differs from the last one sent is written here, without
        waiting (tens of microseconds); the same state again writes nothing (the heartbeat
        carries it). Not connected, the supervisor sends it once the board answers."""
        with self._lock:
            self._desired = state
            session = self._session
            if session is not None:
                session.show(state)
                if session.ready:
                    self._send_locked(session.poll(self._clock_ns()))

    @property
    def state(self) -> LightState:
        """The state last given to :meth:`show`."""
        with self._lock:
            return self._desired

    def request_counters(self) -> None:
        """Ask the board for its counters; they appear in :meth:`health` when answered."""
        with self._lock:
            self._want_counters = True
            self._wake_locked()

    def health(self) -> LinkHealth:
        with self._lock:
            return self._health_locked()

    def wait_for(self, predicate: Callable[[LinkHealth], bool], timeout_s: float) -> bool:
        """Block until ``predicate(health)`` holds (checked after every event), at most
        ``timeout_s`` seconds; return whether it held. For tests and the ``lights test``
        command, never for the game loop."""
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while not predicate(self._health_locked()):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return True

    # ---- shared by both sides (the caller holds the lock) -----------------------------------

    def _health_locked(self) -> LinkHealth:
        s = self._session
        return LinkHealth(
            connected=s is not None and s.ready,
            port=self._port,
            board=s.board if s is not None else None,
            rtt_ms=s.rtt_ns / 1e6 if s is not None and s.rtt_ns is not None else None,
            errors=self._errors + self._session_errors + (s.errors if s is not None else 0),
            reconnects=self._reconnects,
            last_error=self._last_error if s is None or s.last_error is None else s.last_error,
            board_counters=self._board_counters,
            snapshots_sent=self._snapshots + (s.snapshots_sent if s is not None else 0),
            acks=self._acks + (s.acks if s is not None else 0),
            acked=s.acked if s is not None else None,
            dropped_writes=self._dropped_writes,
        )

    def _wake_locked(self) -> None:
        if self._transport is not None:
            self._transport.wake()

    def _send_locked(self, data: bytes) -> None:
        """Write ``data`` without waiting. What a full OS buffer does not take is dropped
        and counted; a failed write is left for the supervisor, which drops the connection.
        """
        transport = self._transport
        if not data or transport is None or self._write_failure is not None:
            return
        if self._resync:
            data = b"\x00" + data
        try:
            sent = transport.write(data)
        except OSError as exc:
            self._write_failure = f"write failed: {type(exc).__name__}: {exc}"
            transport.wake()
            return
        if sent >= len(data):
            self._resync = False
        else:
            self._dropped_writes += 1
            self._resync = self._resync or sent > 0

    # ---- the thread ----------------------------------------------------------------------

    def _fail(self, message: str) -> None:
        with self._changed:
            self._errors += 1
            self._last_error = message
            self._changed.notify_all()

    def _run(self) -> None:
        delay = self._backoff_s
        while not self._stop.is_set():
            try:
                transport = self._opener()
            except Exception as exc:  # a missing or broken board must never stop the link
                self._fail(f"cannot open the board: {exc}")
                self._stop.wait(delay)
                delay = min(delay * 2, self._max_backoff_s)
                continue
            if self._talk(transport):
                delay = self._backoff_s
                with self._changed:
                    if not self._stop.is_set():
                        self._reconnects += 1
            if not self._stop.is_set():
                self._stop.wait(delay)
                delay = min(delay * 2, self._max_backoff_s)

    def _talk(self, transport: Transport) -> bool:
        """Run one connection until it fails or the link stops; True if it got ready."""
        clock = self._clock_ns
        with self._changed:
            session = LinkSession(self._desired, clock(), self._timing)
            self._transport, self._session = transport, session
            self._port = transport.name
            self._write_failure = None
            self._resync = False
        reason: str | None = None
        try:
            while not self._stop.is_set():
                with self._changed:
                    now = clock()
                    if self._want_counters and session.ready:
                        self._want_counters = False
                        session.request_counters()
                    reason = session.failure(now)
                    if not reason:
                        self._send_locked(session.poll(now))
                        reason = self._write_failure
                    if reason:
                        break
                    wait_s = max(0, session.deadline(now) - now) / 1e9
                data = transport.read(wait_s)
                if data:
                    with self._changed:
                        session.receive(data, clock())
                        if session.counters is not None:
                            self._board_counters = session.counters
                        self._changed.notify_all()
        except Exception as exc:  # unplugged, stalled or broken: drop and reconnect
            reason = f"{type(exc).__name__}: {exc}"
        finally:
            with self._changed:
                # Detached under the lock: no other thread writes to or wakes it after this.
                self._transport = None
                self._session = None
                self._session_errors += session.errors
                self._snapshots += session.snapshots_sent
                self._acks += session.acks
                if session.last_error is not None:
                    self._last_error = session.last_error
                if reason:
                    self._errors += 1
                    self._last_error = reason
                self._changed.notify_all()
            transport.close()
        return session.ready
