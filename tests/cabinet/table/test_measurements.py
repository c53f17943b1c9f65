"""The table's own measurements for the benchmarks (``--measure``): each edge's way from
the press channel to the referee, and the loop's long rounds, so a late edge can be
traced to the part of the path that held it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from cabinet.inputs.controls import Control
from cabinet.inputs.press_channel import PathStamp, PressChannel, PressSender
from cabinet.table.messages import Measurements
from cabinet.table.remote import RemoteTable
from cabinet.table.samples import LONG_STEP_NS, Samples
from game.edges import Button
from game.events import Started
from game.rules import Rules
from game.units import MS

from .conftest import DEADLINE_S, table_reports_until


class Recorder:
    """A press target that notes what it was asked to drive, and when."""

    def __init__(self) -> None:
        self.changes: list[tuple[Control, bool, int, int]] = []
        self.arrived = threading.Event()

    def change(self, control: Control, pressed: bool, t_ns: int) -> None:
        self.changes.append((control, pressed, t_ns, time.monotonic_ns()))
        self.arrived.set()


def test_the_press_channel_stamps_each_edge_between_receipt_and_queueing(
    tmp_path: Path,
) -> None:
    trace: list[PathStamp] = []
    target = Recorder()
    sock = tmp_path / "presses.sock"
    channel = PressChannel(sock, target, trace).start()
    try:
        sent = time.monotonic_ns()
        with PressSender(sock) as sender:
            sender.send(Control(0, Button.PILE1), True, sent - 3 * MS)
            sender.send(Control(1, Button.SLOT2), False, sent - 1 * MS)
        deadline = time.monotonic() + DEADLINE_S
        while len(trace) < 2 and time.monotonic() < deadline:
            target.arrived.wait(0.05)
            target.arrived.clear()
    finally:
        channel.close()
    assert [t for t, _, _ in trace] == [sent - 3 * MS, sent - 1 * MS]
    for (_, received, queued), (*_, driven) in zip(trace, target.changes, strict=True):
        assert sent <= received <= driven <= queued  # received, then driven, then noted


def test_a_channel_without_a_trace_notes_nothing(tmp_path: Path) -> None:
    target = Recorder()
    channel = PressChannel(tmp_path / "presses.sock", target).start()
    try:
        with PressSender(tmp_path / "presses.sock") as sender:
            sender.send(Control(0, Button.PILE1), True, 5)
        assert target.arrived.wait(DEADLINE_S)
    finally:
        channel.close()
    assert channel.trace is None and target.changes[0][:3] == (Control(0, Button.PILE1), True, 5)


def test_only_rounds_longer_than_the_threshold_are_kept() -> None:
    samples = Samples()
    samples.take_step(1_000, 1_000 + LONG_STEP_NS)  # exactly the threshold: not long
    samples.take_step(5_000, 5_000 + LONG_STEP_NS + 1)
    samples.take_step(9_000, 9_100)
    assert samples.steps_ns == [(5_000, 5_000 + LONG_STEP_NS + 1)]
    report = samples.measurements(edges=0, late_edges=0, race_window_ms=2.0)
    assert report.steps_ns == samples.steps_ns and report.steps_ns is not samples.steps_ns


def test_a_measuring_table_reports_each_edges_path_and_delivery(tmp_path: Path) -> None:
    """The table process with ``--measure``: every press sent through the channel is in
    its report with its receipt and queueing, and its delivery to the referee after
    them, on the same clock as the sender's."""
    sock = tmp_path / "presses.sock"
    table = RemoteTable(["--input", "mock", "--press-socket", str(sock), "--measure"]).start()
    try:
        table_reports_until(table, lambda: table.ready, "the table to be ready")
        match = table.new_match(Rules(), 3, (None, None), time.monotonic_ns())
        table_reports_until(
            table, lambda: any(isinstance(e, Started) for e in match.events), "start"
        )
        sent = time.monotonic_ns()
        times = [sent - 4 * MS, sent - 2 * MS, sent - 1 * MS, sent]
        with PressSender(sock) as sender:
            for k, t in enumerate(times):
                sender.send(Control(k % 2, Button.slot(k // 2)), True, t)
        table_reports_until(table, lambda: len(match.edges) >= len(times), "the four edges")
        table.request_measurements()
        table_reports_until(table, lambda: bool(table.status.measurements), "the measurements")
        report: Measurements = table.status.measurements[-1]
    finally:
        table.stop()
    path = {t: (received, queued) for t, received, queued in report.path_ns}
    delivered = dict(report.deliveries_ns)
    assert sorted(path) == times and sorted(delivered) == times
    for t in times:
        received, queued = path[t]
        assert sent <= received <= queued <= delivered[t]
    assert report.edges == len(times)
    assert all(end - start > LONG_STEP_NS for start, end in report.steps_ns)
