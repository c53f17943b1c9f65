"""Races and the race window: correctness in virtual time, delays under a render load.
Prints JSON.

- ``simulated``: races between the two players' pile presses, margins log-uniform from
  1 µs to 50 ms, each press delivered after a delay drawn uniformly from 0 to the race
  window. Each race goes through the switch filter, the feed and the referee (edges put
  on the queue as the gpio backend's callbacks do). Counts races decided wrongly (goal 0)
  and ties, and splits exact ties between the players.
- ``table`` (the cabinet's design: the table in a process of its own) and
  ``thread_design`` (before: the referee on a thread of the display process), run side
  by side: a *presser* process fires presses of both players' slot and pile buttons at
  random (on average an edge every 0.5 ms, so many close races), each stamped with the
  moment it was due, as the kernel stamps an edge, into the mock pins' press channel
  (:mod:`cabinet.inputs.press_channel`); the display draws the real play screen at 60 fps
  at 1920x1080, each frame's drawing done ``K`` times (K=4 stands for a Pi 4), through
  each display backend in turn (``backend``): ``software`` on SDL's dummy video driver,
  ``texture`` on its offscreen driver (EGL; Mesa's llvmpipe where there is no GPU: set
  ``GALLIUM_NOOP=1`` to leave the rasterizer out and time the main thread's side alone;
  the K drawings share one GPU renderer, presented once a frame, without vsync); a busy
  process saturates the other core; the LED board is the firmware simulator on a pty.
  Per design, backend and K: edges, late edges, the race window, the decision delay
  (press ``t_ns`` → the referee's decision), decision → LED snapshot written, press →
  photon (to the end of the present of the first frame showing the decision), the time
  a frame's drawing and present took, and how late the presser itself sent its edges (it
  stands in for the kernel, which is never late: what it adds is the machine's, not the
  table's), in ms, with the count it sent more than a race window late
  (``beyond_window``: late edges whatever the table does). A *stall monitor*, a small
  process where the table runs and at its priority (SCHED_FIFO on the table's core for
  the table process, the display's nice level for the thread design), sleeps 1 ms at a
  time and notes every wake-up more than ``--stall-ms`` late as a stall (``stalls``:
  how many, the longest in ms); ``late_edges_outside_stalls`` counts the late edges
  whose press-to-delivery span meets no stall widened by the race window on both sides:
  those the machine's stalls do not explain; ``late_edges_sent_late`` those the presser
  itself sent more than a race window late (late whatever the table does), and
  ``late_edges_unexplained`` those neither explains. ``edge_path`` (:mod:`edge_path`)
  splits every edge's way into its stages (sent late, to the table's
  press channel, through the pins, to the referee) and says for each late edge which one
  held it; ``photon_parts_ms`` splits press → photon into the decision, the way to the
  display (the report, and the display's loop busy or keeping the frames' least gap) and
  the drawing.
- ``cabinet``: ``spit-cabinet run`` as installed, headless: start to the first attract
  frame, CPU in attract and resident memory, both processes together.

Usage: ``python bench/races.py [--edges N] [--ks 1,4] [--backends software,texture]
[--designs process,thread] [--stall-ms 5] [--races N]``; prints one JSON object on
stdout. Where the texture backend cannot start (no GLES), says so in one line on stderr
and exits with status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from board_sim import ROOT
from machine_info import machine
from processes import cabinet_figures
from race_display import BACKENDS, check_texture_backend, no_gles
from race_sim import exact_ties, simulated_races

# Run from a checkout: import this repository's packages, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.rules import Rules, TieRule
from game.units import MS


def percentiles(values_ns: list[int]) -> dict[str, float]:
    if not values_ns:
        return {}
    v = sorted(values_ns)

    def at(q: float) -> float:
        return round(v[min(len(v) - 1, int(len(v) * q))] / MS, 3)

    return {
        "n": len(v),
        "p50": at(0.5),
        "p99": at(0.99),
        "p99.9": at(0.999),
        "p99.99": at(0.9999),
        "max": round(v[-1] / MS, 3),
    }


DISPLAY_NICE = -10
"""The display's nice level, as the systemd unit sets it."""


