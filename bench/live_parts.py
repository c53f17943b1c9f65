"""The processes and tables a live run of ``bench/races.py`` starts (:mod:`live_run`):
a busy process on the table's core, the table (a process of its own, or a thread of the
display's process, the design before), and the presser."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from board_sim import ROOT

# Run from a checkout: import this repository's packages, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.shared.phase import Phase

if TYPE_CHECKING:
    from cabinet.table.local import LocalTable
    from cabinet.table.remote import RemoteTable
    from firmware_bridge.link import LightLink


def ordinary_work() -> None:
    """For the busy child: ordinary work (the display's nice undone), on the core the
    display leaves to the table ("the other core")."""
    from cabinet.table.process import table_core

    os.nice(-os.nice(0))
    core = table_core()
    if core is not None:
        os.sched_setaffinity(0, {core})


def start_busy(cleanup: contextlib.ExitStack) -> None:
    """A process that keeps the other core busy (:func:`ordinary_work`) until the run
    ends."""
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"], preexec_fn=ordinary_work)

    def stop() -> None:
        busy.kill()
        busy.wait()

    cleanup.callback(stop)


def start_table_process(sock: str, port: str, cleanup: contextlib.ExitStack) -> RemoteTable:
    """The cabinet's design: the table process on mock pins that take presses from
    ``sock``, measuring its own delays and driving the LED board on ``port``; once ready,
    showing play's lights."""
    from cabinet.table.messages import LightsContext
    from cabinet.table.remote import RemoteTable

    table = RemoteTable(
        ["--input", "mock", "--press-socket", sock, "--measure", "--lights", port]
    ).start()
    cleanup.callback(table.stop)
    while not table.ready:
        table.wait(0.1)
        table.batches()
    table.lights(LightsContext(Phase.PLAY))
    return table


def note_decisions(table: RemoteTable, decided_at: dict[int, int]) -> None:
    """Have ``table`` note in ``decided_at`` when the table process decided each batch it
    hands over (by the batch's ``id``), from the reports' ``decided_ns``."""
    from cabinet.table.messages import Decided

    take = table._take

    def taking(report: Any, out: list[Any]) -> None:
        before = len(out)
        take(report, out)
        if isinstance(report, Decided) and len(out) > before:
            decided_at[id(out[-1])] = report.decided_ns

    table._take = taking  # type: ignore[method-assign]


def start_thread_table(
    sock: str,
    port: str,
    decided_at: dict[int, int],
    trace: list[tuple[int, int, int]],
    cleanup: contextlib.ExitStack,
) -> tuple[LocalTable, LightLink]:
    """The thread design: the referee on a thread of this process, on mock pins that take
    presses from ``sock`` (each press's way through the channel noted in ``trace``),
    noting in ``decided_at`` when it decided each batch (by the batch's ``id``); and this
    process's link to the LED board on ``port``."""
    from cabinet.inputs.mock import MockInput
    from cabinet.inputs.press_channel import PressChannel
    from cabinet.table.local import LocalTable
    from firmware_bridge.link import LightLink

    queue_ = EdgeQueue()
    mock = MockInput(queue_)
    mock.open()
    channel = PressChannel(Path(sock), mock, trace).start()
    cleanup.callback(channel.close)
    cleanup.callback(mock.close)
    table = LocalTable(queue_)
    assert table.thread is not None
    outbox = table.thread.outbox

    def on_events(batch: list[Any]) -> None:
        decided_at[id(batch)] = time.monotonic_ns()
        outbox.put(batch)

    table.thread._on_events = on_events
    table.start()
    cleanup.callback(table.stop)
    link = LightLink(port).start()
    cleanup.callback(link.stop)
    link.wait_for(lambda h: h.connected, 5)
    return table, link


def start_presser(sock: str, edges: int, seed: int, window_ms: float) -> subprocess.Popen[str]:
    """The presser process (``bench/presser.py``), sending ``edges`` edges to ``sock``."""
    return subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("presser.py")),
            sock,
            "--edges",
            str(edges),
            "--seed",
            str(seed),
            "--window-ms",
            str(window_ms),
        ],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
