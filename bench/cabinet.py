"""The whole cabinet's speed at 1920x1080, with either display backend. Prints JSON.

``--backend software`` (the default) draws on SDL's dummy video driver; ``--backend
texture`` on the GPU through SDL's offscreen driver (EGL; Mesa's llvmpipe where there is
no GPU: set ``GALLIUM_NOOP=1`` to leave the rasterizer out and time the main thread's
side alone). ``SDL_VIDEODRIVER`` chooses another driver (``x11`` under Xvfb).

- ``frame_ms``: one frame's work (:meth:`CabinetApp.step` plus the present) in
  attract (the CPU demo) and in play (a simulated person against the CPU), median / p99;
  ``uploaded_bytes_per_frame`` (median, p99) and ``draw_calls_per_frame`` (p99) in play
  after its first second, and ``main_thread_cpu_ms`` (p99, ``time.thread_time``) in
  play.
- ``attract_cpu_percent``: CPU use of the real threaded cabinet in attract at 60 fps.
- ``press_to_photon_ms``: from a slot press's ``t_ns`` (put on the input queue as a GPIO
  callback would) to the end of the first frame that shows it selected, p50 / p99.
- ``start_to_first_frame_s``: from starting a fresh Python process to its first attract
  frame; ``rss_mb``: the peak resident memory of both processes of ``spit-cabinet run``
  (the display's and the table's) after 10 s of attract, with ``both_processes`` (their
  CPU in attract, each one's memory).

Usage: ``python bench/cabinet.py [--seconds S] [--backend texture|software]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

# The video driver is chosen before pygame is imported: offscreen (EGL) for the texture
# backend, whose name argparse checks in main().
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen" if "texture" in sys.argv else "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import machine
from bench.gc_pauses import GcPauses
from bench.processes import cabinet_figures
from cabinet.display.app import CabinetApp
from cabinet.display.app_settings import AppSettings
from cabinet.display.flow import FlowSettings
from cabinet.display.frame_loop import FRAME_NS, run_frames
from cabinet.drawing.backend import DisplayBackend
from cabinet.drawing.gpu import Gpu, GpuError, open_window
from cabinet.drawing.software import SoftwareBackend
from cabinet.drawing.texture import TextureBackend
from cabinet.inputs.controls import Control
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from cabinet.shared.phase import Phase
from game.bots import level
from game.cpu_seat import CpuSeat
from game.edges import Button

SIZE = (1920, 1080)
BACKEND = "texture" if "texture" in sys.argv else "software"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 3),
        "p99": round(percentile(values, 0.99), 3),
        "n": len(values),
    }


def open_screen() -> DisplayBackend:
    pygame.display.init()
    pygame.font.init()
    if BACKEND == "software":
        return SoftwareBackend(pygame.display.set_mode(SIZE))
    try:
        return TextureBackend(Gpu(open_window(SIZE, fullscreen=False), vsync=False))
    except GpuError as exc:
        sys.exit(
            f"cabinet.py: the texture backend needs GLES (Debian: libegl1 libegl-mesa0 "
            f"libgles2 libgl1-mesa-dri): {exc}"
        )


class Person:
    """A simulated person at ``player``'s buttons: a CPU seat's choices, put on the
    input queue as raw button edges at their own times."""

    def __init__(self, app: CabinetApp, edges: EdgeQueue, player: int) -> None:
        self.app = app
        self.edges = edges
        self.player = player
        self.seat = CpuSeat(player, level(4), random.Random(player), ace_wraps=True)
        self.pending: list[tuple[int, Button]] = []
        self.match: object = None
        self.seen = 0

    def act(self, now: int) -> None:
        match = self.app.flow.match
        if match is None or self.app.flow.phase is not Phase.PLAY:
            return
        if match is not self.match:
            self.match = match
            self.seen = 0
            self.seat = CpuSeat(self.player, level(4), random.Random(now), ace_wraps=True)
        self.seat.observe(match.events[self.seen :], match.to_match(now))
        self.seen = len(match.events)
        look = self.seat.look_at
        if not self.pending and look is not None and match.to_abs(look) <= now:
            presses = self.seat.look(match.game, match.to_match(now))
            if presses:
                self.pending = [(match.to_abs(e.t_ns), e.button) for e in presses]
        while self.pending and self.pending[0][0] <= now:
            t, button = self.pending.pop(0)
            self.edges.put(RawEdge(Control(self.player, button), True, t))
            self.edges.put(RawEdge(Control(self.player, button), False, t + 60_000_000))


def frame_times(seconds: float) -> dict[str, dict[str, float]]:
    """Frame work in attract, then in play, on a virtual clock (no sleeping)."""
    screen = open_screen()
    now = [10**12]
    edges = EdgeQueue()
    settings = AppSettings(flow=FlowSettings(join_wait_s=1, idle_timeout_s=10**6))
    app = CabinetApp(screen, edges, settings, clock=lambda: now[0], threaded=False, seed=5)
    person = Person(app, edges, 0)
    results: dict[str, list[float]] = {"attract": [], "play": []}
    uploads: list[float] = []
    calls: list[float] = []
    cpu: list[float] = []
    quiet_play: list[float] = []
    frames = int(seconds * 60)
    with GcPauses() as pauses:
        for phase in ("attract", "play"):
            if phase == "play":
                edges.put(RawEdge(Control(0, Button.SLOT1), True, now[0]))
                edges.put(RawEdge(Control(0, Button.SLOT1), False, now[0] + 50_000_000))
            done = 0
            while done < frames:
                now[0] += FRAME_NS
                person.act(now[0])
                t0 = time.perf_counter()
                c0 = time.thread_time()
                collected = pauses.total
                app.present(app.step(now[0]))
                c1 = time.thread_time()
                spent = (time.perf_counter() - t0) * 1000
                # The time the frame leaves, as run_frames gives it (its wait; no sleeping
                # on this clock): the renderer's warm-up after the first frame. Not timed.
                app.wait(now[0], now[0])
                if phase == "attract" or app.flow.phase is Phase.PLAY:
                    results[phase].append(spent)
                    done += 1
                    if phase == "play" and pauses.total == collected:
                        quiet_play.append(spent)
                    if phase == "play" and done > 60:  # after the first second of play
                        counts = app.output.last_counts
                        uploads.append(counts.uploaded_bytes)
                        calls.append(counts.draw_calls)
                        cpu.append((c1 - c0) * 1000)
    pygame.display.quit()
    out: dict[str, object] = {"frame_ms": {k: summary(v) for k, v in results.items()}}
    out["uploaded_bytes_per_frame"] = {
        "median": statistics.median(uploads),
        "p99": percentile(uploads, 0.99),
    }
    out["draw_calls_per_frame"] = {"p99": percentile(calls, 0.99)}
    # The collector's share of the frames' tails: its pauses in attract and play, and the
    # play frames in which it did not run.
    out["gc"] = pauses.figures()
    out["play_frame_ms_without_gc"] = summary(quiet_play)
    out["main_thread_cpu_ms"] = {
        "median": round(statistics.median(cpu), 3),
        "p99": round(percentile(cpu, 0.99), 3),
    }
    return out


def live(seconds: float) -> dict[str, object]:
    """The real threaded cabinet at 60 fps: CPU use in attract, then press-to-photon."""
    screen = open_screen()
    edges = EdgeQueue()
    settings = AppSettings(flow=FlowSettings(join_wait_s=10**6, idle_timeout_s=10**6))
    app = CabinetApp(screen, edges, settings, seed=9)
    app.start()

    def run_for(duration_s: float, each: Callable[[int], None] | None = None) -> None:
        """The cabinet's own frame loop (as ``spit-cabinet run`` runs it)."""
        end = time.monotonic() + duration_s
        run_frames(app, lambda: time.monotonic() < end, each)

    run_for(1.0)  # warm up
    cpu0, wall0 = time.process_time(), time.monotonic()
    run_for(seconds)
    cpu_percent = 100 * (time.process_time() - cpu0) / (time.monotonic() - wall0)

    # Two people join; then one presses slot buttons at random moments from another
    # thread, as a GPIO callback would, and each press's first visible frame is timed.
    for player in (0, 1):
        t = time.monotonic_ns()
        edges.put(RawEdge(Control(player, Button.PILE1), True, t))
        edges.put(RawEdge(Control(player, Button.PILE1), False, t + 40_000_000))
        run_for(0.2)
    run_for(2.0)
    delays: list[float] = []
    pending: list[tuple[int, int]] = []
    stop = threading.Event()
    rng = random.Random(3)

    def presser() -> None:
        slot = 0
        while not stop.wait(rng.uniform(0.08, 0.2)):
            slot = (slot + 1) % 4
            t = time.monotonic_ns()
            pending.append((t, slot))
            edges.put(RawEdge(Control(0, Button.slot(slot)), True, t))
            edges.put(RawEdge(Control(0, Button.slot(slot)), False, t + 30_000_000))

    def seen(now: int) -> None:
        shown = {(i.player, i.index) for i in app.renderer.display_list if i.kind == "highlight"}
        while pending and (0, pending[0][1]) in shown:
            t, _ = pending.pop(0)
            delays.append((now - t) / 1e6)

    thread = threading.Thread(target=presser, daemon=True)
    thread.start()
    run_for(seconds, seen)
    stop.set()
    thread.join()
    app.stop()
    pygame.display.quit()
    return {
        "attract_cpu_percent": round(cpu_percent, 1),
        "press_to_photon_ms": summary(delays) if delays else None,
        "race_window_ms": settings.flow.rules.race_window_ms,
        "frame_ms_at_60fps": round(1000 / 60, 2),
    }


