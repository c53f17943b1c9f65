"""A release rolled out to a route, measured on loopback with the real parts: a Mosquitto
and a PostgreSQL of its own, ``spit-fleet ingest`` (the rollouts' controller) and
``spit-fleet release serve`` as processes, and cabinets that are the real store, link and
update watch, whose download is the real ``release fetch`` (docs/releases.md). Prints
JSON.

    python bench/rollout.py [--cabinets 500] [--canary-share 10] [--full]

The release is 20 MB of wheels (sized as the cabinet's for the Pi: pygame-ce 12 MB,
cryptography 5 MB, the cabinet's own 1.1 MB and a dozen small ones; seeded bytes), the
next version of one the cabinets have. By default each cabinet has the last release's
wheels, so only its changed ones are downloaded; ``--full`` has them download all.

- ``seconds``: from the rollout's start to the canaries installed, and to every cabinet
  installed (healthy time 0: the rest follow the canaries at once);
- ``server``: the release server's CPU seconds and share of one core over the rollout,
  the bytes it sent (the cabinets' downloads) and its rate;
- ``ingest_cpu_s``: the controller's process; ``cabinets_cpu_s``: the cabinets'
  processes (each cabinet is a Pi of its own; here all share this machine).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fleet import _peak_rss_mb
from bench.fleet_cabinets import queue_a_week
from bench.machine_info import machine
from bench.rollout_cabinets import worker

ROOT = Path(__file__).resolve().parent.parent
WHEELS = {
    "pygame_ce-2.5.8-cp313-cp313-manylinux2014_aarch64.whl": 12_045_702,
    "cryptography-51.0.1-cp311-abi3-manylinux2014_aarch64.whl": 4_867_207,
    "setuptools-84.2.1-py3-none-any.whl": 876_263,
    "securesystemslib-1.6.0-py3-none-any.whl": 874_777,
    "cffi-2.1.1-cp313-cp313-manylinux2014_aarch64.whl": 480_000,
    "paho_mqtt-2.1.0-py3-none-any.whl": 67_000,
    "gpiozero-2.0.1-py3-none-any.whl": 150_000,
    "pyserial-3.5-py2.py3-none-any.whl": 90_000,
    "tuf-7.0.1-py3-none-any.whl": 120_000,
    "urllib3-2.8.0-py3-none-any.whl": 130_000,
    "polib-1.2.0-py2.py3-none-any.whl": 20_000,
    "tomli_w-1.0.0-py3-none-any.whl": 12_000,
}
"""The Pi's wheels and their sizes (scripts/wheels.sh's, rounded for the small ones)."""
CABINET_WHEEL_BYTES = 1_099_758
PASSPHRASE = "bench release key"


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _release(work: Path, version: str, rng: random.Random) -> Path:
    folder = work / f"wheels-{version}"
    folder.mkdir()
    for name, size in WHEELS.items():
        (folder / name).write_bytes(random.Random(name).randbytes(size))  # the same each time
    cabinet = folder / f"spit_cabinet-{version}-py3-none-any.whl"
    cabinet.write_bytes(rng.randbytes(CABINET_WHEEL_BYTES))
    return folder


def serve(folder: Path, cleanup: contextlib.ExitStack) -> tuple[subprocess.Popen[str], int]:
    """``spit-fleet release serve`` of ``folder`` on a free loopback port, until cleanup."""
    from tests.fleet.services import free_port

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "fleet.cli", "release", "serve", "--dir", str(folder), "--bind",
         "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
    )  # fmt: skip
    cleanup.callback(server.kill)
    assert server.stdout is not None and "serving" in server.stdout.readline()
    return server, port


def _fleet(
    args: argparse.Namespace, work: Path, cleanup: contextlib.ExitStack
) -> dict[str, object]:
    """The fleet, its key, the next release published and served, the cabinets joined."""
    import psycopg

    from fleet import cli as fleet_cli
    from fleet.broker import FleetConfig
    from fleet.join_file import join_file_text
    from tests.fleet.services import Broker, IngestProcess, Postgres, free_port, init_fleet

    cluster = Postgres(fsync=True)
    cleanup.callback(cluster.close)
    database = cluster.new_database("rollout_bench")
    folder = work / "fleet"
    with contextlib.redirect_stdout(sys.stderr):
        init_fleet(folder, database, free_port())
        os.environ["SPIT_RELEASE_PASSPHRASE"] = PASSPHRASE
        key, repo = work / "key", work / "repo"
        fleet_cli.main(["release-key", "--route", "Test Route", "--out", str(key)])
        fleet_cli.main(["release", "trust", str(key / "root.json"), "--dir", str(folder)])
        rng = random.Random(34)
        _release(work, "0.1.0", rng)  # what the cabinets have
        fleet_cli.main(["release", "sign", str(_release(work, "0.2.0", rng)), "--key",
                        str(key), "--repo", str(repo)])  # fmt: skip
        fleet_cli.main(["release", "publish", str(repo), "--dir", str(folder)])
    config = FleetConfig.load(folder)
    broker, ingest = Broker(folder, config.port), IngestProcess(folder)
    broker.start()
    cleanup.callback(broker.stop)
    ingest.start()
    cleanup.callback(ingest.stop)
    server, port = serve(folder, cleanup)
    paths: list[Path] = []
    with psycopg.connect(database) as conn:
        for i in range(args.cabinets):
            name = f"cab-{i}"
            join = fleet_cli.add_cabinet(folder, config, conn, name, f"Venue {i % 50}")
            queue_a_week(work / name, join_file_text(join), 0, 0)
            paths.append(work / name / "cabinet.sqlite3")
    from fleet import broker as fleet_broker

    fleet_broker.reload_broker(folder)
    return {"database": database, "server": server, "url": f"https://localhost:{port}/releases/",
            "paths": paths, "ingest": ingest}  # fmt: skip


def _workers(
    args: argparse.Namespace, paths: list[Path], work: Path
) -> list[subprocess.Popen[str]]:
    have = "" if args.full else str(work / "wheels-0.1.0")
    count = max(1, -(-len(paths) // args.per_worker))
    processes = []
    for w in range(count):
        listing = work / f"worker-{w}.txt"
        listing.write_text("\n".join(str(p) for p in paths[w::count]))
        processes.append(subprocess.Popen(
            [sys.executable, __file__, "--worker", str(listing), have],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
        ))  # fmt: skip
    for process in processes:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
        assert process.stdin is not None
        process.stdin.write("go\n")
        process.stdin.flush()
    return processes


def run(args: argparse.Namespace) -> dict[str, object]:
    import psycopg

    from fleet import rollouts

    work = Path(tempfile.mkdtemp(prefix="spit-rollout-bench-"))
    result: dict[str, object] = {"machine": machine(), "cabinets": args.cabinets,
                                 "full_download": args.full}  # fmt: skip
    with contextlib.ExitStack() as cleanup:
        cleanup.callback(shutil.rmtree, work, ignore_errors=True)
        made = _fleet(args, work, cleanup)
        processes = _workers(args, made["paths"], work)  # type: ignore[arg-type]
        for process in processes:
            cleanup.callback(process.kill)
        server: subprocess.Popen[str] = made["server"]  # type: ignore[assignment]
        ingest = made["ingest"].process  # type: ignore[attr-defined]
        server_cpu0, ingest_cpu0 = _cpu_s(server.pid), _cpu_s(ingest.pid)
        with psycopg.connect(made["database"], autocommit=True) as conn:  # type: ignore[arg-type]
            online = 0
            while online < args.cabinets:  # every link connected (its presence stored)
                time.sleep(0.5)
                row = conn.execute("SELECT count(*) FROM presence WHERE state = 'online'")
                online = int((row.fetchone() or (0,))[0])
            start = time.monotonic()
            rollout = rollouts.start(conn, "0.2.0", made["url"], "all", args.canary_share, 0,
                                     "bench")  # fmt: skip
            canaries_done = None
            while time.monotonic() - start < args.timeout:
                group = rollouts.members(conn, rollout)
                installed = [m for m in group if m.state == "installed"]
                if canaries_done is None and all(m.state == "installed" for m in group if m.canary):
                    canaries_done = time.monotonic() - start
                if len(installed) == len(group) or any(m.state in ("refused", "rolled_back")
                                                       for m in group):  # fmt: skip
                    break
                time.sleep(0.5)
            seconds = time.monotonic() - start
            states = [m.state for m in rollouts.members(conn, rollout)]
        server_cpu = _cpu_s(server.pid) - server_cpu0
        result["seconds"] = {"canaries": round(canaries_done or 0, 1), "all": round(seconds, 1)}
        result["installed"] = states.count("installed")
        result["other_states"] = sorted(set(states) - {"installed"})
        sent = sum(
            p.stat().st_size
            for p in (work / "fleet" / "releases" / "targets").iterdir()
            if args.full or "spit_cabinet" in p.name or "release.json" in p.name
        )
        sent *= args.cabinets
        result["server"] = {
            "cpu_s": round(server_cpu, 1),
            "cpu_percent_of_a_core": round(100 * server_cpu / seconds, 1),
            "bytes_sent": sent,
            "mb_per_s": round(sent / seconds / 1e6, 1),
            "rss_mb": round(_peak_rss_mb(server.pid), 1),
        }
        result["ingest_cpu_s"] = round(_cpu_s(ingest.pid) - ingest_cpu0, 1)
        cabinets_cpu = 0.0
        for process in processes:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write("stop\n")
            process.stdin.flush()
            cabinets_cpu += json.loads(process.stdout.readline())["cpu_s"]
            process.wait(60)
        result["cabinets_cpu_s"] = round(cabinets_cpu, 1)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cabinets", type=int, default=500)
    parser.add_argument("--canary-share", type=int, default=10)
    parser.add_argument("--per-worker", type=int, default=50)
    parser.add_argument("--full", action="store_true", help="no wheels kept: download all")
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(Path(args.worker[0]), args.worker[1])
    print(json.dumps(run(args), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
