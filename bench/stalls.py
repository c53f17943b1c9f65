"""The stall monitor: a small process where the table runs and at its priority, sleeping
1 ms at a time and noting every wake-up more than a threshold late (the machine's stalls,
which no table can help). ``bench/races.py`` starts one per live run; run alone,
``python bench/stalls.py --stall-ms 5 [--stall-realtime]`` watches until its stdin closes
and prints the stalls as JSON."""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import select
import subprocess
import sys
import time
from pathlib import Path

from board_sim import ROOT

# Run from a checkout: import this repository's packages, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.units import MS

STALL_TICK_NS = 1 * MS
"""The stall monitor sleeps this long at a time."""


def stall_monitor(threshold_ns: int, realtime: bool) -> None:
    """The stall monitor process: sleeps :data:`STALL_TICK_NS` at a time until its stdin
    closes, then prints every wake-up more than ``threshold_ns`` late as a stall
    ``[due, woke]`` (CLOCK_MONOTONIC ns), a JSON list. With ``realtime``, it asks for
    what the table process asks for (SCHED_FIFO at the table's priority, on its core),
    else it runs as started (the display's nice level: the thread design's referee)."""
    if realtime:
        from cabinet.table.process import become_realtime, take_core

        become_realtime()
        take_core()
    gc.disable()
    stalls: list[tuple[int, int]] = []
    print("ready", flush=True)
    stdin = sys.stdin.fileno()
    while True:
        due = time.monotonic_ns() + STALL_TICK_NS
        ready, _, _ = select.select([stdin], [], [], STALL_TICK_NS / 1e9)
        woke = time.monotonic_ns()
        if woke - due > threshold_ns:
            stalls.append((due, woke))
        if ready:  # the bench closed its end: the run is over
            break
    print(json.dumps(stalls), flush=True)


def start_stall_monitor(
    threshold_ns: int, realtime: bool, cleanup: contextlib.ExitStack
) -> subprocess.Popen[str]:
    """Start :func:`stall_monitor` in a process and wait until it watches."""
    command = [sys.executable, __file__, "--stall-ms", str(threshold_ns / MS)]
    monitor = subprocess.Popen(
        [*command, *(["--stall-realtime"] if realtime else [])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
        text=True,
    )
    cleanup.callback(lambda: (monitor.kill(), monitor.wait()))
    assert monitor.stdout is not None
    if monitor.stdout.readline().strip() != "ready":
        raise RuntimeError("the stall monitor did not start")
    return monitor


def stop_stall_monitor(monitor: subprocess.Popen[str]) -> list[tuple[int, int]]:
    """The stalls the monitor saw, once told the run is over."""
    said, _ = monitor.communicate(timeout=30)
    return [(due, woke) for due, woke in json.loads(said.strip().splitlines()[-1])]


def in_stalls(spans: list[tuple[int, int]], stalls: list[tuple[int, int]], widen_ns: int) -> int:
    """How many ``spans`` (an edge's ``t_ns`` to its delivery) meet a stall widened by
    ``widen_ns`` on both sides."""
    return sum(
        any(t <= woke + widen_ns and delivered >= due - widen_ns for due, woke in stalls)
        for t, delivered in spans
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stall-ms", type=float, default=5.0)
    parser.add_argument("--stall-realtime", action="store_true")
    args = parser.parse_args(argv)
    stall_monitor(round(args.stall_ms * MS), args.stall_realtime)


if __name__ == "__main__":
    main()
