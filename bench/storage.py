"""Storage costs: opening the database (with 200 stored games), one game's
``record_game`` transaction (record, audits, pruning, fsync), and leaving the menu
(``save``: settings and audits). Prints one JSON document.

    python bench/storage.py [--games 200] [--dir DIR]

``--dir`` chooses the file system measured (default: a temporary directory); on the Pi,
point it at the SD card the cabinet uses.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from cabinet.storage.setting_table import VOLUME
from cabinet.storage.store import CabinetStore
from game.bots import level
from game.cpu_match import play_cpu_game


def cpu_model() -> str:
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        lines = []
    for key in ("model name", "hardware", "model"):  # x86, then the Pi's names
        for line in lines:
            if line.lower().startswith(key):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 3),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    games = [play_cpu_game(seed, (level(3), level(4))) for seed in range(10)]
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        data = Path(tmp)
        store = CabinetStore.open(data)
        records: list[float] = []
        for i in range(args.games):
            game = games[i % len(games)]
            t = time.perf_counter()
            store.record_game(game.record, game.summary, now_ns=time.monotonic_ns())
            records.append(time.perf_counter() - t)
        saves: list[float] = []
        for i in range(50):
            store.settings.set(VOLUME, i)
            t = time.perf_counter()
            store.save(now_ns=time.monotonic_ns())
            saves.append(time.perf_counter() - t)
        store.close()
        opens: list[float] = []
        for _ in range(10):
            t = time.perf_counter()
            CabinetStore.open(data).close()
            opens.append(time.perf_counter() - t)
        size = sum(p.stat().st_size for p in data.iterdir())
    print(
        json.dumps(
            {
                "machine": {"nproc": os.cpu_count(), "cpu": cpu_model()},
                "python": platform.python_version(),
                "games_stored": args.games,
                "mean_record_kb": round(
                    sum(len(g.record.dumps()) for g in games) / len(games) / 1024, 1
                ),
                "record_game": ms(records),
                "save_on_menu_exit": ms(saves),
                "open_with_games": ms(opens),
                "data_dir_bytes": size,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
