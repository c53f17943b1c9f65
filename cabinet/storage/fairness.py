"""The fairness certificates the books keep (the ``fairness`` table, schema 5): each test
run to its end, newest last (docs/fairness.md)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cabinet.storage.outbox import Kind

if TYPE_CHECKING:
    from cabinet.storage.store import CabinetStore

KEEP = 50
"""Certificates kept; older ones go as newer come (the fleet has them all)."""


def keep(conn: sqlite3.Connection, body: Mapping[str, Any]) -> None:
    """Keep one certificate's ``body`` (in the caller's transaction)."""
    conn.execute(
        "INSERT INTO fairness (taken_at, passed, body) VALUES (?, ?, ?)",
        (str(body["taken_at"]), int(bool(body["passed"])), json.dumps(body, sort_keys=True)),
    )
    conn.execute("DELETE FROM fairness WHERE id <= (SELECT max(id) FROM fairness) - ?", (KEEP,))


def latest(conn: sqlite3.Connection) -> dict[str, Any] | None:
    """The newest certificate's body, or ``None`` when no test has been run (or the row
    cannot be read)."""
    row = conn.execute("SELECT body FROM fairness ORDER BY id DESC LIMIT 1").fetchone()
    return None if row is None else _body(row[0])


def newest(conn: sqlite3.Connection, limit: int) -> list[dict[str, Any]]:
    """The bodies of the newest ``limit`` certificates, newest first (a row that cannot be
    read is left out)."""
    rows = conn.execute("SELECT body FROM fairness ORDER BY id DESC LIMIT ?", (limit,))
    return [body for (text,) in rows if (body := _body(text)) is not None]


def _body(text: Any) -> dict[str, Any] | None:
    try:
        body = json.loads(text)
    except (TypeError, ValueError):
        return None
    return body if isinstance(body, dict) else None


def record(store: CabinetStore, body: Mapping[str, Any]) -> bool:
    """Keep a certificate in the books and, when the cabinet is in a fleet, queue it for
    the fleet in the same transaction; returns whether it was queued."""
    return store.report(Kind.FAIRNESS, body, also=lambda conn: keep(conn, body))


def stored(store: CabinetStore) -> dict[str, Any] | None:
    """The newest certificate in ``store``'s books (:func:`latest`)."""
    try:
        return latest(store.db.connection)
    except sqlite3.Error:
        return None


def recent(store: CabinetStore, limit: int) -> list[dict[str, Any]]:
    """The newest ``limit`` certificates in ``store``'s books, newest first (:func:`newest`;
    none when the books cannot be read)."""
    try:
        return newest(store.db.connection, limit)
    except sqlite3.Error:
        return []
