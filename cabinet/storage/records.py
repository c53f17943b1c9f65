"""The last games' match records, kept for the service menu's *Last games* screen.

Each game is one row: the record as JSON (:meth:`game.record.MatchRecord.dumps`, with the
result it ended with, so a replay can be checked against it) and summary columns for the
list (when it ended, who played, how it ended, who won, how long it took). Only the
newest ``records_kept`` games are kept; older ones are deleted in the same transaction
that adds a game.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cabinet.storage.database import Database
from game.events import Termination
from game.record import MatchRecord
from game.record_parts import RecordResult
from game.summary import GameSummary, Seat
from game.units import MS

log = logging.getLogger("cabinet.storage")


@dataclass(frozen=True, slots=True)
class GameListing:
    """One stored game as the list shows it."""

    id: int
    """Increases with every game stored; never reused, even after older games are pruned."""
    ended_at: datetime
    seats: tuple[Seat, Seat]
    levels: tuple[int | None, int | None]
    """The CPU level in each seat, ``None`` for a person."""
    termination: Termination
    """How it ended (stored as its value: ``went_out``, ``blocked`` or ``abandoned``)."""
    winner: int | None
    """0 or 1; ``None`` for a draw or an abandoned game."""
    duration_ms: int


def insert_game(
    conn: sqlite3.Connection,
    record: MatchRecord,
    summary: GameSummary,
    seats: Sequence[Seat],
    ended_at: datetime,
    keep: int,
) -> int:
    """Add one game and delete all but the newest ``keep``; call inside a transaction.
    Returns the new game's id."""
    if record.result is None:
        record = record.with_result(RecordResult.of(summary))
    levels = record.meta.levels or (None, None)
    cursor = conn.execute(
        "INSERT INTO games (ended_at, players, levels, termination, winner, duration_ms, "
        "record) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            ended_at.isoformat(),
            ",".join(s.value for s in seats),
            json.dumps(list(levels)),
            None if summary.termination is None else summary.termination.value,
            summary.winner,
            (summary.end_t_ns or 0) // MS,
            record.dumps(),
        ),
    )
    game_id = cursor.lastrowid
    assert game_id is not None
    prune_games(conn, keep)
    return game_id


def prune_games(conn: sqlite3.Connection, keep: int) -> None:
    """Delete all but the newest ``keep`` games; call inside a transaction."""
    conn.execute(
        "DELETE FROM games WHERE id <= (SELECT id FROM games ORDER BY id DESC LIMIT 1 OFFSET ?)",
        (keep,),
    )


class RecordStore:
    """Reading the stored games (writing is :meth:`CabinetStore.record_game`'s)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def count(self) -> int:
        row = self._db.connection.execute("SELECT count(*) FROM games").fetchone()
        return int(row[0])

    def recent(
        self, limit: int | None = None, *, before_id: int | None = None
    ) -> list[GameListing]:
        """The newest games first: at most ``limit``, and only those older than
        ``before_id`` when given (for paging)."""
        rows = self._db.connection.execute(
            "SELECT id, ended_at, players, levels, termination, winner, duration_ms FROM games "
            "WHERE id < ? ORDER BY id DESC LIMIT ?",
            (before_id if before_id is not None else 2**63 - 1, -1 if limit is None else limit),
        )
        return [listing for listing in map(_listing, rows) if listing is not None]

    def ids(self) -> list[int]:
        """Every stored game's id, oldest first."""
        return [r[0] for r in self._db.connection.execute("SELECT id FROM games ORDER BY id")]

    def listing(self, game_id: int) -> GameListing | None:
        row = self._db.connection.execute(
            "SELECT id, ended_at, players, levels, termination, winner, duration_ms FROM games "
            "WHERE id = ?",
            (game_id,),
        ).fetchone()
        return None if row is None else _listing(row)

    def record(self, game_id: int) -> MatchRecord | None:
        """The game's match record (replay it with :func:`game.record.replay`), or
        ``None`` when no game has that id (never stored, or pruned)."""
        row = self._db.connection.execute(
            "SELECT record FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        return None if row is None else MatchRecord.loads(row[0])


def _listing(row: tuple[Any, ...]) -> GameListing | None:
    """The row's listing, or ``None`` (logged) when a damaged row cannot be read."""
    game_id, ended_at, players, levels, termination, winner, duration_ms = row
    try:
        first, second = (Seat(p) for p in players.split(","))
        lv = json.loads(levels)
        return GameListing(
            id=game_id,
            ended_at=datetime.fromisoformat(ended_at),
            seats=(first, second),
            levels=(lv[0], lv[1]),
            termination=Termination(termination),
            winner=winner,
            duration_ms=duration_ms,
        )
    except (AttributeError, TypeError, ValueError, IndexError, KeyError, RecursionError):
        log.warning("stored game %s cannot be read; it is left out of the list", game_id)
        return None
