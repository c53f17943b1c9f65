"""Money's costs. Prints one JSON document.

- ``coin_to_screen_ms``: the real threaded cabinet at 60 fps (SDL's dummy driver,
  1920x1080) with a store on disk and coin 1 on a gpiozero mock pin; a thread inserts
  coins as timed pulses (60 ms low), and each is timed from the pulse's end (the release
  edge's timestamp, when the coin is known) to the end of the first frame that shows its
  credit (``CREDITS n``), p50 / p99.
- ``coin_commit_ms``: one coin's transaction (the money counts and the audits, fsynced:
  ``synchronous=FULL`` in WAL mode), median / p99 / max, through the keeper's own path.

    python bench/money.py [--coins 90] [--commits 300] [--dir DIR]

``--dir`` chooses the file system the database is on (default: a temporary directory);
on the Pi, point it at the SD card the cabinet uses.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine_info import machine
from cabinet.display.app import CabinetApp
from cabinet.display.app_settings import AppSettings
from cabinet.display.frame_loop import run_frames
from cabinet.display.parts import CabinetParts
from cabinet.inputs.controls import COIN1
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.mock import MockInput
from cabinet.money.coins import Coin
from cabinet.money.keeper import MoneyKeeper
from cabinet.storage.pricing_settings import FREE_PLAY, MAX_CREDITS
from cabinet.storage.store import CabinetStore
from game.units import MS

SIZE = (1920, 1080)


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 3),
        "p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 3),
        "max": round(ordered[-1], 3),
        "n": len(ordered),
    }


def paid_store(directory: Path) -> CabinetStore:
    store = CabinetStore.open(directory)
    store.settings.set(FREE_PLAY, False)
    store.settings.set(MAX_CREDITS, 99)
    store.save_settings()
    return store


def coin_to_screen(directory: Path, coins: int) -> dict[str, object]:
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode(SIZE)
    store = paid_store(directory)
    edges = EdgeQueue()
    mock = MockInput(edges)
    mock.open()
    settings = AppSettings.from_stored(store.settings)
    app = CabinetApp(screen, edges, settings, CabinetParts(store=store), seed=5)
    app.start()
    ends: list[int] = []  # each coin's pulse end, in insertion order
    delays: list[float] = []
    rng = random.Random(4)
    done = threading.Event()

    def insert() -> None:
        time.sleep(1.0)
        for _ in range(coins):
            t = time.monotonic_ns()
            mock.press(COIN1, t)
            time.sleep(0.06)
            end = time.monotonic_ns()
            ends.append(end)
            mock.release(COIN1, end)
            time.sleep(rng.uniform(0.1, 0.3))
        time.sleep(0.5)
        done.set()

    def seen(now: int) -> None:
        shown = [i.text or "" for i in app.renderer.display_list if i.kind == "credits"]
        if not shown:
            return
        credits = int(shown[0].split()[1])
        while len(delays) < min(credits, len(ends)):
            delays.append((now - ends[len(delays)]) / MS)

    thread = threading.Thread(target=insert, daemon=True)
    thread.start()
    run_frames(app, lambda: not done.is_set(), seen)
    thread.join()
    app.stop()
    mock.close()
    assert app.money is not None
    credited = app.money.ledger.credits
    store.close()
    pygame.display.quit()
    return {
        "coin_to_screen_ms": summary(delays),
        "coins": coins,
        "credited": credited,
        "frame_ms_at_60fps": round(1000 / 60, 2),
    }


def commits(directory: Path, n: int) -> dict[str, object]:
    store = paid_store(directory)
    keeper = MoneyKeeper(store)
    samples: list[float] = []
    for k in range(n):
        start = time.perf_counter()
        keeper._coin(Coin(1, 10**12 + k * 200 * MS, 60 * MS))
        samples.append((time.perf_counter() - start) * 1000)
        if keeper.credits >= 90:
            keeper.clear_credits()
    store.close()
    return {"coin_commit_ms": summary(samples)}


def file_system(directory: Path) -> str:
    try:
        found = subprocess.run(
            ["stat", "-f", "-c", "%T", str(directory)], capture_output=True, text=True
        )
        return found.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--coins", type=int, default=90)
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    result: dict[str, object] = {"machine": machine()}
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        result["file_system"] = file_system(Path(tmp))
        (Path(tmp) / "commits").mkdir()
        result.update(commits(Path(tmp) / "commits", args.commits))
        (Path(tmp) / "screen").mkdir()
        result.update(coin_to_screen(Path(tmp) / "screen", args.coins))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
