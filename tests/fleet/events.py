"""Events put straight into the fleet's store, for fast deterministic tests of what the
fleet works out of them: each through :func:`fleet.store.store_batch`, as ingest stores
a batch, then (when the test says) given the receive time it needs."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import psycopg

from fleet import store
from fleet.wire import Batch, Event, Presence

EPOCH = "00000000000000e1"

_TABLES = (
    "cabinets, events, progress, coverage, presence, presence_log, rollups, locations, "
    "collections, settings_documents, champions, fleet_options, refused, refused_counts, "
    "account_log"
)


def empty(conn: psycopg.Connection[Any]) -> None:
    """Empty every table of the fleet's store (a module's tests share one database)."""
    conn.execute("TRUNCATE " + _TABLES + " RESTART IDENTITY CASCADE")
    conn.commit()


def iso(at: datetime) -> str:
    return at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def put(
    conn: psycopg.Connection[Any],
    cabinet: str,
    kind: str,
    body: dict[str, Any],
    *,
    at: datetime | None = None,
    received: datetime | None = None,
    synced: bool = True,
    epoch: str = EPOCH,
    seq: int | None = None,
) -> int:
    """Store one event of ``cabinet`` as ``seq`` of its epoch (default: the next), written
    at ``at`` by the cabinet's clock, received at ``received`` (default: the database's
    now); returns its seq."""
    if seq is None:
        (seq,) = conn.execute(
            "SELECT coalesce(max(seq), 0) + 1 FROM events WHERE cabinet = %s AND epoch = %s",
            (cabinet, epoch),
        ).fetchone() or (1,)
        conn.commit()
    written = iso(at or received or datetime.now().astimezone())
    event = Event(int(seq), kind, written, synced, body)
    store.store_batch(conn, Batch(cabinet, epoch, int(seq), int(seq), (event,)))
    if received is not None:
        conn.execute(
            "UPDATE events SET received_at = %s, "
            "written_at = fleet_written_at(cabinet_at, synced, %s) "
            "WHERE cabinet = %s AND epoch = %s AND seq = %s",
            (received, received, cabinet, epoch, seq),
        )
        conn.commit()
    return int(seq)


def presence(conn: psycopg.Connection[Any], cabinet: str, state: Presence, at: datetime) -> None:
    """``cabinet``'s presence ``state`` as ingest records it, logged at ``at``."""
    store.record_presence(conn, cabinet, state, "test")
    conn.execute(
        "UPDATE presence_log SET at = %s WHERE id = (SELECT max(id) FROM presence_log)", (at,)
    )
    conn.execute("UPDATE presence SET at = %s WHERE cabinet = %s", (at, cabinet))
    conn.commit()


def weekday_earnings(
    conn: psycopg.Connection[Any], cabinet: str, last: datetime, cents: list[int]
) -> None:
    """``cents[-1]`` earned at ``last``, each one before it a week earlier, then a
    heartbeat a day after ``last`` (the day is whole)."""
    for weeks, amount in zip(range(len(cents) - 1, -1, -1), cents, strict=True):
        at = last - timedelta(days=7 * weeks)
        body = {"counts": {}, "counted": {"coins1": 1, "earnings_cents": amount}}
        put(conn, cabinet, "money", body, at=at, received=at)
    beat = last + timedelta(days=1)
    put(conn, cabinet, "health", {"version": "1"}, at=beat, received=beat)


_names = iter(range(10**6))


def fresh_database(postgres: Any) -> Iterator[psycopg.Connection[Any]]:
    """A database of its own in ``postgres``'s cluster, its schema made (a module
    fixture's body)."""
    conn = store.connect(postgres.new_database(f"fleet_db_{os.getpid()}_{next(_names)}"))
    try:
        yield conn
    finally:
        conn.close()
