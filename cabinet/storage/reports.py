"""What the store's transactions report to the fleet, and the missing-switch counts they
keep: each function runs inside the transaction of the thing it reports
(:class:`~cabinet.storage.store.CabinetStore`), and queues nothing unless the cabinet is
in a fleet (:mod:`cabinet.storage.outbox`)."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from cabinet.inputs.missing_switch import missing, pressed, silence_after
from cabinet.storage import outbox
from cabinet.storage.outbox import Kind
from game.record import MatchRecord
from game.summary import GameSummary, Seat


def joined(conn: sqlite3.Connection) -> bool:
    """Whether the cabinet is in a fleet (its outbox takes rows)."""
    return conn.execute("SELECT 1 FROM fleet WHERE name = 'join.cabinet'").fetchone() is not None


def game(
    conn: sqlite3.Connection,
    game_id: int,
    summary: GameSummary,
    seats: Sequence[Seat],
    at: datetime,
    synced: bool,
) -> None:
    """A finished game: its summary (closest race included), seats and the stored
    record's SHA-256 (a dispute on the fleet's side names the record to fetch)."""
    (text,) = conn.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
    body = {
        "game": game_id,
        "seats": [s.value for s in seats],
        "summary": summary.to_json(),
        "record_sha256": hashlib.sha256(str(text).encode()).hexdigest(),
    }
    outbox.add(conn, Kind.GAME, body, at, synced)


def money(
    conn: sqlite3.Connection,
    counts: Mapping[str, int],
    counted: Mapping[str, int],
    at: datetime,
    synced: bool,
) -> None:
    """A money event: every money count after it (absolute) and what it counted."""
    body = {"counts": dict(counts), "counted": {k: v for k, v in counted.items() if v}}
    outbox.add(conn, Kind.MONEY, body, at, synced)


def fame_entry(conn: sqlite3.Connection, entry_id: int, at: datetime, synced: bool) -> None:
    """A hall-of-fame entry as stored now (none if it was already cut)."""
    row = conn.execute(
        "SELECT category, initials, figure, date FROM hall_of_fame WHERE id = ?", (entry_id,)
    ).fetchone()
    if row is not None:
        category, initials, figure, date = row
        body = {
            "entry": entry_id,
            "category": category,
            "initials": initials,
            "figure": figure,
            "date": date,
        }
        outbox.add(conn, Kind.FAME, body, at, synced)


def event(
    conn: sqlite3.Connection, kind: Kind, body: Mapping[str, Any], at: datetime, synced: bool
) -> None:
    """Any other event (health, a fault, the door)."""
    outbox.add(conn, kind, body, at, synced)


# -- the missing switch ------------------------------------------------------------------


def silence(conn: sqlite3.Connection) -> dict[str, int]:
    """Each button's count of games silent beside pressed neighbours."""
    return {str(c): int(n) for c, n in conn.execute("SELECT control, games FROM button_silence")}


def count_silence(
    conn: sqlite3.Connection,
    record: MatchRecord,
    seats: Sequence[Seat],
    games: int,
    at: datetime,
    synced: bool,
    report: bool,
) -> dict[str, int]:
    """Count one more game into the missing-switch counts; a button that reaches
    ``games`` (or is pressed again after it had) is reported as a fault (when ``report``).
    Returns the counts now."""
    before = silence(conn)
    people = [player for player, seat in enumerate(seats) if seat is Seat.HUMAN]
    after = silence_after(pressed(record.edges), people, before)
    conn.execute("DELETE FROM button_silence")
    conn.executemany("INSERT INTO button_silence (control, games) VALUES (?, ?)", after.items())
    was, now = set(missing(before, games)), missing(after, games)
    if report:
        for name in sorted(set(now) - was):
            body = {
                "fault": "missing_switch",
                "state": "raised",
                "button": name,
                "games": after[name],
            }
            outbox.add(conn, Kind.FAULT, body, at, synced)
        for name in sorted(was - set(now)):
            body = {"fault": "missing_switch", "state": "cleared", "button": name, "games": 0}
            outbox.add(conn, Kind.FAULT, body, at, synced)
    return after
