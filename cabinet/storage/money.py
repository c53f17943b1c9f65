"""The money ledger's storage: one row per count in the ``money`` table.

:func:`load_ledger` reads it (a garbled row is reported and read as 0, every other row
kept; counts that break an invariant are reported, and kept as they are: money is never
put right by guessing); :func:`write_ledger` writes every count, inside the transaction
that also writes the audits (:meth:`cabinet.storage.store.CabinetStore.commit_money`).
"""

from __future__ import annotations

import logging
import sqlite3

from cabinet.money.ledger import COUNT_NAMES, Ledger, LedgerError
from cabinet.storage.database import Database
from cabinet.storage.problems import ProblemKind, StorageProblem
from game.values import is_int

log = logging.getLogger("cabinet.storage")


def load_ledger(db: Database) -> tuple[Ledger, list[StorageProblem]]:
    """The stored ledger (a database without one: all zero) and what was wrong with it."""
    problems: list[StorageProblem] = []
    rows: dict[str, int] = {}
    for name, value in db.connection.execute("SELECT name, value FROM money"):
        if str(name) not in COUNT_NAMES:
            continue
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
    ledger = Ledger.from_rows(rows)
    try:
        ledger.check()
    except LedgerError as exc:
        problems.append(
            StorageProblem(
                ProblemKind.UNREADABLE_DATA,
                f"the database's money counts disagree ({exc}); they are kept as stored",
                subject="money counts",
            )
        )
    for problem in problems:
        log.warning("%s", problem.message)
    return ledger, problems


def write_ledger(conn: sqlite3.Connection, ledger: Ledger) -> None:
    """Write every count of ``ledger``; call inside a transaction."""
    conn.executemany(
        "INSERT INTO money (name, value) VALUES (?, ?) "
        "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        list(ledger.as_rows().items()),
    )
