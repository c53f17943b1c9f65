"""The garbage collector's pauses, as :data:`gc.callbacks` sees them: how many
collections of each generation ran and the longest, and whether any ran since a mark
(to tell a frame the collector slowed from one it did not)."""

from __future__ import annotations

import gc
import time
from typing import Any


class GcPauses:
    """Counts collections per generation while installed (``with GcPauses() as pauses``)."""

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.longest_ms = [0.0, 0.0, 0.0]
        self.total = 0
        self._started = 0.0

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        gen = int(info["generation"])
        spent = (time.perf_counter() - self._started) * 1000
        self.count[gen] += 1
        self.longest_ms[gen] = max(self.longest_ms[gen], spent)
        self.total += 1

    def __enter__(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def figures(self) -> dict[str, dict[str, float]]:
        return {
            f"gen{g}": {"collections": self.count[g], "longest_ms": round(self.longest_ms[g], 3)}
            for g in range(3)
        }
