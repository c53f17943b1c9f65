"""What one texture upload costs: a whole 1920x1080 frame (what SDL's texture framebuffer
uploads for a software frame on kmsdrm) and a small text texture, each
``Texture.update`` followed by ``glFinish``. Prints JSON.

On a Pi this is the measurement that replaces the estimate in bench/README.md ("A Pi 4's
frame"): run it on the console (``SDL_VIDEODRIVER=kmsdrm``, the cabinet stopped). Here it
runs on SDL's offscreen driver, on whatever GL Mesa gives (llvmpipe without a GPU).

Usage: ``python bench/upload.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from bench.engine import machine
from cabinet.drawing.gpu import Gpu, GpuError, open_window

SIZES = {"frame_1920x1080": (1920, 1080), "text_300x60": (300, 60)}


def timed(gpu: Gpu, size: tuple[int, int], repeats: int) -> dict[str, float]:
    surface = pygame.Surface(size, pygame.SRCALPHA)
    texture = gpu.upload(surface, streaming=True)
    gpu.finish()
    spent: list[float] = []
    for k in range(repeats):
        surface.fill((k % 256, 80, 160, 255))  # new pixels each time
        t0 = time.perf_counter()
        gpu.update(texture, surface)
        gpu.finish()
        spent.append((time.perf_counter() - t0) * 1000)
    spent.sort()
    mb = size[0] * size[1] * 4 / 1e6
    median = statistics.median(spent)
    return {
        "mb": round(mb, 3),
        "median_ms": round(median, 3),
        "p99_ms": round(spent[min(len(spent) - 1, int(len(spent) * 0.99))], 3),
        "gb_per_s": round(mb / 1000 / (median / 1000), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=100)
    args = parser.parse_args()
    pygame.display.init()
    try:
        window = open_window((1920, 1080), fullscreen=False, hidden=True)
        gpu = Gpu(window, vsync=False)
    except GpuError as exc:
        print(f"upload.py: no GPU renderer (Debian: libegl-mesa0 libgles2): {exc}", file=sys.stderr)
        return 2
    out: dict[str, object] = {"machine": machine(), "renderer": gpu.info.describe()}
    for name, size in SIZES.items():
        out[name] = timed(gpu, size, args.repeats)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
