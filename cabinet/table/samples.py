"""The latency samples the table keeps when it runs with ``--measure``, for the
benchmarks: what :class:`~cabinet.table.messages.Measurements` reports."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from cabinet.inputs.feed import FeedEvent
from cabinet.table.messages import Measurements
from game.edges import Edge
from game.events import Played, Rejected, Selected
from game.live_match import LiveMatch

LONG_STEP_NS = 500_000
"""A round of the table's loop longer than this is noted (a quarter of the race window)."""


@dataclass(slots=True)
class Samples:
    """Each list as :class:`~cabinet.table.messages.Measurements` describes it (ns)."""

    decision_ns: list[int] = field(default_factory=list)
    led_ns: list[int] = field(default_factory=list)
    deliveries_ns: list[tuple[int, int]] = field(default_factory=list)
    path_ns: list[tuple[int, int, int]] = field(default_factory=list)
    """Appended by the press channel, where there is one."""
    steps_ns: list[tuple[int, int]] = field(default_factory=list)

    def take_step(self, start_ns: int, end_ns: int) -> None:
        """One round of the table's loop, kept when it took longer than
        :data:`LONG_STEP_NS`."""
        if end_ns - start_ns > LONG_STEP_NS:
            self.steps_ns.append((start_ns, end_ns))

    def take_deliveries(self, edges: Iterable[Edge], origin_ns: int) -> None:
        """When each of ``edges`` (of a game whose time 0 is ``origin_ns`` on the clock)
        happened and when the referee took it in."""
        self.deliveries_ns.extend(
            (origin_ns + e.t_ns, origin_ns + e.delivered_ns)
            for e in edges
            if e.delivered_ns is not None
        )

    def take_decisions(self, batch: list[FeedEvent], match: LiveMatch, now: int) -> None:
        """How long after each of the people's presses in ``batch`` happened it was
        decided (at ``now``)."""
        start = match.start_abs_ns
        humans = match.humans
        for item in batch:
            if isinstance(item, Selected | Played | Rejected) and item.player in humans:
                self.decision_ns.append(now - (start + item.t_ns))

    def measurements(self, *, edges: int, late_edges: int, race_window_ms: float) -> Measurements:
        """The report of these samples (copies of them) and the counts given."""
        return Measurements(
            decision_ns=list(self.decision_ns),
            led_ns=list(self.led_ns),
            deliveries_ns=list(self.deliveries_ns),
            edges=edges,
            late_edges=late_edges,
            race_window_ms=race_window_ms,
            path_ns=list(self.path_ns),
            steps_ns=list(self.steps_ns),
        )
