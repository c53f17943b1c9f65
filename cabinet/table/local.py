"""The table in the display's own process: the feed on a thread, or pumped each frame.

Tests drive the whole cabinet on a virtual clock with :class:`LocalTable` pumped from
the frame (``threaded=False``); ``threaded=True`` is the design before the table had a
process of its own (the referee on a thread of the display process), kept for the
benchmark that compares the two. It offers the same calls as
:class:`~cabinet.table.remote.RemoteTable`.
"""

from __future__ import annotations

import contextlib
import logging
import queue
from collections.abc import Sequence
from contextlib import AbstractContextManager

from cabinet.inputs.clock import Clock, monotonic_clock
from cabinet.inputs.debounce import SwitchStatus
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from cabinet.inputs.feed import FeedEvent, MatchTarget, RefereeFeed, RefereeThread
from cabinet.table.messages import LightsContext
from game.bots import Level
from game.live_match import LiveMatch
from game.rules import Rules

log = logging.getLogger(__name__)


class LocalTable:
    """The referee feed in this process, on ``edges``."""

    ready = True
    hardware_timestamps: bool | None = None
    """Unknown here: the display knows its own backend."""
    input_backend: str | None = None
    """Unknown here, as :attr:`hardware_timestamps`."""

    def __init__(
        self, edges: EdgeQueue, *, clock: Clock = monotonic_clock, threaded: bool = True
    ) -> None:
        self.clock = clock
        self.feed = RefereeFeed(None, edges, clock=clock)
        self.threaded = threaded
        self.thread: RefereeThread | None = RefereeThread(self.feed) if threaded else None
        self._early: list[list[FeedEvent]] = []

    # -- the same calls as RemoteTable ---------------------------------------------------

    def start(self) -> None:
        if self.thread is not None:
            self.thread.start()

    def stop(self) -> None:
        if self.thread is not None:
            self.thread.stop()

    @property
    def alive(self) -> bool:
        return self.thread is None or self.thread.error is None

    @property
    def error(self) -> BaseException | None:
        return self.thread.error if self.thread is not None else None

    @property
    def started(self) -> bool:
        return True

    @property
    def refused(self) -> str | None:
        """The table in this process opens nothing it could refuse on."""
        return None

    def revive(self) -> None:
        """The referee thread died: start another on the same feed."""
        self.thread = RefereeThread(self.feed)
        self.thread.start()

    def new_match(
        self, rules: Rules, seed: int, cpu_levels: Sequence[Level | None], start_abs_ns: int
    ) -> LiveMatch:
        return LiveMatch(rules, seed, cpu_levels, start_abs_ns)

    def play_onto(self, target: MatchTarget | None) -> None:
        self.feed.play_onto(target)

    def hold(self) -> AbstractContextManager[bool]:
        """Hold it to read or change the game the referee thread plays onto."""
        return self.feed.hold()

    @property
    def switches(self) -> tuple[SwitchStatus, ...]:
        return self.feed.switches

    def wait(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for the referee thread to decide something."""
        if self.thread is None or timeout_s <= 0:
            return False
        with contextlib.suppress(queue.Empty):
            self._early.append(self.thread.outbox.get(timeout=timeout_s))
            return True
        return False

    def batches(self) -> list[list[FeedEvent]]:
        """What was decided since the last call (pumped here without a thread)."""
        if self.thread is None:
            return [self.feed.pump()]
        out, self._early = self._early, []
        outbox = self.thread.outbox
        while True:
            try:
                out.append(outbox.get_nowait())
            except queue.Empty:
                return out

    def lights(self, context: LightsContext) -> None:
        """The lights are driven by the display in this design."""

    def forward(self, edges: Sequence[RawEdge]) -> None:
        """Edges already reach this feed's own queue."""

    def recorded(self, game: int) -> None:
        """Nothing to confirm: the game lives in this process."""
