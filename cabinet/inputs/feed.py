"""The referee's side of the input queue: take raw edges off, debounce, feed the referee.

:class:`RefereeFeed` does one round each time it is pumped: it takes every queued raw
edge, reads the clock once (after taking them, so no edge is newer than the reading),
runs the edges through the :class:`~cabinet.inputs.debounce.SwitchFilter` and hands each
resulting game edge to :meth:`game.referee.Referee.take` at that reading, which stamps
it ``delivered_ns`` and keeps it in ``referee.stats.edge_log`` for the match record.

The feed plays onto a *target*: a running game (:class:`game.live_match.LiveMatch`, or a
bare referee through :class:`RefereeTarget`), or nothing between games. Times given to a
game are match-relative (R5 at match time 0), as match records require, and so are the
game's events; the input layer's own notices (player presses, operator edges, stuck
switches) stay on the cabinet clock, since there may be no game to be relative to.

Where it runs, measured in ``bench/races.py`` and explained in ``docs/input.md``: on the
cabinet, the table process's loop pumps it (:mod:`cabinet.table.server`), woken by each
edge and by the referee's next decision time, with no drawing in that process at all.
:class:`RefereeThread` runs it on a thread of the display process instead (tests, and
the design the benchmark compares against); pumping it from the main loop between
frames would delay every edge by up to a whole frame.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from cabinet.inputs.clock import Clock, monotonic_clock
from cabinet.inputs.debounce import (
    OperatorEdge,
    SwitchFilter,
    SwitchFreed,
    SwitchStatus,
    SwitchStuck,
)
from cabinet.inputs.edge_queue import EdgeQueue
from game.edges import Edge
from game.events import Event
from game.referee import Referee

REFEREE_SWITCH_INTERVAL_S = 0.0005
"""Python's thread switch interval while the referee thread runs (s). Python's default,
5 ms, lets a rendering main thread keep the GIL that long before a woken thread gets it;
at 0.5 ms edges reach the referee within about 2.5 ms under a 60 fps render load
(p99.9, bench/README.md) instead of about 5 ms."""


@dataclass(frozen=True, slots=True)
class PlayerPress:
    """A player's debounced press, on the cabinet clock (absolute ns), reported whatever
    the game is doing: the flow joins players and times idleness from these. ``edge``
    carries both of the press's times, as the referee's edge log would: its own stamp
    (``t_ns``, the kernel's on GPIO) and the clock reading of the pump that took it in
    (``delivered_ns``), so a race can be judged from the report alone (the service menu's
    fairness test, which runs in the display process, judges the table's presses so)."""

    player: int
    edge: Edge


FeedEvent = Event | OperatorEdge | SwitchStuck | SwitchFreed | PlayerPress
"""What a pump reports: the referee's events and the input layer's own notices."""


class MatchTarget(Protocol):
    """What the feed plays onto: anything that takes edges on the cabinet clock.
    :class:`game.live_match.LiveMatch` is one; :class:`RefereeTarget` adapts a bare
    referee."""

    def take(self, edge: Edge, delivered_abs_ns: int) -> list[Event]: ...

    def advance(self, now_abs_ns: int) -> list[Event]: ...

    def next_wake_abs_ns(self) -> int | None: ...


class RefereeTarget:
    """A bare :class:`Referee` as a :class:`MatchTarget`: match time 0 is ``origin_ns``
    on the cabinet clock."""

    def __init__(self, referee: Referee, origin_ns: int) -> None:
        self.referee = referee
        self.origin_ns = origin_ns

    def take(self, edge: Edge, delivered_abs_ns: int) -> list[Event]:
        origin = self.origin_ns
        moved = Edge(edge.player, edge.button, edge.edge, edge.t_ns - origin)
        return self.referee.take(moved, delivered_abs_ns - origin)

    def advance(self, now_abs_ns: int) -> list[Event]:
        return self.referee.tick(now_abs_ns - self.origin_ns)

    def next_wake_abs_ns(self) -> int | None:
        referee = self.referee
        candidates: list[int] = []
        release = referee.next_release_ns()
        if release is not None:
            candidates.append(release)
        due = referee.game.spit_due_ns
        if due is not None:
            candidates.append(due + referee.window_ns)
        return min(candidates) + self.origin_ns if candidates else None


@dataclass(slots=True)
class FeedStats:
    """Counters for the service menu."""

    pumps: int = 0
    raw_edges: int = 0
    future_edges: int = 0
    """Edges stamped later than the clock reading that took them (a pin factory on
    another clock); applied at that reading instead."""


class RefereeFeed:
    """Feeds one target (a game, or nothing between games) from one edge queue, through
    one switch filter."""

    def __init__(
        self,
        referee: Referee | None,
        edges: EdgeQueue,
        *,
        switch_filter: SwitchFilter | None = None,
        clock: Clock = monotonic_clock,
        origin_ns: int | None = None,
    ) -> None:
        """``referee``: a bare referee whose match time 0 is ``origin_ns`` on the clock
        (default: now), or ``None`` to start with no game (see :meth:`play_onto`)."""
        self.edges = edges
        self.filter = switch_filter if switch_filter is not None else SwitchFilter()
        self.clock = clock
        self.origin_ns = clock() if origin_ns is None else origin_ns
        self.referee = referee
        self._target: MatchTarget | None = (
            RefereeTarget(referee, self.origin_ns) if referee is not None else None
        )
        self._lock = threading.RLock()
        self.stats = FeedStats()
        self.taken_ns = 0
        """The clock reading at which the last pump took its edges (where its work began)."""
        self.switches: tuple[SwitchStatus, ...] = self.filter.status()
        """The latest snapshot of every control (replaced, never mutated: any thread
        may read it)."""

    def hold(self) -> AbstractContextManager[bool]:
        """The lock the feed holds while it plays onto its target: hold it (``with
        feed.hold():``) to read the game from another thread between two plays."""
        return self._lock

    def play_onto(self, target: MatchTarget | None) -> None:
        """From the next pump on, play edges onto ``target`` (``None``: no game; player
        presses are still reported as :class:`PlayerPress`). Any thread may call it."""
        with self._lock:
            self._target = target
        self.edges.wake()

    def pump(self, timeout_s: float = 0.0) -> list[FeedEvent]:
        """Take the queued edges (waiting up to ``timeout_s`` for the first), feed them
        to the target at the current clock reading and move the target's clock there.
        Returns what was decided, in order, with the input layer's notices."""
        raws = self.edges.take(timeout_s)
        now = self.taken_ns = self.clock()
        filt = self.filter
        out: list[FeedEvent] = []
        stats = self.stats
        stats.pumps += 1
        stats.raw_edges += len(raws)
        with self._lock:
            target = self._target
            for raw in raws:
                for item in filt.process(raw):
                    self._emit(item, now, target, out)
            notices = filt.poll(now)
            for item in notices:
                self._emit(item, now, target, out)
            if target is not None:
                out.extend(target.advance(now))
        if raws or notices:
            self.switches = filt.status()
        return out

    def _emit(
        self,
        item: Edge | OperatorEdge | SwitchStuck | SwitchFreed,
        now: int,
        target: MatchTarget | None,
        out: list[FeedEvent],
    ) -> None:
        if isinstance(item, Edge):
            if item.t_ns > now:
                self.stats.future_edges += 1
                item = Edge(item.player, item.button, item.edge, now)
            if item.is_press:
                out.append(PlayerPress(item.player, item.delivered(now)))
            if target is not None:
                out.extend(target.take(item, now))
        else:
            out.append(item)

    def next_wake_ns(self) -> int | None:
        """The clock reading (absolute ns) at which the next pump could decide something
        without a new edge: a held edge's release, a due spit, a CPU's press, a debounce
        window or a stuck switch. ``None``: nothing until an edge arrives."""
        candidates: list[int] = []
        with self._lock:
            target = self._target
            wake = target.next_wake_abs_ns() if target is not None else None
        if wake is not None:
            candidates.append(wake)
        deadline = self.filter.next_deadline_ns()
        if deadline is not None:
            candidates.append(deadline)
        return min(candidates) if candidates else None


class RefereeThread:
    """Runs a :class:`RefereeFeed` on its own thread.

    The thread blocks on the edge queue until an edge arrives or the feed's next wake
    time comes, pumps, and passes any events to ``on_events`` (called on this thread:
    keep it short, e.g. put them on a queue for the display). Only this thread touches
    the referee and its game while it runs.
    """

    def __init__(
        self,
        feed: RefereeFeed,
        on_events: Callable[[list[FeedEvent]], None] | None = None,
        *,
        idle_s: float = 0.1,
        switch_interval_s: float | None = REFEREE_SWITCH_INTERVAL_S,
        name: str = "referee",
    ) -> None:
        """``idle_s``: the longest wait (s) with nothing due, so :meth:`stop` is heard.
        ``switch_interval_s``: Python's thread switch interval (s) while the thread runs
        (process-wide; restored by :meth:`stop`); ``None`` leaves it alone."""
        self.feed = feed
        self.outbox: queue.SimpleQueue[list[FeedEvent]] = queue.SimpleQueue()
        self._on_events = on_events if on_events is not None else self.outbox.put
        self._idle_s = idle_s
        self._switch_interval_s = switch_interval_s
        self._previous_interval_s: float | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.error: BaseException | None = None
        """The exception that ended the thread, if one did."""

    def start(self) -> None:
        if self._switch_interval_s is not None:
            self._previous_interval_s = sys.getswitchinterval()
            sys.setswitchinterval(min(self._previous_interval_s, self._switch_interval_s))
        self._thread.start()

    def stop(self, timeout_s: float = 2.0) -> None:
        """Ask the thread to finish and wait for it (at most ``timeout_s``). Safe to call
        on a thread never started."""
        self._stop.set()
        self.feed.edges.wake()
        if self._thread.ident is not None:
            self._thread.join(timeout_s)
        if self._previous_interval_s is not None:
            sys.setswitchinterval(self._previous_interval_s)
            self._previous_interval_s = None

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        feed = self.feed
        clock = feed.clock
        try:
            while not self._stop.is_set():
                wake = feed.next_wake_ns()
                if wake is None:
                    timeout = self._idle_s
                else:
                    timeout = min(self._idle_s, max(0.0, (wake - clock()) / 1e9))
                events = feed.pump(timeout if timeout > 0 else 0.0)
                if events:
                    self._on_events(events)
        except BaseException as exc:  # reported to the main loop, which decides
            self.error = exc
            raise
