"""Joining and leaving a fleet: the join kept in the ``fleet`` table, and what a cabinet
that leaves discards (the fleet's documents too: another fleet's champions and settings
documents are not this one's)."""

from __future__ import annotations

import sqlite3

from cabinet.storage import fleet_documents, outbox
from fleet.join_file import Join


def join(conn: sqlite3.Connection, joined: Join) -> None:
    """Keep ``joined`` (replacing any join before it); from now on the store's
    transactions queue what they report. Call inside a transaction."""
    outbox.delete_fleet_values(conn, "join.")
    outbox.delete_fleet_values(conn, "link.")
    outbox.delete_fleet_values(conn, fleet_documents.PREFIX)
    outbox.set_fleet_values(conn, joined.rows())


def leave(conn: sqlite3.Connection) -> int:
    """Forget the fleet and everything queued for it; returns how many events were
    discarded unsent. Call inside a transaction."""
    outbox.delete_fleet_values(conn, "join.")
    outbox.delete_fleet_values(conn, "link.")
    outbox.delete_fleet_values(conn, "dropped.")
    outbox.delete_fleet_values(conn, fleet_documents.PREFIX)
    return outbox.discard(conn)
