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
  those the machine's stalls do not explain.
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
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from board_sim import ROOT, simulated_board
from machine_info import machine
from processes import VIDEO_DRIVERS, cabinet_figures
from race_sim import exact_ties, simulated_races
from stalls import in_stalls, start_stall_monitor, stop_stall_monitor

# Run from a checkout: import this repository's packages, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # after choosing the video driver above

from cabinet.inputs.edge_queue import EdgeQueue
from game.events import Played, Selected
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

# -- the display, drawn through one backend ---------------------------------------------

SCREEN = (1920, 1080)
BACKENDS = ("software", "texture")


def use_video_driver(backend: str) -> None:
    """(Re)open pygame's display on ``backend``'s video driver."""
    pygame.display.quit()
    os.environ["SDL_VIDEODRIVER"] = VIDEO_DRIVERS[backend]
    pygame.display.init()


def open_backends(backend: str, k: int, cleanup: contextlib.ExitStack) -> list[Any]:
    """``k`` display backends of kind ``backend``, the first drawing onto the screen: for
    the texture backend they share one GPU renderer (its drawings done ``k`` times, one
    present), for the software backend the others draw onto surfaces of their own.
    Raises :class:`~cabinet.drawing.gpu.GpuError` where there is no GLES."""
    from cabinet.drawing.software import SoftwareBackend

    use_video_driver(backend)
    if backend == "texture":
        from cabinet.drawing.gpu import Gpu, open_window
        from cabinet.drawing.texture import TextureBackend

        window = open_window(SCREEN, fullscreen=False, hidden=True)
        cleanup.callback(window.destroy)
        gpu = Gpu(window, vsync=False)
        cleanup.callback(gpu.close)
        return [TextureBackend(gpu) for _ in range(k)]
    screen = pygame.display.set_mode(SCREEN)
    return [SoftwareBackend(screen if i == 0 else pygame.Surface(SCREEN)) for i in range(k)]


def no_gles(exc: Exception) -> None:
    """Say the texture backend cannot start, in one line, and exit with status 2."""
    print(
        "races.py: the texture backend needs GLES (Debian: libegl-mesa0 libgles2 "
        f"libgl1-mesa-dri): {exc}",
        file=sys.stderr,
    )
    sys.exit(2)


def check_texture_backend() -> None:
    """Open the texture backend once before any run, to fail at once without GLES."""
    from cabinet.drawing.gpu import GpuError

    try:
        with contextlib.ExitStack() as cleanup:
            open_backends("texture", 1, cleanup)
    except (GpuError, pygame.error) as exc:
        no_gles(exc)
    finally:
        pygame.display.quit()


def live_run(
    design: str, backend: str, k: int, edges: int, rules: Rules, seed: int, stall_ns: int
) -> dict[str, Any]:
    """One run: ``design`` is ``process`` (the table process) or ``thread`` (the old
    design: the referee on a thread of this, the display, process); the display draws
    through ``backend`` (``software`` or ``texture``); wake-ups ``stall_ns`` late are
    stalls."""
    with contextlib.ExitStack() as cleanup:  # every process it starts ends with it
        return _live_run(design, backend, k, edges, rules, seed, stall_ns, cleanup)


def ordinary_work() -> None:
    """For the busy child: ordinary work (the display's nice undone), on the core the
    display leaves to the table ("the other core")."""
    from cabinet.table.process import table_core

    os.nice(-os.nice(0))
    core = table_core()
    if core is not None:
        os.sched_setaffinity(0, {core})


