"""The GPU driver's shader cache and the cabinet's first frame. Prints JSON.

``spit-cabinet run --display-backend texture`` as the unit starts it: a fresh process,
told where systemd's notification socket is, whose ``READY=1`` comes with its first frame
on the screen. Timed from the process's start to that message, by ``time.perf_counter``,
with Mesa's shader cache (``MESA_SHADER_CACHE_DIR``, as deploy/spit-cabinet.service sets
it):

- ``empty``: a new, empty cache folder each start, as every boot had while the cache was
  in ``HOME``, in ``/run`` (Mesa compiles every shader of the first frame);
- ``kept``: the folder an earlier start filled, as every boot after the first has now.

The two take turns, ``--runs`` times each, after one untimed start that writes the
bytecode caches; median and min in seconds. SDL's offscreen driver (Mesa's llvmpipe where
there is no GPU, whose shaders LLVM compiles), unless ``SDL_VIDEODRIVER`` says otherwise.

Usage: ``python bench/shader_cache.py [--runs 7] [--size 1280x800]``; with
``PYTHONPATH=TREE`` the cabinet started is another copy's (e.g. an older commit's
worktree), for a before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine_info import machine


def first_frame_s(work: Path, cache: Path, size: str) -> float:
    """One start of the cabinet; seconds from its process's start to its READY=1."""
    address = work / "notify"
    address.unlink(missing_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(address))
        sock.settimeout(120)
        env = {
            **os.environ,
            "NOTIFY_SOCKET": str(address),
            "SDL_VIDEODRIVER": os.environ.get("SDL_VIDEODRIVER", "offscreen"),
            "SDL_AUDIODRIVER": "dummy",
            "MESA_SHADER_CACHE_DIR": str(cache),
            "HOME": str(work),
        }
        argv = [sys.executable, "-m", "cabinet", "run", "--input", "mock",
                "--display-backend", "texture", "--size", size,
                "--data-dir", str(work / "data")]  # fmt: skip
        started = time.perf_counter()
        child = subprocess.Popen(  # not in a checkout: PYTHONPATH alone chooses the code
            argv, env=env, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            if sock.recv(64) != b"READY=1":
                raise RuntimeError("the cabinet sent something other than READY=1")
            took = time.perf_counter() - started
        finally:
            child.send_signal(signal.SIGINT)  # as systemd stops it
            child.wait(timeout=30)
    return took


def summary(times: list[float]) -> dict[str, float]:
    return {"median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--size", default="1280x800")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        kept = work / "kept-cache"
        first_frame_s(work, kept, args.size)  # bytecode, and the kept cache filled
        times: dict[str, list[float]] = {"empty": [], "kept": []}
        for run in range(args.runs):
            times["empty"].append(first_frame_s(work, work / f"empty-{run}", args.size))
            times["kept"].append(first_frame_s(work, kept, args.size))
        files = [p for p in kept.rglob("*") if p.is_file()]
        print(
            json.dumps(
                {
                    "machine": machine(),
                    "video_driver": os.environ.get("SDL_VIDEODRIVER", "offscreen"),
                    "size": args.size,
                    "runs": args.runs,
                    "start_to_first_frame": {k: summary(v) for k, v in times.items()},
                    "kept_cache": {
                        "files": len(files),
                        "kib": round(sum(p.stat().st_size for p in files) / 1024, 1),
                    },
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
