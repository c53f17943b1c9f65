"""The machine a benchmark ran on, for its JSON: every figure is quoted with it."""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path


def machine() -> dict[str, object]:
    """CPU model, core count and Python version; pygame's and SDL's when loaded."""
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    info: dict[str, object] = {
        "cpu": model,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
    }
    pygame = sys.modules.get("pygame")
    if pygame is not None:
        info["pygame"] = pygame.version.ver
        info["sdl"] = ".".join(map(str, pygame.get_sdl_version()))
        info["video_driver"] = os.environ.get("SDL_VIDEODRIVER", "default")
    return info
