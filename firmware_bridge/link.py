"""The host's link to the light board: a supervisor thread the game never waits for.

::

    link = LightLink()                 # finds a Pico running MicroPython by USB id
    link.start()
    link.show(LightState.all_off().with_lights(stuck1=Light.blink(400, RED)))
    link.health()                      # connected, port, firmware, RTT, errors, reconnects
    link.stop()

The thread opens the port, handshakes, sends the wanted state on every change and at least
every ``heartbeat_ms`` (the board shows its link-lost pattern after 1 s without one), reads
ACKs, and after an unplug, a read error or a silent board closes the port and tries again
with backoff (``backoff_ms``, doubling up to ``max_backoff_ms``), then sends the whole state
again. :meth:`LightLink.show` only stores the state and wakes the thread: it never blocks on
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

_MS = 1_000_000


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
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._desired = LightState.all_off()
        self._transport: Transport | None = None
        self._session: LinkSession | None = None
        self._want_counters = False
        self._port: str | None = port
        self._errors = 0  # failures outside a session (opening, I/O, timeouts)
        self._session_errors = 0  # errors of sessions that have ended
        self._reconnects = 0
        self._last_error: str | None = None
        self._board_counters: BoardCounters | None = None
        self._snapshots = 0
        self._acks = 0

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
        self._stop.set()
        with self._lock:
            transport = self._transport
        if transport is not None:
            transport.wake()
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None

    def __enter__(self) -> LightLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def show(self, state: LightState) -> None:
        """Make ``state`` what the lights show. Returns at once; any thread."""
        with self._lock:
            self._desired = state
            transport = self._transport
        if transport is not None:
            transport.wake()

    @property
    def state(self) -> LightState:
        """The state last given to :meth:`show`."""
        with self._lock:
            return self._desired

    def request_counters(self) -> None:
        """Ask the board for its counters; they appear in :meth:`health` when answered."""
        with self._lock:
            self._want_counters = True
            transport = self._transport
        if transport is not None:
            transport.wake()

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

    # ---- the thread ----------------------------------------------------------------------

    def _health_locked(self) -> LinkHealth:
        s = self._session
        return LinkHealth(
            connected=s is not None and s.ready,
            port=self._port,
            board=s.board if s is not None else None,
            rtt_ms=s.rtt_ns / _MS if s is not None and s.rtt_ns is not None else None,
            errors=self._errors + self._session_errors + (s.errors if s is not None else 0),
            reconnects=self._reconnects,
            last_error=self._last_error if s is None or s.last_error is None else s.last_error,
            board_counters=self._board_counters,
            snapshots_sent=self._snapshots + (s.snapshots_sent if s is not None else 0),
            acks=self._acks + (s.acks if s is not None else 0),
            acked=s.acked if s is not None else None,
        )

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
            was_ready = self._talk(transport)
            if was_ready:
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
            self._transport = transport
            self._port = transport.name
            session = LinkSession(self._desired, clock(), self._timing)
            self._session = session
        reason: str | None = None
        try:
            while not self._stop.is_set():
                with self._changed:
                    now = clock()
                    session.show(self._desired)
                    if self._want_counters and session.ready:
                        self._want_counters = False
                        session.request_counters()
                    reason = session.failure(now)
                    out = b"" if reason else session.poll(now)
                    wait_ns = session.deadline(now) - now
                if reason:
                    break
                if out:
                    transport.write(out)
                data = transport.read(max(0, wait_ns) / 1e9)
                if data:
                    with self._changed:
                        was_ready = session.ready
                        session.receive(data, clock())
                        if session.counters is not None:
                            self._board_counters = session.counters
                        if session.ready != was_ready or data:
                            self._changed.notify_all()
        except Exception as exc:  # unplugged, stalled or broken: drop and reconnect
            reason = f"{type(exc).__name__}: {exc}"
        finally:
            transport.close()
            with self._changed:
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
        return session.board is not None and session.ready
