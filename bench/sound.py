"""Sound and language start-up costs: rendering every effect, opening the board on SDL's
dummy audio driver, loading the six catalogs, and one translate() call. Prints one JSON
document.

    python bench/sound.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from cabinet.i18n import LANGUAGES, Translator, load_catalog
from cabinet.sound import EFFECTS, SoundBoard, render


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def best_ms(work: object, repeats: int) -> float:
    """Fastest of ``repeats`` runs of the callable ``work``, in milliseconds."""
    assert callable(work)
    times = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        work()
        times.append((time.perf_counter_ns() - start) / 1e6)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    per_effect = {
        name: round(best_ms(lambda n=name: render(n), args.repeats), 2) for name in EFFECTS
    }
    render_all_22k = best_ms(lambda: [render(n, 22_050) for n in EFFECTS], args.repeats)
    render_all_44k = best_ms(lambda: [render(n, 44_100) for n in EFFECTS], args.repeats)

    def open_board() -> None:
        SoundBoard.open().close()

    open_ms = best_ms(open_board, args.repeats)

    start = time.perf_counter_ns()
    for language in LANGUAGES:
        load_catalog(language)
    catalogs_ms = (time.perf_counter_ns() - start) / 1e6
    tr = Translator("fi")
    n = 10_000
    start = time.perf_counter_ns()
    for i in range(n):
        tr.t("gameover.cards_left", count=i)
    translate_us = (time.perf_counter_ns() - start) / 1e3 / n

    print(
        json.dumps(
            {
                "machine": {
                    "cpus": os.cpu_count(),
                    "cpu_model": cpu_model(),
                    "python": platform.python_version(),
                    "pygame": pygame.version.ver,
                },
                "render_ms_per_effect_22050_hz": per_effect,
                "render_all_ms_22050_hz": round(render_all_22k, 1),
                "render_all_ms_44100_hz": round(render_all_44k, 1),
                "open_board_ms_dummy_driver": round(open_ms, 1),
                "load_six_catalogs_ms_first_time": round(catalogs_ms, 2),
                "translate_plural_us": round(translate_us, 2),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
