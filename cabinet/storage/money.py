"""The money table's storage: one row per count, ``name -> value``.

Storage knows the rows, not what they mean: :mod:`cabinet.money.ledger` owns the counts
and their invariants, and :mod:`cabinet.money.keeper` reads its ledger out of the rows.
:func:`load_money` reads them (a garbled row is reported and left out, so it reads 0;
every other row kept); :func:`write_money` writes them, inside the transaction that also
writes the audits (:meth:`cabinet.storage.store.CabinetStore.commit_money`).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping

from cabinet.storage.database import Database
from cabinet.storage.problems import ProblemKind, StorageProblem
from game.values import is_int

log = logging.getLogger("cabinet.storage")


def load_money(db: Database) -> tuple[dict[str, int], list[StorageProblem]]:
    """The stored counts (a database without any: none) and what was wrong with them."""
    problems: list[StorageProblem] = []
    rows: dict[str, int] = {}
    for name, value in db.connection.execute("SELECT name, value FROM money"):
        if not is_int(value) or value < 0:
            problems.append(
                StorageProblem(
                    ProblemKind.UNREADABLE_DATA,
                    f"the database's money count {name!s:.40} cannot be read; it reads 0",
                    subject=f"money count {name!s:.40}",
                )
            )
            continue
        rows[str(name)] = value
    for problem in problems:
        log.warning("%s", problem.message)
    return rows, problems


def delete_unreadable(conn: sqlite3.Connection) -> None:
    """Delete the rows :func:`load_money` could not read (they read 0); call inside a
    transaction."""
    conn.execute("DELETE FROM money WHERE NOT (typeof(value) = 'integer' AND value >= 0)")


def write_money(conn: sqlite3.Connection, counts: Mapping[str, int]) -> None:
    """Write every count of ``counts``; call inside a transaction."""
    conn.executemany(
        "INSERT INTO money (name, value) VALUES (?, ?) "
        "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        list(counts.items()),
    )
