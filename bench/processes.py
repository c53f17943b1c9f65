"""The real cabinet's two processes, measured from outside: ``spit-cabinet run`` headless
in attract, its start to the first attract frame, the CPU and the peak resident memory of
the display and the table processes together (read from /proc)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: The SDL video driver each backend is measured on: the dummy driver has no GL.
VIDEO_DRIVERS = {"software": "dummy", "texture": "offscreen"}


def cabinet_figures(
    seconds: float, backend: str = "software", video_driver: str | None = None
) -> dict[str, Any]:
    """``spit-cabinet run --display-backend BACKEND`` in attract at 1920x1080, on
    ``video_driver`` (default: the backend's, :data:`VIDEO_DRIVERS`): start to first
    frame, CPU of both processes over ``seconds`` after 3 s, and their peak resident
    memory (VmHWM, summed) after 10 s of attract or more."""
    driver = video_driver or VIDEO_DRIVERS[backend]
    env = dict(os.environ, SDL_VIDEODRIVER=driver, SDL_AUDIODRIVER="dummy")
    with tempfile.TemporaryDirectory() as data:
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "cabinet", "run", "--input", "mock", "--size", "1920x1080",
             "--data-dir", data, "--seconds", str(max(seconds, 7.0) + 5), "--lights", "none",
             "--display-backend", backend],
            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        )  # fmt: skip
        assert proc.stderr is not None
        first = None
        said = ""
        for line in proc.stderr:
            if "display: " in line and not said:
                said = line.split("display: ", 1)[1].strip()
            if "running: input" in line:
                first = time.monotonic() - started
                break
        time.sleep(3)
        pids = [proc.pid, *children(proc.pid)]
        cpu0 = sum(cpu_ticks(p) for p in pids)
        t0 = time.monotonic()
        time.sleep(max(seconds, 7.0))
        cpu1 = sum(cpu_ticks(p) for p in pids)
        elapsed = time.monotonic() - t0
        peak = {p: peak_rss_kb(p) / 1024 for p in pids}
        proc.stderr.read()
        proc.wait(30)
    hz = os.sysconf("SC_CLK_TCK")
    return {
        "backend": backend,
        "display": said,
        "start_to_first_attract_frame_s": round(first or -1.0, 3),
        "attract_cpu_percent_both_processes": round(100 * (cpu1 - cpu0) / hz / elapsed, 1),
        "rss_mb_both_processes": round(sum(peak.values()), 1),
        "rss_mb_each": [round(v, 1) for v in peak.values()],
        "processes": len(pids),
    }


def children(pid: int) -> list[int]:
    out: list[int] = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                out.append(int(stat.parent.name))
    return out


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def peak_rss_kb(pid: int) -> int:
    """The process's peak resident memory (VmHWM) so far, in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0
