"""Display benchmark: frame time at 1920×1080 with SDL's dummy video driver, in attract (a
CPU-vs-CPU game replayed in virtual time at 60 fps, prompt and how-to card over it, the
on-screen lights strip) and in play (the same games as a plain table), in both
orientations; and the CPU use of attract run in real time at 60 fps. Prints one JSON
document.

A frame is what the main loop will do each tick: advance the referee to the frame's time,
build the view, feed the events to the renderer, draw, and ``pygame.display.update`` the
dirty rectangles.

    python bench/display.py [--games 3] [--cpu-seconds 10]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from machine_info import machine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from cabinet.drawing.geometry import Orientation
from cabinet.drawing.renderer import Renderer
from cabinet.drawing.replayer import MatchPlayer
from cabinet.drawing.views import AttractView, TableLabels, View, table_view
from firmware_bridge.lights import GREEN, Light, LightState
from game.bots import level
from game.cpu_match import play_cpu_game
from game.record import MatchRecord
from game.table_state import TableState

FRAME_NS = 1_000_000_000 // 60
SIZE = (1920, 1080)
LABELS = TableLabels(("PLAYER 1", "PLAYER 2"), "STUCK")
HOWTO = "Play a card one above or below a pile's top card.\nFirst to play all your cards wins!"
LIGHTS = LightState.all_off().with_lights(spit=Light.pulse(1200, GREEN))


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Scene:
    """Recorded games played back one frame at a time through a renderer."""

    def __init__(self, renderer: Renderer, records: list[MatchRecord], attract: bool) -> None:
        self.renderer = renderer
        self.records = records
        self.attract = attract
        self.game = 0
        self.player = MatchPlayer(records[0])
        self.t0 = 0

    def frame(self, now_ns: int) -> int:
        """One frame at ``now_ns``; returns the number of dirty rectangles updated."""
        if self.player.finished and now_ns - self.t0 > self.player.end_ns + 2_000_000_000:
            self.game = (self.game + 1) % len(self.records)
            self.player = MatchPlayer(self.records[self.game])
            self.t0 = now_ns
            self.renderer.reset_animations()
        t = now_ns - self.t0
        renderer = self.renderer
        renderer.feed(self.player.advance(t))
        table = table_view(TableState.of(self.player.referee), LABELS, lights=LIGHTS)
        view: View = AttractView(table, "PRESS ANY BUTTON", HOWTO) if self.attract else table
        rects = renderer.draw(view, t)
        if rects:
            pygame.display.update(rects)
        return len(rects)


def frame_times(
    screen: pygame.Surface, orientation: Orientation, records: list[MatchRecord], attract: bool
) -> dict[str, object]:
    """Every frame of the games, back to back in virtual time (no sleeping)."""
    renderer = Renderer(screen, orientation, lights_strip=attract)
    scene = Scene(renderer, records, attract)
    total_ns = sum(r.clock_end_ns for r in records)
    samples: list[float] = []
    painted = 0
    now = 0
    while now < total_ns:
        start = time.perf_counter_ns()
        painted += scene.frame(now) > 0
        samples.append((time.perf_counter_ns() - start) / 1e6)
        now += FRAME_NS
    return {
        "frames": len(samples),
        "frames_repainted": painted,
        "median_ms": round(pct(samples, 0.5), 3),
        "p99_ms": round(pct(samples, 0.99), 3),
        "max_ms": round(max(samples), 3),
        "card_cache": {"hits": renderer.art.hits, "misses": renderer.art.misses},
    }


def cpu_use(
    screen: pygame.Surface, records: list[MatchRecord], seconds: float
) -> dict[str, object]:
    """Attract in real time at 60 fps, sleeping between frames: share of one core used."""
    renderer = Renderer(screen, Orientation.UPRIGHT, lights_strip=True)
    scene = Scene(renderer, records, attract=True)
    frames = int(seconds * 60)
    wall0, cpu0 = time.monotonic_ns(), time.process_time_ns()
    late = 0
    for k in range(frames):
        due = wall0 + k * FRAME_NS
        scene.frame(k * FRAME_NS)
        wait = due + FRAME_NS - time.monotonic_ns()
        if wait > 0:
            time.sleep(wait / 1e9)
        else:
            late += 1
    wall = time.monotonic_ns() - wall0
    cpu = time.process_time_ns() - cpu0
    return {
        "seconds": round(wall / 1e9, 2),
        "frames": frames,
        "late_frames": late,
        "cpu_percent_of_one_core": round(100 * cpu / wall, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--cpu-seconds", type=float, default=10.0)
    args = parser.parse_args()
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(SIZE)
    records = [play_cpu_game(seed, (level(4), level(4))).record for seed in range(args.games)]
    start = time.perf_counter()
    Renderer(screen, Orientation.COCKTAIL)
    set_up_s = time.perf_counter() - start
    result: dict[str, object] = {
        "machine": machine(),
        "resolution": f"{SIZE[0]}x{SIZE[1]}",
        "renderer_set_up_with_warm_cards_s": round(set_up_s, 3),
    }
    for orientation in Orientation:
        for attract in (True, False):
            name = f"{'attract' if attract else 'play'}_{orientation.value}"
            result[name] = frame_times(screen, orientation, records, attract)
    result["attract_cpu_at_60fps"] = cpu_use(screen, records, args.cpu_seconds)
    result["goals"] = {"median_ms": 3.0, "p99_ms": 8.0, "cpu_percent_of_one_core": 20.0}
    print(json.dumps(result, indent=2))
    pygame.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
