"""A release downloaded while the cabinet plays attract, measured side by side with
attract alone (docs/releases.md, "Rollouts"). Prints JSON.

    python bench/update_download.py [--seconds 20] [--backend software|texture]

The real cabinet (:class:`~cabinet.display.app.CabinetApp`, its own frame loop at 60 fps,
1920x1080) runs attract twice: alone, then while ``spit-cabinet release fetch`` downloads a
20 MB release (every wheel: nothing kept from the last one) from ``spit-fleet release
serve`` on loopback over TLS, as the cabinet's update watch starts it: ``nice -n 19``,
paced (``--rate-kbps``, the cabinet's default unless given). The fetch runs again as
soon as it ends, for the whole phase.

- ``fetch_cpu_percent``: the download processes' CPU (user and system) over their wall
  time, of one core: the goal is at most 20 % (on this machine; the Pi 4's core is about
  half as fast, bench/README.md);
- ``frame_ms``: each frame's work (the step and the present), p50 / p99 / max, and
  ``frames_over_16_7_ms``, in each phase;
- ``display_cpu_percent``: the display's own process, in each phase.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen" if "texture" in sys.argv else "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.cabinet import open_screen, summary
from bench.machine_info import machine
from bench.rollout import WHEELS, serve

ROOT = Path(__file__).resolve().parent.parent
FRAME_MS = 1000 / 60


def _served(work: Path, cleanup: contextlib.ExitStack) -> tuple[str, Path]:
    """A signed 20 MB release served on loopback, and a cabinet's data joined to its
    route (the fleet's CA and the route's release root)."""
    from cabinet.link import membership
    from cabinet.storage.store import CabinetStore
    from fleet import authority
    from fleet.join_file import Join
    from fleet.release_keys import make_release_key, root_bytes
    from fleet.release_repository import sign_release
    from fleet.release_server import publish

    now = datetime.datetime.now(datetime.UTC)
    folder = work / "fleet"
    folder.mkdir()
    ca = authority.make_ca("Bench Route", now)
    server = authority.make_server(ca, ["localhost", "127.0.0.1"], now)
    (folder / "server.pem").write_bytes(server.cert)
    (folder / "server.key").write_bytes(server.key)
    key = make_release_key(work / "key", "Bench Route", "bench passphrase", now)
    wheels = work / "wheels"
    wheels.mkdir()
    for name, size in WHEELS.items():
        (wheels / name).write_bytes(random.Random(name).randbytes(size))
    (wheels / "spit_cabinet-9.0.0-py3-none-any.whl").write_bytes(os.urandom(1_099_758))
    sign_release(key, wheels, work / "repo", now)
    publish(work / "repo", folder)
    _, port = serve(folder, cleanup)
    data = work / "data"
    store = CabinetStore.open(data)
    join = Join("Bench Route", "bench-1", "Bench", "localhost", 8883, "pw", ca.cert.decode(),
                root_bytes(key.root).decode())  # fmt: skip
    with store.db.transaction() as conn:
        membership.join(conn, join)
    store.close()
    return f"https://localhost:{port}/releases/", data


class Fetching:
    """``release fetch`` at nice 19, started again as each one ends; their wall time summed."""

    def __init__(self, url: str, data: Path, rate_kbps: int) -> None:
        self.url, self.data, self.rate_kbps = url, data, rate_kbps
        self.process: subprocess.Popen[bytes] | None = None
        self.wall_s = 0.0
        self.runs = 0
        self._started = 0.0

    def poll(self) -> None:
        if self.process is not None and self.process.poll() is None:
            return
        if self.process is not None:
            self._ended()
        shutil.rmtree(self.data / "releases", ignore_errors=True)  # download it all again
        self.process = subprocess.Popen(
            ["nice", "-n", "19", sys.executable, "-m", "cabinet", "release", "fetch", self.url,
             "--data-dir", str(self.data), "--running", "0.1.0", "--rate-kbps",
             str(self.rate_kbps)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
        )  # fmt: skip
        self._started = time.monotonic()

    def _ended(self) -> None:
        assert self.process is not None
        # Its CPU is counted by run(), from RUSAGE_CHILDREN around the phase: only reaped
        # children count there, and the release server is reaped only after it.
        self.wall_s += time.monotonic() - self._started
        self.runs += 1 if self.process.returncode == 0 else 0

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.wait(60)
            self._ended()


def attract(seconds: float, each: object = None) -> dict[str, object]:
    """The cabinet in attract for ``seconds``: each frame's work, the process's CPU."""
    from cabinet.display.app import CabinetApp
    from cabinet.display.app_settings import AppSettings
    from cabinet.display.flow import FlowSettings
    from cabinet.display.frame_loop import run_frames
    from cabinet.inputs.edge_queue import EdgeQueue

    screen = open_screen()
    app = CabinetApp(screen, EdgeQueue(), AppSettings(flow=FlowSettings()), seed=9)
    app.start()
    work: list[float] = []
    started = [0]
    step = app.step

    def timed_step(now: int) -> object:
        started[0] = time.perf_counter_ns()
        return step(now)

    app.step = timed_step  # type: ignore[method-assign]

    def after(now: int) -> None:
        work.append((time.perf_counter_ns() - started[0]) / 1e6)
        if callable(each):
            each()

    end = time.monotonic() + 1.0
    run_frames(app, lambda: time.monotonic() < end, after)  # warm up
    work.clear()
    cpu0, wall0 = time.process_time(), time.monotonic()
    end = time.monotonic() + seconds
    run_frames(app, lambda: time.monotonic() < end, after)
    cpu = 100 * (time.process_time() - cpu0) / (time.monotonic() - wall0)
    app.stop()
    return {
        "frame_ms": summary(work) | {"max": round(max(work), 2)},
        "frames": len(work),
        "frames_over_16_7_ms": sum(w > FRAME_MS for w in work),
        "display_cpu_percent": round(cpu, 1),
    }


def run(args: argparse.Namespace) -> dict[str, object]:
    import resource

    work = Path(tempfile.mkdtemp(prefix="spit-update-bench-"))
    with contextlib.ExitStack() as cleanup:
        cleanup.callback(shutil.rmtree, work, ignore_errors=True)
        url, data = _served(work, cleanup)
        alone = attract(args.seconds)
        fetching = Fetching(url, data, args.rate_kbps)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        downloading = attract(args.seconds, fetching.poll)
        fetching.stop()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        fetch_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "machine": machine(),
        "backend": os.environ["SDL_VIDEODRIVER"],
        "attract_alone": alone,
        "attract_downloading": downloading,
        "downloads_done": fetching.runs,
        "fetch_cpu_percent": round(100 * fetch_cpu / fetching.wall_s, 1)
        if fetching.wall_s
        else None,
        "fetch_rate_kib_s": args.rate_kbps,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--backend", choices=["software", "texture"], default="software")
    parser.add_argument("--rate-kbps", type=int, default=2048, help="the fetch's pace (KiB/s)")
    args = parser.parse_args()
    import bench.cabinet as cabinet_bench

    cabinet_bench.BACKEND = args.backend
    print(json.dumps(run(args), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
