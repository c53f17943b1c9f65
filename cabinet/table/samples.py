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


@dataclass(slots=True)
class Samples:
    """Each list as :class:`~cabinet.table.messages.Measurements` describes it (ns)."""

    decision_ns: list[int] = field(default_factory=list)
    led_ns: list[int] = field(default_factory=list)
    delivery_ns: list[int] = field(default_factory=list)

    def take_deliveries(self, edges: Iterable[Edge]) -> None:
        """How long after it happened the referee took each of ``edges`` in."""
        self.delivery_ns.extend(
            e.delivered_ns - e.t_ns for e in edges if e.delivered_ns is not None
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
            delivery_ns=list(self.delivery_ns),
            edges=edges,
            late_edges=late_edges,
            race_window_ms=race_window_ms,
        )