def _live_run(
    design: str,
    backend: str,
    k: int,
    edges: int,
    rules: Rules,
    seed: int,
    stall_ns: int,
    cleanup: contextlib.ExitStack,
) -> dict[str, Any]:
    from cabinet.display.frame_loop import FRAME_NS, MIN_FRAME_GAP_NS
    from cabinet.drawing.geometry import Orientation
    from cabinet.drawing.renderer import Renderer
    from cabinet.drawing.views import TableLabels, table_view
    from cabinet.i18n import font_path
    from cabinet.shared.light_show import lights_for
    from cabinet.shared.phase import Phase
    from cabinet.table.local import LocalTable
    from cabinet.table.messages import LightsContext
    from cabinet.table.remote import RemoteTable
    from firmware_bridge.link import LightLink
    from game.events import Event, LateEdge, Rejected

    tmp = tempfile.mkdtemp(prefix="spit-bench-")
    sock = os.path.join(tmp, "presses.sock")
    port = cleanup.enter_context(simulated_board())
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"], preexec_fn=ordinary_work)
    cleanup.callback(lambda: (busy.kill(), busy.wait()))
    decided_at: dict[int, int] = {}
    decision_ns: list[int] = []
    led_ns: list[int] = []
    matches: list[Any] = []
    link: LightLink | None = None
    table: Any
    if design == "process":
        table = RemoteTable(
            ["--input", "mock", "--press-socket", sock, "--measure", "--lights", port]
        ).start()
        cleanup.callback(table.stop)
        while not table.ready:
            table.wait(0.1)
            table.batches()
        table.lights(LightsContext(Phase.PLAY))
    else:
        from cabinet.inputs.mock import MockInput
        from cabinet.inputs.press_channel import PressChannel

        queue_ = EdgeQueue()
        mock = MockInput(queue_)
        mock.open()
        channel = PressChannel(Path(sock), mock).start()
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
    pygame.font.init()
    # K renderers, each doing a real frame's drawing (the first onto the screen): the
    # drawing done K times a frame.
    renderers = [
        Renderer(b, Orientation.UPRIGHT, font_path(), lights_strip=False)
        for b in open_backends(backend, k, cleanup)
    ]
    screen = renderers[0].backend
    gc.collect()
    gc.freeze()  # as the cabinet does once it has started: start-up objects never scanned
    labels = TableLabels(("PLAYER 1", "PLAYER 2"), "STUCK")
    shown: Any = None

    def new_game() -> Any:
        table.play_onto(None)
        match = table.new_match(rules, seed + len(matches), (None, None), time.monotonic_ns())
        if design == "thread":
            table.play_onto(match)
        matches.append(match)
        return match

    match = new_game()
    # Where the table runs, at its priority: the table process's, or (the thread design)
    # this process's, whose thread the referee is.
    monitor = start_stall_monitor(stall_ns, design == "process", cleanup)
    press_proc = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("presser.py")),
            sock,
            "--edges",
            str(edges),
            "--seed",
            str(seed),
            "--window-ms",
            str(rules.race_window_ms),
        ],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    photon_ns: list[int] = []
    waiting: list[int] = []  # press times decided, not yet on screen
    next_frame = time.monotonic_ns()
    frames = 0
    quiet_since: int | None = None
    draw_ns: list[int] = []
    while True:
        frame_start = time.monotonic_ns()
        for batch in table.batches():
            now = time.monotonic_ns()
            decided = decided_at.pop(id(batch), now)
            start = match.start_abs_ns
            game_events = [e for e in batch if isinstance(e, Event)]
            for renderer in renderers:
                renderer.feed(game_events)
            for e in batch:
                if isinstance(e, Selected | Played | Rejected):
                    waiting.append(start + e.t_ns)
                    if design == "thread":
                        decision_ns.append(decided - (start + e.t_ns))
            if design == "thread" and any(isinstance(e, Event) for e in batch) and link:
                with table.hold():
                    state = match.state()
                lights = lights_for(Phase.PLAY, state, countdown=False)
                if lights != shown:
                    shown = lights
                    link.show(lights)
                    led_ns.append(time.monotonic_ns() - decided)
        with table.hold():
            state = match.state()
        if state.over:
            match = new_game()
            for renderer in renderers:
                renderer.reset_animations()
        view = table_view(state, labels)
        drawing = time.monotonic_ns()
        drawn = [renderer.draw(view, match.to_match(time.monotonic_ns())) for renderer in renderers]
        screen.present(drawn[0])
        frames += 1
        shown_at = time.monotonic_ns()
        draw_ns.append(shown_at - drawing)
        photon_ns.extend(shown_at - t for t in waiting)
        waiting.clear()
        if press_proc.poll() is not None:
            quiet_since = quiet_since or shown_at
            if shown_at - quiet_since > 200 * MS:
                break
        # As the cabinet's frame loop (cabinet.display.frame_loop): the next 60 Hz frame, or
        # at once when something is decided, but at most every MIN_FRAME_GAP_NS.
        if frame_start >= next_frame:
            next_frame += FRAME_NS
            if next_frame <= frame_start:
                next_frame = frame_start + FRAME_NS
        if table.wait((next_frame - time.monotonic_ns()) / 1e9):
            time.sleep(max(0.0, (frame_start + MIN_FRAME_GAP_NS - time.monotonic_ns()) / 1e9))
    stalls = stop_stall_monitor(monitor)
    if design == "process":
        table.request_measurements()
        while not table.status.measurements:
            table.wait(0.5)
            table.batches()
        m = table.status.measurements[-1]
        decision_ns, led_ns, delivery_ns = m.decision_ns, m.led_ns, m.delivery_ns
        taken, late = m.edges, m.late_edges
    else:
        delivery_ns = [e.delivered_ns - e.t_ns for x in matches for e in x.referee.stats.edge_log]
        taken = sum(len(x.referee.stats.edge_log) for x in matches)
        late = sum(x.referee.stats.late_edges for x in matches)
    # Each late edge's press and delivery (the referee's LateEdge notices), on the clock.
    late_spans = [
        (x.start_abs_ns + e.t_ns, x.start_abs_ns + e.delivered_ns)
        for x in matches
        for e in x.events
        if isinstance(e, LateEdge)
    ]
    explained = min(late, in_stalls(late_spans, stalls, rules.race_window_ns))
    describe = screen.describe
    _, said = press_proc.communicate()
    cleanup.close()
    pygame.display.quit()
    return {
        "design": design,
        "backend": backend,
        "display": describe,
        "k": k,
        "edges": taken,
        "late_edges": late,
        "late_edges_outside_stalls": late - explained,
        "stalls": {
            "count": len(stalls),
            "longest_ms": round(max((woke - due for due, woke in stalls), default=0) / MS, 3),
        },
        "race_window_ms": rules.race_window_ms,
        "games": len(matches),
        "frames": frames,
        "delivery_ms": percentiles(delivery_ns),
        "decision_ms": percentiles(decision_ns),
        "led_ms": percentiles(led_ns),
        "photon_ms": percentiles(photon_ns),
        "draw_ms": percentiles(draw_ns),
        "presser_lateness_ms": json.loads(said.strip().splitlines()[-1]),
    }


def main(argv: list[str] | None = None) -> None:
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
    ks = [int(k) for k in args.ks.split(",") if k]
    designs = [d for d in args.designs.split(",") if d]
    windows = {"process": rules, "thread": Rules(race_window_ms=args.thread_window_ms)}
    from cabinet.drawing.gpu import GpuError

    runs: dict[str, list[dict[str, Any]]] = {d: [] for d in designs}
    try:
        for b in backends:  # one video driver at a time: each backend's runs together
            for d in designs:
                for k in ks:
                    row = live_run(d, b, k, args.edges, windows[d], args.seed, stall_ns)
                    runs[d].append(row)
    except GpuError as exc:
        no_gles(exc)
    out["table"] = runs.get("process", [])
    out["thread_design"] = runs.get("thread", [])
    out["cabinet"] = [cabinet_figures(args.cabinet_seconds, backend) for backend in backends]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
