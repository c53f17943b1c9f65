"""Running a fairness test on the cabinet's inputs: the presses come through the same
input layer as a game's (the backend's timestamps, the switch filter, the feed), and
:class:`~cabinet.fairness.judging.FairnessJudge` takes them as a game would.

:class:`MockJig` is the jig on gpiozero's mock pins, for a desktop and the tests: it
drives the two lines as the Pico does, each edge stamped at the moment the schedule
gives it, so the whole path from the pin to the certificate runs with no hardware.
"""

from __future__ import annotations

from collections.abc import Callable

from cabinet.fairness.judging import LINE_PLAYERS, FairnessJudge
from cabinet.fairness.session import WAIT_FIRST_S, FairnessRun, NoPressError, Progress
from cabinet.inputs.clock import Clock
from cabinet.inputs.controls import Control
from cabinet.inputs.feed import RefereeFeed
from cabinet.inputs.mock import MockInput
from firmware_bridge.fairness import A_FIRST, HOLD_MS, Schedule
from game.edges import Button
from game.units import MS, US

__all__ = ["LINES", "WAIT_FIRST_S", "MockJig", "NoPressError", "Progress", "run_test"]

LINES = tuple(Control(player, Button.PILE1) for player in LINE_PLAYERS)
"""Line A and line B: player 1's and player 2's left pile buttons."""


def run_test(
    feed: RefereeFeed,
    judge: FairnessJudge,
    clock: Clock,
    *,
    wait_first_s: float = WAIT_FIRST_S,
    step: Callable[[int], None] | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> None:
    """Feed the jig's presses to ``judge`` until every pair is due (then
    ``judge.certificate`` has the result). ``step(now_ns)``, when given, is called before
    each pump (a simulated jig presses, a virtual clock moves); without it each pump waits
    up to 20 ms for an edge. Raises :class:`NoPressError` when no press came in
    ``wait_first_s``."""
    run = FairnessRun(judge, clock(), wait_first_s=wait_first_s)
    feed.play_onto(judge)
    shown = -1
    try:
        while True:
            if step is not None:
                step(clock())
            feed.pump(0.0 if step is not None else 0.02)
            now = clock()
            where = run.progress()
            if progress is not None and where.seen != shown:
                shown = where.seen
                progress(where)
            if run.over(now):
                return
    finally:
        feed.play_onto(None)


class MockJig:
    """The jig on mock pins: pair ``k``'s first line goes down ``lead_in_ns +
    start_ms(k)`` after ``origin_ns``, the other ``offset_us(k)`` later, both up after
    ``HOLD_MS``. :meth:`step` drives every edge due by ``now_ns`` (at its own stamp)."""

    def __init__(self, backend: MockInput, schedule: Schedule, origin_ns: int, lead_in_ns: int):
        self.backend = backend
        edges: list[tuple[int, Control, bool]] = []
        for k in range(len(schedule)):
            start = origin_ns + lead_in_ns + schedule.start_ms(k) * MS
            order = LINES if schedule.first(k) == A_FIRST else LINES[::-1]
            second = start + schedule.offset_us(k) * US
            edges += [(start, order[0], True), (second, order[1], True)]
            edges += [(start + HOLD_MS * MS, order[0], False)]
            edges += [(second + HOLD_MS * MS, order[1], False)]
        self._edges = sorted(edges, key=lambda e: e[0], reverse=True)

    def step(self, now_ns: int) -> None:
        while self._edges and self._edges[-1][0] <= now_ns:
            t, control, pressed = self._edges.pop()
            self.backend.change(control, pressed, t)

    def next_due_ns(self) -> int | None:
        """When the next edge is due (``None``: all driven)."""
        return self._edges[-1][0] if self._edges else None

    @property
    def finished(self) -> bool:
        return not self._edges
