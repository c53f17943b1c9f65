"""The outbox: what the cabinet has to report to its fleet, kept in its own database.

A row is written in the same transaction as the thing it reports (a game, a money event,
the audits, a hall-of-fame entry, a fault), by whichever process commits that, so a power
cut never reports what was not kept and never loses what was. Rows are written only while
the cabinet is in a fleet (the ``fleet`` table names it): a cabinet with none writes
nothing here. The link (:mod:`cabinet.link.sender`) reads the rows in order and deletes
them only when the fleet's acknowledgement covers them (:func:`forget_through`).

Each row's key on the wire is ``(cabinet, epoch, seq)``: ``seq`` is the row's id, never
reused (``AUTOINCREMENT``), and the epoch is drawn at random when the database is made,
so a new database can never be taken for the old one.

The outbox is bounded (:data:`LIMIT` rows). Snapshots (the audits, health) replace the
unsent one before them; past the bound the oldest money and fault events go first, then
the oldest games; what was dropped is counted (``dropped.<kind>`` in the ``fleet``
table) and said by ``spit-cabinet fleet status`` and the service menu. Money and audits
are absolute counts (never deltas), so a dropped event loses detail, never a total.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

LIMIT = 50_000
"""The most rows the outbox keeps (a week of a busy cabinet is a few thousand)."""

SNAPSHOTS = frozenset({"audits", "health"})
"""Kinds whose newest row says everything the older unsent ones did."""

DROP_ORDER = ("money", "doctor", "settings", "fault", "door", "fame", "game")
"""Past the bound, the kinds dropped first to last (their oldest rows first)."""

SYNCED_MARK = Path("/run/systemd/timesync/synchronized")
"""systemd-timesyncd makes this file when the clock has been synchronised since boot."""


class Kind(StrEnum):
    """What an outbox row reports (:data:`fleet.wire.EVENT_KINDS`)."""

    GAME = "game"
    MONEY = "money"
    AUDITS = "audits"
    FAME = "fame"
    HEALTH = "health"
    FAULT = "fault"
    DOOR = "door"
    DOCTOR = "doctor"
    SETTINGS = "settings"
    FAIRNESS = "fairness"
    UPDATE = "update"


def clock_synced() -> bool:
    """Whether the system clock is synchronised (the Pi has no RTC: until it is, its wall
    time may be days out)."""
    return SYNCED_MARK.exists()


@dataclass(frozen=True, slots=True)
class Row:
    """One outbox row, as the link sends it."""

    seq: int
    kind: str
    at: str
    synced: bool
    body: dict[str, Any]


def fleet_values(conn: sqlite3.Connection) -> dict[str, str]:
    """The ``fleet`` table: the epoch, the join (when joined), the link's state and the
    dropped counts."""
    return {str(n): str(v) for n, v in conn.execute("SELECT name, value FROM fleet")}


def fleet_value(conn: sqlite3.Connection, name: str) -> str | None:
    """One row of the ``fleet`` table, or ``None``."""
    row = conn.execute("SELECT value FROM fleet WHERE name = ?", (name,)).fetchone()
    return None if row is None else str(row[0])


def set_fleet_values(conn: sqlite3.Connection, values: Mapping[str, str]) -> None:
    """Write rows of the ``fleet`` table; call inside a transaction."""
    conn.executemany(
        "INSERT INTO fleet (name, value) VALUES (?, ?) "
        "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        list(values.items()),
    )


def delete_fleet_values(conn: sqlite3.Connection, prefix: str) -> None:
    """Delete the ``fleet`` rows whose name starts with ``prefix``."""
    conn.execute("DELETE FROM fleet WHERE substr(name, 1, ?) = ?", (len(prefix), prefix))


def add(
    conn: sqlite3.Connection,
    kind: Kind,
    body: Mapping[str, Any],
    at: datetime,
    synced: bool,
    *,
    limit: int = LIMIT,
) -> int | None:
    """Queue one event, if the cabinet is in a fleet; call inside the transaction that
    writes what it reports. Returns its ``seq`` (``None``: not in a fleet)."""
    cursor = conn.execute(
        "INSERT INTO outbox (kind, at, synced, body) "
        "SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM fleet WHERE name = 'join.cabinet')",
        (
            kind.value,
            at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            int(synced),
            json.dumps(body, separators=(",", ":"), sort_keys=True),
        ),
    )
    if cursor.rowcount == 0:
        return None
    seq = cursor.lastrowid
    assert seq is not None
    if kind.value in SNAPSHOTS:
        conn.execute("DELETE FROM outbox WHERE kind = ? AND seq < ?", (kind.value, seq))
    _bound(conn, limit)
    return seq


def add_audits(conn: sqlite3.Connection, at: datetime, synced: bool) -> int | None:
    """Queue the audits as just written (every counter, current and lifetime, and when each
    group was last cleared); call inside the transaction that wrote them."""
    counters = {
        str(name): [int(current), int(lifetime)]
        for name, current, lifetime in conn.execute(
            "SELECT name, current, lifetime FROM audit_counters ORDER BY name"
        )
    }
    cleared = {
        str(name): str(at_)
        for name, at_ in conn.execute("SELECT name, cleared_at FROM audit_groups")
    }
    return add(conn, Kind.AUDITS, {"counters": counters, "cleared": cleared}, at, synced)


def _bound(conn: sqlite3.Connection, limit: int) -> None:
    # The span of seqs bounds the count, from the index alone; count only past it.
    (span,) = conn.execute("SELECT max(seq) - min(seq) + 1 FROM outbox").fetchone()
    if span is None or span <= limit:
        return
    excess = queued(conn) - limit
    for kind in DROP_ORDER:
        if excess <= 0:
            return
        # The newest money row holds the totals: it always stays.
        keep_newest = "AND seq < (SELECT max(seq) FROM outbox WHERE kind = 'money')"
        cursor = conn.execute(
            f"DELETE FROM outbox WHERE seq IN (SELECT seq FROM outbox WHERE kind = ? "
            f"{keep_newest if kind == 'money' else ''} ORDER BY seq LIMIT ?)",
            (kind, excess),
        )
        if cursor.rowcount:
            conn.execute(
                "INSERT INTO fleet (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE "
                "SET value = CAST(value AS INTEGER) + excluded.value",
                (f"dropped.{kind}", cursor.rowcount),
            )
            excess -= cursor.rowcount


def pending(conn: sqlite3.Connection, after: int, limit: int) -> list[Row]:
    """Up to ``limit`` rows after ``seq``, oldest first."""
    rows = conn.execute(
        "SELECT seq, kind, at, synced, body FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?",
        (after, limit),
    )
    return [Row(int(s), str(k), str(a), bool(y), json.loads(b)) for s, k, a, y, b in rows]


def forget_through(conn: sqlite3.Connection, through: int) -> int:
    """Delete the rows the fleet has acknowledged (``seq <= through``); returns how many."""
    return conn.execute("DELETE FROM outbox WHERE seq <= ?", (through,)).rowcount


def queued(conn: sqlite3.Connection) -> int:
    """How many rows wait."""
    return int(conn.execute("SELECT count(*) FROM outbox").fetchone()[0])


def discard(conn: sqlite3.Connection) -> int:
    """Delete every row (leaving a fleet); returns how many."""
    return conn.execute("DELETE FROM outbox").rowcount
