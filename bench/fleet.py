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
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine_info import machine

ROOT = Path(__file__).resolve().parent.parent


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# -- the cabinets ------------------------------------------------------------------------


def _queue_a_week(
    store_dir: Path, join_text: str, days: int, games_a_day: int
) -> tuple[int, int, int]:
    """Join ``store_dir``'s cabinet and queue ``days`` of play; returns (events, games,
    earnings in cents)."""
    from cabinet.link import membership
    from cabinet.storage import outbox
    from cabinet.storage.outbox import Kind
    from cabinet.storage.store import CabinetStore
    from fleet.join_file import Join

    store = CabinetStore.open(store_dir, synced=lambda: True)
    data = json.loads(join_text)
    join = Join(**{k: v for k, v in data.items() if k not in ("format", "version")})
    game_body = _game_body()
    events = games = cents = coins = 0
    at = store._wall_clock()
    with store.db.transaction() as conn:
        membership.join(conn, join)
        for day in range(days):
            for n in range(games_a_day):
                for _ in range(2):
                    coins += 1
                    cents += 100
                    counts = {"coins1": coins, "units_in": coins, "credits_paid": coins}
                    counted = {
                        "coins1": 1,
                        "coin_units": 1,
                        "earnings_cents": 100,
                        "paid_credits": 1,
                    }
                    outbox.add(conn, Kind.MONEY, {"counts": counts, "counted": counted}, at, True)
                    events += 1
                outbox.add(
                    conn, Kind.GAME, {**game_body, "game": day * games_a_day + n + 1}, at, True
                )
                games += 1
                events += 1
        outbox.add_audits(conn, at, True)
        events += 1
    store.close()
    return events, games, cents


def _game_body() -> dict[str, object]:
    from game.bots import level
    from game.cpu_match import play_cpu_game

    game = play_cpu_game(1, (level(3), level(4)))
    return {
        "game": 1,
        "seats": ["human", "cpu"],
        "summary": game.summary.to_json(),
        "record_sha256": "0" * 64,
    }


def worker(paths_file: Path) -> int:
    """A process of cabinets: one sender each, started when told (a line on stdin), then
    says when every outbox is empty."""
    import logging

    from cabinet.link.sender import Sender
    from cabinet.storage import outbox

    logging.basicConfig(
        filename=paths_file.with_suffix(".log"),
        level=logging.INFO,
        format="%(asctime)s %(threadName)s %(message)s",
    )
    paths = [Path(p) for p in paths_file.read_text().split()]
    senders = []
    for path in paths:
        sender = Sender(path, version="bench")
        sender.poll_s = 0.2
        senders.append(sender)
    print("ready", flush=True)
    sys.stdin.readline()
    for sender in senders:
        sender.start()
    import sqlite3

    conns = [sqlite3.connect(p) for p in paths]
    while any(outbox.queued(c) for c in conns):
        time.sleep(0.5)
    print("empty", flush=True)
    sys.stdin.readline()
    for sender in senders:
        sender.stop(1.0)
    return 0


def link_idle(path: Path, seconds: float) -> int:
    """A cabinet's link alone, in attract: connected, nothing to send. Prints its CPU and
    what it added to the process's memory."""
    from cabinet.storage.store import CabinetStore

    CabinetStore.open(path.parent).close()  # what the cabinet already has loaded
    before = _rss_mb()
    from cabinet.link.sender import Sender

    sender = Sender(path, version="bench")
    sender.start()
    deadline = time.monotonic() + 30
    while not sender.connected and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # the heartbeat and the acknowledgement of it
    cpu0, wall0 = time.process_time(), time.monotonic()
    time.sleep(seconds)
    cpu = time.process_time() - cpu0
    wall = time.monotonic() - wall0
    after = _rss_mb()
    connected = sender.connected
    sender.stop()
    print(
        json.dumps(
            {"cpu_percent": 100 * cpu / wall, "rss_mb": after - before, "connected": connected}
        )
    )
    return 0