def child_start() -> None:
    """Run as a fresh process: print the time to the first attract frame, then RSS."""
    started = float(sys.argv[2])
    screen = open_screen()
    app = CabinetApp(screen, EdgeQueue(), AppSettings(), seed=1)
    app.start()
    app.present(app.step(time.monotonic_ns()))
    first = time.time() - started
    end = time.monotonic() + 10
    run_frames(app, lambda: time.monotonic() < end)
    app.stop()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"start_to_first_frame_s": round(first, 3), "rss_mb": round(rss_mb, 1)}))


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child-start":
        child_start()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--backend", choices=("software", "texture"), default="software")
    args = parser.parse_args()
    out: dict[str, object] = {"machine": machine(), "size": list(SIZE)}
    out["backend"] = args.backend
    out["video_driver"] = os.environ["SDL_VIDEODRIVER"]
    out["gallium_noop"] = os.environ.get("GALLIUM_NOOP") == "1"
    out.update(frame_times(args.seconds))
    out.update(live(args.seconds))
    done = subprocess.run(
        [sys.executable, __file__, "--child-start", repr(time.time()), "--backend", BACKEND],
        capture_output=True,
        text=True,
        check=True,
    )
    out.update(json.loads(done.stdout.strip().splitlines()[-1]))
    both = cabinet_figures(max(10.0, args.seconds), args.backend, os.environ["SDL_VIDEODRIVER"])
    out["rss_mb_one_process"] = out.pop("rss_mb")
    out["rss_mb"] = both["rss_mb_both_processes"]
    out["both_processes"] = both
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
