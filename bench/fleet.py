"""The fleet link, measured on loopback with the real parts: a Mosquitto and a PostgreSQL
of its own, ``spit-fleet ingest`` as a process, and cabinets that are the real store and
the real sender (docs/fleet.md). Prints JSON.

    python bench/fleet.py [--cabinets 500] [--days 7] [--games-a-day 20]

- ``latency_ms``: an event committed on a cabinet (the store's own transaction) to the
  row in PostgreSQL (its ``received_at``), one cabinet in steady state, p50 / p99.
- ``drain``: N cabinets, each with ``--days`` of play queued in its outbox (games, two
  coins a game, the audits), all reconnecting at once: the time until every event is in
  PostgreSQL; ``lost`` (queued, never stored) and ``doubled`` (games the fleet's rollups
  counted more than once).
- ``link_cpu_percent``: the link of a cabinet in attract (connected, nothing to send, its
  production timings), CPU of one core over ``--idle-seconds``.
- ``link_rss_mb``: what the link adds to a process that already has the store open.
- ``broker_rss_mb``, ``ingest_rss_mb``: their peak resident memory in the drain.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fleet_cabinets import latency, link_idle, queue_a_week, worker
from bench.machine_info import machine

ROOT = Path(__file__).resolve().parent.parent


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Queued(NamedTuple):
    """What the cabinets' outboxes hold, for the drain to be checked against."""

    events: int
    games: int
    cents: int


def run(args: argparse.Namespace) -> dict[str, object]:
    from tests.fleet.services import Broker, IngestProcess, Postgres, free_port, init_fleet

    work = Path(tempfile.mkdtemp(prefix="spit-fleet-bench-"))
    cluster = Postgres(fsync=True)  # as a fleet's server runs it
    result: dict[str, object] = {"machine": machine(), "cabinets": args.cabinets}
    processes: list[subprocess.Popen[str]] = []
    try:
        database = cluster.new_database("fleet_bench")
        port = free_port()
        folder = work / "fleet"
        with contextlib.redirect_stdout(sys.stderr):
            init_fleet(folder, database, port)
        broker = Broker(folder, port)
        ingest = IngestProcess(folder)
        broker.start()
        ingest.start()
        t0 = time.monotonic()
        paths, queued = _make_cabinets(args, folder, database, work)
        result["setup_seconds"] = round(time.monotonic() - t0, 1)
        processes.extend(_start_workers(args, paths, work))
        result["workers"] = len(processes)
        result["drain"] = _drain(args, processes, database, queued)
        assert broker.process is not None and ingest.process is not None
        result["broker_rss_mb"] = round(_peak_rss_mb(broker.process.pid), 1)
        result["ingest_rss_mb"] = round(_peak_rss_mb(ingest.process.pid), 1)
        _stop_workers(processes)
        processes.clear()
        result["latency_ms"] = latency(paths[args.cabinets], database, args.latency_events)
        result.update(_link_alone(paths[args.cabinets + 1], args.idle_seconds))
        result["refused"] = _refused(database)
        ingest.stop()
        broker.stop()
    finally:
        for process in processes:
            process.kill()
        cluster.close()
        shutil.rmtree(work, ignore_errors=True)
    return result


def _make_cabinets(
    args: argparse.Namespace, folder: Path, database: str, work: Path
) -> tuple[list[Path], Queued]:
    """The fleet's cabinets, each with a week queued, and two more with nothing queued
    (for the latency and the idle link); the broker told of them all."""
    import psycopg

    from fleet import broker as fleet_broker
    from fleet import cli as fleet_cli
    from fleet.broker import FleetConfig
    from fleet.join_file import join_file_text

    config = FleetConfig.load(folder)
    expected = Queued(0, 0, 0)
    paths: list[Path] = []
    with psycopg.connect(database) as conn:
        for i in range(args.cabinets + 2):
            name = f"cab-{i}"
            join = fleet_cli.add_cabinet(folder, config, conn, name, f"Venue {i % 50}")
            cabinet_dir = work / name
            if i < args.cabinets:
                made = queue_a_week(cabinet_dir, join_file_text(join), args.days, args.games_a_day)
                expected = Queued(*(a + b for a, b in zip(expected, made, strict=True)))
            else:
                queue_a_week(cabinet_dir, join_file_text(join), 0, 0)
            paths.append(cabinet_dir / "cabinet.sqlite3")
            if i % 50 == 0:
                print(f"cabinets made: {i}", file=sys.stderr, flush=True)
    fleet_broker.reload_broker(folder)
    return paths, expected


