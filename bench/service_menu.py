"""How long the service menu takes to draw a page and to save on leaving, as JSON.

A page is repainted whole when it changes (a key press), never otherwise; this measures
that repaint at 1280x720 and 1920x1080 (first with a cold text cache, then warm), and
``CabinetStore.save`` (settings and audits in one fsynced transaction) on leaving.

    python bench/service_menu.py
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame

from cabinet.i18n import font_path
from cabinet.service.draw import MenuRenderer
from cabinet.service.screen import MenuScreen, Row
from cabinet.storage.setting_table import VOLUME
from cabinet.storage.store import CabinetStore

REPEATS = 200


def page(cursor: int) -> MenuScreen:
    rows = tuple(Row(f"Setting number {i}", f"{i * 10} ms") for i in range(13))
    return MenuScreen("Game settings", rows, cursor, "Slot 1/2: up/down · TEST: select", "A note")


def draw_ms(size: tuple[int, int]) -> dict[str, float]:
    surface = pygame.Surface(size)
    renderer = MenuRenderer(surface, font_path())
    t = time.perf_counter()
    renderer.draw(page(0))
    cold = (time.perf_counter() - t) * 1e3
    times = []
    for i in range(REPEATS):
        t = time.perf_counter()
        renderer.draw(page(1 + i % 12))
        times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    return {
        "cold_ms": round(cold, 2),
        "median_ms": round(statistics.median(times), 3),
        "p99_ms": round(times[int(len(times) * 0.99) - 1], 3),
    }


def save_ms() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as directory:
        store = CabinetStore.open(Path(directory))
        times = []
        for i in range(50):
            store.settings.set(VOLUME, 50 + i % 40)
            t = time.perf_counter()
            store.save(time.monotonic_ns())
            times.append((time.perf_counter() - t) * 1e3)
        store.close()
    times.sort()
    return {"median_ms": round(statistics.median(times), 2), "max_ms": round(times[-1], 2)}


def main() -> None:
    pygame.display.init()
    pygame.font.init()
    out = {
        "draw_1280x720": draw_ms((1280, 720)),
        "draw_1920x1080": draw_ms((1920, 1080)),
        "save_on_leaving": save_ms(),
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
