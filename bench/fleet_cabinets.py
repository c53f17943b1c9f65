"""The cabinets of ``bench/fleet.py``, each the real store and the real sender: a week of
play queued in a cabinet's outbox, a process of cabinets' links draining theirs
(``--worker``), a cabinet's link alone in attract (``--link-idle``), and events committed
one at a time for their latency to PostgreSQL."""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def queue_a_week(
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


def latency(path: Path, database: str, count: int) -> dict[str, float]:
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