# -- the run -----------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, object]:
    import psycopg

    from fleet import broker as fleet_broker
    from fleet import cli as fleet_cli
    from fleet.broker import FleetConfig
    from fleet.join_file import join_file_text
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
        config = FleetConfig.load(folder)
        broker = Broker(folder, port)
        ingest = IngestProcess(folder)
        broker.start()
        ingest.start()
        # The cabinets, each with a week queued.
        t0 = time.monotonic()
        expected_events = expected_games = expected_cents = 0
        paths: list[Path] = []
        with psycopg.connect(database) as conn:
            for i in range(args.cabinets + 2):
                name = f"cab-{i}"
                join = fleet_cli.add_cabinet(folder, config, conn, name, f"Venue {i % 50}")
                cabinet_dir = work / name
                if i < args.cabinets:
                    events, games, cents = _queue_a_week(
                        cabinet_dir, join_file_text(join), args.days, args.games_a_day
                    )
                    expected_events += events
                    expected_games += games
                    expected_cents += cents
                else:
                    _queue_a_week(cabinet_dir, join_file_text(join), 0, 0)
                paths.append(cabinet_dir / "cabinet.sqlite3")
                if i % 50 == 0:
                    print(f"cabinets made: {i}", file=sys.stderr, flush=True)
        fleet_broker.reload_broker(folder)
        result["setup_seconds"] = round(time.monotonic() - t0, 1)
        # All at once.
        workers = max(1, -(-args.cabinets // args.per_worker))
        shares = [paths[w : args.cabinets : workers] for w in range(workers)]
        result["workers"] = workers
        for w, share in enumerate(shares):
            listing = work / f"worker-{w}.txt"
            listing.write_text("\n".join(str(p) for p in share))
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
        start = time.monotonic()
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        with psycopg.connect(database, autocommit=True) as conn:
            stored = 0
            while stored < expected_events and time.monotonic() - start < args.timeout:
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
        result["drain"] = {
            "cabinets": args.cabinets,
            "events": stored,
            "seconds": round(seconds, 1),
            "events_per_second": round(stored / seconds) if seconds else None,
            "outboxes_empty_seconds": round(emptied, 1),
            "lost": expected_events - stored,
            "doubled": int(games_counted)
            - expected_games
            + (int(cents_counted) - expected_cents) // 100,
        }
        assert broker.process is not None and ingest.process is not None
        result["broker_rss_mb"] = round(_peak_rss_mb(broker.process.pid), 1)
        result["ingest_rss_mb"] = round(_peak_rss_mb(ingest.process.pid), 1)
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("stop\n")
            process.stdin.flush()
            process.wait(60)
        processes.clear()
        result["latency_ms"] = _latency(paths[args.cabinets], database, args.latency_events)
        idle = subprocess.run(
            [
                sys.executable,
                __file__,
                "--link-idle",
                str(paths[args.cabinets + 1]),
                str(args.idle_seconds),
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        link = json.loads(idle.stdout)
        result["link_cpu_percent"] = round(link["cpu_percent"], 3)
        result["link_rss_mb"] = round(link["rss_mb"], 1)
        result["link_connected"] = link["connected"]
        with psycopg.connect(database) as conn:
            result["refused"] = int(
                (conn.execute("SELECT count(*) FROM refused").fetchone() or (0,))[0]
            )
        ingest.stop()
        broker.stop()
    finally:
        for process in processes:
            process.kill()
        cluster.close()
        shutil.rmtree(work, ignore_errors=True)
    return result


def _latency(path: Path, database: str, count: int) -> dict[str, float]:
    """Events committed one at a time on a cabinet whose link is running: each one's time
    from its commit to its row in PostgreSQL."""
    import psycopg

    from cabinet.link.sender import Sender
    from cabinet.storage.outbox import Kind
    from cabinet.storage.store import CabinetStore

    store = CabinetStore.open(path.parent)
    sender = Sender(path, version="bench")
    sender.start()
    store.db.committed.append(sender.wake)  # as the cabinet does (cabinet.commands.run)
    committed: dict[int, float] = {}
    try:
        deadline = time.monotonic() + 30
        while not sender.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)
        for n in range(count):
            store.report(Kind.DOOR, {"state": "open" if n % 2 else "closed", "n": n})
            committed[n] = time.time()
            time.sleep(0.05)
        with psycopg.connect(database, autocommit=True) as conn:
            rows: list[tuple[int, float]] = []
            while len(rows) < count and time.monotonic() < deadline + 60:
                rows = [
                    (int(n), float(t))
                    for n, t in conn.execute(
                        "SELECT (body->>'n')::int, extract(epoch FROM received_at) FROM events "
                        "WHERE kind = 'door' AND body ? 'n'"
                    ).fetchall()
                ]
                time.sleep(0.2)
    finally:
        sender.stop()
        store.close()
    latencies = sorted(1000 * (t - committed[n]) for n, t in rows)
    return {
        "p50": round(statistics.median(latencies), 1),
        "p99": round(latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], 1),
        "events": len(latencies),
    }


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
