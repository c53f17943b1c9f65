"""Raw button edges and the thread-safe queue that carries them from the input
backends' callbacks to the referee's side.

A backend's callback (running on gpiozero's, lgpio's or the event loop's thread) does
nothing but build a :class:`RawEdge` with the edge's own timestamp and
:meth:`EdgeQueue.put` it. The consumer takes edges off with :meth:`EdgeQueue.take`,
debounces them and hands them to the referee, which stamps ``delivered_ns``.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass

from cabinet.inputs.controls import Control


@dataclass(frozen=True, slots=True)
class RawEdge:
    """One level change of one control, before debouncing.

    ``pressed`` is the new level (``True``: the button went down). ``t_ns`` is when the
    change happened, integer ns on CLOCK_MONOTONIC: the kernel's timestamp for GPIO.
    ``initial`` marks the level a backend read when it opened (no edge happened then).
    """

    control: Control
    pressed: bool
    t_ns: int
    initial: bool = False

    def __repr__(self) -> str:
        kind = "initial" if self.initial else ("press" if self.pressed else "release")
        return f"RawEdge({self.control.name} {kind} @{self.t_ns})"


_WAKE = object()
"""Put by :meth:`EdgeQueue.wake` to end a blocking :meth:`EdgeQueue.take` early."""


class EdgeQueue:
    """A thread-safe FIFO of :class:`RawEdge`: many producers, one consumer.

    Built on :class:`queue.SimpleQueue`, whose ``put`` never blocks and is safe to
    call from any thread, including a C library's callback thread.
    """

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()

    def put(self, edge: RawEdge) -> None:
        """Add an edge (any thread; never blocks)."""
        self._queue.put(edge)

    def wake(self) -> None:
        """Make a consumer blocked in :meth:`take` return now (with what is queued)."""
        self._queue.put(_WAKE)

    def take(self, timeout_s: float | None = 0.0) -> list[RawEdge]:
        """Every queued edge, oldest first. With ``timeout_s`` > 0, waits up to that long
        (seconds; ``None``: for ever) for the first one; 0 never waits."""
        q = self._queue
        edges: list[RawEdge] = []
        try:
            if timeout_s is None or timeout_s > 0:
                first = q.get(timeout=timeout_s)
            else:
                first = q.get_nowait()
        except queue.Empty:
            return edges
        item = first
        while True:
            if item is not _WAKE:
                assert isinstance(item, RawEdge)
                edges.append(item)
            try:
                item = q.get_nowait()
            except queue.Empty:
                return edges

    def __len__(self) -> int:
        """How many items wait (approximate while producers run)."""
        return self._queue.qsize()