def live_run(
    design: str, backend: str, k: int, edges: int, rules: Rules, seed: int, stall_ns: int
) -> dict[str, Any]:
    """One live run (:func:`live_run.measure`, which says what the arguments are) as a row
    of the JSON: its counts, and its delays as percentiles in ms."""
    # Imported here: the presser imports this module (for percentiles), not the live run.
    from live_run import measure

    run = measure(design, backend, k, edges, rules, seed, stall_ns)
    table = run.table
    return {
        "design": design,
        "backend": backend,
        "display": run.display,
        "k": k,
        "edges": table.edges,
        "late_edges": table.late_edges,
        "late_edges_outside_stalls": table.late_edges - run.late_in_stalls,
        "late_edges_sent_late": run.late_sent_late,
        "late_edges_unexplained": run.late_unexplained,
        "stalls": {
            "count": len(run.stalls),
            "longest_ms": round(max((woke - due for due, woke in run.stalls), default=0) / MS, 3),
        },
        "race_window_ms": rules.race_window_ms,
        "games": run.games,
        "frames": run.frames,
        "delivery_ms": percentiles([d - t for t, d in table.deliveries_ns]),
        "decision_ms": percentiles(table.decision_ns),
        "led_ms": percentiles(table.led_ns),
        "photon_ms": percentiles(run.photon_ns),
        "photon_parts_ms": {part: percentiles(ns) for part, ns in run.photon_parts_ns.items()},
        "draw_ms": percentiles(run.draw_ns),
        "presser_lateness_ms": run.presser_lateness,
        "edge_path": run.edge_path,
    }


def live_runs(
    args: argparse.Namespace, backends: list[str], rules: Rules, stall_ns: int
) -> dict[str, list[dict[str, Any]]]:
    """Every live run ``args`` ask for (each design, backend and K), by design; each
    backend's runs together, one video driver at a time. Exits with status 2 where the
    texture backend cannot start."""
    from cabinet.drawing.gpu import GpuError

    ks = [int(k) for k in args.ks.split(",") if k]
    designs = [d for d in args.designs.split(",") if d]
    windows = {"process": rules, "thread": Rules(race_window_ms=args.thread_window_ms)}
    runs: dict[str, list[dict[str, Any]]] = {d: [] for d in designs}
    try:
        for b in backends:  # one video driver at a time: each backend's runs together
            for d in designs:
                for k in ks:
                    row = live_run(d, b, k, args.edges, windows[d], args.seed, stall_ns)
                    runs[d].append(row)
    except GpuError as exc:
        no_gles(exc)
    return runs


def arguments() -> argparse.ArgumentParser:
    """The command line's parser."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=100_000)
    parser.add_argument("--ties", type=int, default=10_000)
    parser.add_argument("--edges", type=int, default=100_000, help="edges per live run")
    parser.add_argument("--ks", default="1,4", help="drawing repeats per frame, comma-separated")
    parser.add_argument("--designs", default="process,thread")
    parser.add_argument(
        "--backends", default=",".join(BACKENDS), help="display backends, comma-separated"
    )
    parser.add_argument(
        "--stall-ms", type=float, default=5.0, help="a wake-up this late is a stall"
    )
    parser.add_argument("--window-ms", type=float, help="race window (default: the rules')")
    parser.add_argument(
        "--thread-window-ms",
        type=float,
        default=8.0,
        help="the thread design's race window (its own default before the table process)",
    )
    parser.add_argument("--cabinet-seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    return parser


def main(argv: list[str] | None = None) -> None:
    parser = arguments()
    args = parser.parse_args(argv)
    os.chdir(ROOT)  # child processes import this checkout's packages (not bench/cabinet.py)
    rules = Rules() if args.window_ms is None else Rules(race_window_ms=args.window_ms)
    stall_ns = round(args.stall_ms * MS)
    backends = [b for b in args.backends.split(",") if b]
    for b in backends:
        if b not in BACKENDS:
            parser.error(f"--backends: {b!r} is none of {', '.join(BACKENDS)}")
    if "texture" in backends:
        check_texture_backend()
    # As the cabinet's unit does (Nice=-10): the display ahead of the busy process. The
    # table process asks for real-time priority itself; the thread design gets this too.
    with contextlib.suppress(PermissionError):
        os.nice(DISPLAY_NICE)
    from cabinet.table.process import leave_table_core

    leave_table_core()  # as spit-cabinet run does
    out: dict[str, Any] = {"machine": machine()}
    out["gallium_noop"] = os.environ.get("GALLIUM_NOOP") == "1"
    out["simulated"] = simulated_races(args.races, rules, seed=1)
    out["exact_ties"] = {
        rule.value: dict(zip(("player1", "player2"), exact_ties(args.ties, rule, 7), strict=True))
        for rule in TieRule
    }
    runs = live_runs(args, backends, rules, stall_ns)
    out["table"] = runs.get("process", [])
    out["thread_design"] = runs.get("thread", [])
    out["cabinet"] = [cabinet_figures(args.cabinet_seconds, backend) for backend in backends]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
