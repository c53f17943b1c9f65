"""Joining and leaving a fleet: the join kept in the ``fleet`` table, and what a cabinet
that leaves discards."""

from __future__ import annotations

import sqlite3

from cabinet.storage import outbox
from fleet.join_file import Join


def join(conn: sqlite3.Connection, joined: Join) -> None:
    """Keep ``joined`` (replacing any join before it); from now on the store's
    transactions queue what they report. Call inside a transaction."""
    outbox.delete_fleet_values(conn, "join.")
    outbox.delete_fleet_values(conn, "link.")
    outbox.set_fleet_values(conn, joined.rows())


def leave(conn: sqlite3.Connection) -> int:
    """Forget the fleet and everything queued for it; returns how many events were
    discarded unsent. Call inside a transaction."""
    outbox.delete_fleet_values(conn, "join.")
    outbox.delete_fleet_values(conn, "link.")
    outbox.delete_fleet_values(conn, "dropped.")
    return outbox.discard(conn)
