"""The hall of fame's storage: one row per entry in the ``hall_of_fame`` table.

Entries are written in the transaction that records the game that set them
(:meth:`cabinet.storage.store.CabinetStore.record_game`), with blank initials; the
initials the player enters afterwards are one small transaction of their own
(:func:`set_initials`), so a power cut during the entry leaves the entry, blank, and the
table whole. Each category keeps its best ``size`` rows: the rest are deleted in the same
transaction. They are records, not settings: a factory reset keeps them.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from datetime import datetime

from cabinet.halloffame.board import BoardError, Candidate, Category, Entry, FameBoard
from cabinet.halloffame.names import BLANK, InitialsError, check_initials
from cabinet.storage.database import Database
from cabinet.storage.problems import ProblemKind, StorageProblem

log = logging.getLogger("cabinet.storage")


def load_board(db: Database, size: int) -> tuple[FameBoard, list[StorageProblem]]:
    """The stored entries as a board of ``size`` a category; an unreadable row is
    reported and left out."""
    entries: list[Entry] = []
    problems: list[StorageProblem] = []
    for row in db.connection.execute(
        "SELECT id, category, initials, figure, date FROM hall_of_fame ORDER BY id"
    ):
        try:
            entry_id, category, initials, figure, date = row
            entries.append(
                Entry(Category(category), check_initials(initials), figure, str(date), entry_id)
            )
        except (ValueError, TypeError, BoardError, InitialsError):
            problems.append(
                StorageProblem(
                    ProblemKind.UNREADABLE_DATA,
                    f"the database's hall of fame entry {row[0]!s:.20} cannot be read; it is "
                    "left out",
                    subject="hall of fame entry",
                )
            )
    for problem in problems:
        log.warning("%s", problem.message)
    return FameBoard.of(entries, size), problems


def insert_entries(
    conn: sqlite3.Connection,
    placed: Sequence[Candidate],
    at: datetime,
    game_id: int | None,
    size: int,
) -> list[int]:
    """Add entries (each a candidate's category and figure) with blank initials, keep each
    category's best ``size``; returns the new rows' ids (an entry cut at once: still
    returned, no longer there). Call inside a transaction."""
    ids: list[int] = []
    for candidate in placed:
        category, figure = candidate.category, candidate.figure
        cursor = conn.execute(
            "INSERT INTO hall_of_fame (category, initials, figure, date, game) "
            "VALUES (?, ?, ?, ?, ?)",
            (category.value, BLANK, figure, at.date().isoformat(), game_id),
        )
        assert cursor.lastrowid is not None
        ids.append(cursor.lastrowid)
        prune(conn, category, size)
    return ids


def prune(conn: sqlite3.Connection, category: Category, size: int) -> None:
    """Delete ``category``'s entries beyond its best ``size`` (ties: the earlier stays)."""
    order = "ASC" if category.lower_is_better else "DESC"
    conn.execute(
        f"DELETE FROM hall_of_fame WHERE category = ? AND id NOT IN ("
        f"SELECT id FROM hall_of_fame WHERE category = ? ORDER BY figure {order}, id ASC "
        f"LIMIT ?)",
        (category.value, category.value, size),
    )


def set_initials(conn: sqlite3.Connection, entry_id: int, initials: str) -> None:
    """The initials of entry ``entry_id`` (a row already cut does nothing)."""
    conn.execute(
        "UPDATE hall_of_fame SET initials = ? WHERE id = ?", (check_initials(initials), entry_id)
    )


def clear(conn: sqlite3.Connection, category: Category | None) -> None:
    """Delete one category's entries, or every entry (``None``)."""
    if category is None:
        conn.execute("DELETE FROM hall_of_fame")
    else:
        conn.execute("DELETE FROM hall_of_fame WHERE category = ?", (category.value,))