def _start_workers(
    args: argparse.Namespace, paths: list[Path], work: Path
) -> list[subprocess.Popen[str]]:
    """Processes of ``--per-worker`` queued cabinets each (:func:`worker`), ready."""
    workers = max(1, -(-args.cabinets // args.per_worker))
    processes = []
    for w in range(workers):
        listing = work / f"worker-{w}.txt"
        listing.write_text("\n".join(str(p) for p in paths[w : args.cabinets : workers]))
        processes.append(
            subprocess.Popen(
                [sys.executable, __file__, "--worker", str(listing)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT,
            )
        )
    for process in processes:
        assert process.stdout is not None and process.stdout.readline() == "ready\n"
    return processes


def _tell(processes: list[subprocess.Popen[str]], line: str) -> None:
    for process in processes:
        assert process.stdin is not None
        process.stdin.write(line + "\n")
        process.stdin.flush()


def _drain(
    args: argparse.Namespace,
    processes: list[subprocess.Popen[str]],
    database: str,
    queued: Queued,
) -> dict[str, object]:
    """Every worker's cabinets connect at once: the time until PostgreSQL holds every
    queued event, and what the rollups counted against what was queued."""
    import psycopg

    start = time.monotonic()
    _tell(processes, "go")
    with psycopg.connect(database, autocommit=True) as conn:
        stored = 0
        while stored < queued.events and time.monotonic() - start < args.timeout:
            time.sleep(0.5)
            row = conn.execute("SELECT count(*) FROM events WHERE kind <> 'health'").fetchone()
            stored = int(row[0]) if row else 0
        seconds = time.monotonic() - start
        rollup = conn.execute(
            "SELECT coalesce(sum(games), 0), coalesce(sum(earnings_cents), 0) FROM rollups "
            "WHERE period = 'week'"
        ).fetchone()
    for process in processes:
        assert process.stdout is not None
        process.stdout.readline()  # "empty": every outbox acknowledged
    emptied = time.monotonic() - start
    games_counted, cents_counted = rollup if rollup else (0, 0)
    return {
        "cabinets": args.cabinets,
        "events": stored,
        "seconds": round(seconds, 1),
        "events_per_second": round(stored / seconds) if seconds else None,
        "outboxes_empty_seconds": round(emptied, 1),
        "lost": queued.events - stored,
        "doubled": int(games_counted) - queued.games + (int(cents_counted) - queued.cents) // 100,
    }


def _stop_workers(processes: list[subprocess.Popen[str]]) -> None:
    _tell(processes, "stop")
    for process in processes:
        process.wait(60)


def _link_alone(path: Path, seconds: float) -> dict[str, object]:
    """:func:`link_idle` in a process of its own, its figures rounded."""
    idle = subprocess.run(
        [sys.executable, __file__, "--link-idle", str(path), str(seconds)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    link = json.loads(idle.stdout)
    return {
        "link_cpu_percent": round(link["cpu_percent"], 3),
        "link_rss_mb": round(link["rss_mb"], 1),
        "link_connected": link["connected"],
    }


def _refused(database: str) -> int:
    import psycopg

    with psycopg.connect(database) as conn:
        return int((conn.execute("SELECT count(*) FROM refused").fetchone() or (0,))[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cabinets", type=int, default=500)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--games-a-day", type=int, default=20)
    parser.add_argument(
        "--per-worker",
        type=int,
        default=50,
        help="cabinets per process (each client holds about seven descriptors, and paho's "
        "select() takes none numbered past 1023)",
    )
    parser.add_argument("--latency-events", type=int, default=300)
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--link-idle", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker)
    if args.link_idle:
        return link_idle(Path(args.link_idle[0]), float(args.link_idle[1]))
    print(json.dumps(run(args), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
