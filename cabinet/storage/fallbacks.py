"""What the cabinet (``RUN``) runs on when it cannot use its database as it is: the file
moved aside untouched and a fresh one started (:func:`set_aside`), the file read into
memory (:func:`read_into_memory`), or defaults in memory (:func:`in_memory`). Each says
what happened as a :class:`~cabinet.storage.problems.StorageProblem`, and nothing is
saved in memory (see :mod:`cabinet.storage.opening`)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from cabinet.storage.connections import connect, copy_into_memory
from cabinet.storage.database import (
    BUSY_TIMEOUT_S,
    UNREADABLE,
    Database,
    WallClock,
    describe,
    utc_now,
)
from cabinet.storage.files import move_aside
from cabinet.storage.problems import ProblemKind, StorageProblem
from cabinet.storage.schema import migrate

log = logging.getLogger("cabinet.storage")


def read_into_memory(
    path: Path, why: str, *, busy_timeout_s: float = BUSY_TIMEOUT_S
) -> tuple[Database, list[StorageProblem]]:
    """For the cabinet (``RUN``): the database at ``path``, which must not be written
    (``why``), read into memory; nothing is saved, and the problem says so."""
    try:
        conn = copy_into_memory(path, busy_timeout_s)
    except UNREADABLE as exc:
        return in_memory(f"{why}, and cannot be read either ({describe(exc)})")
    problem = StorageProblem(
        ProblemKind.NOT_SAVING,
        f"{why}; the cabinet runs on the settings stored in it and saves nothing until "
        "this is fixed",
        subject=path.name,
    )
    log.error("%s", problem.message)
    return Database(conn, None, read_from=path), [problem]


def set_aside(
    path: Path,
    reason: str,
    *,
    wall_clock: WallClock = utc_now,
    busy_timeout_s: float = BUSY_TIMEOUT_S,
) -> tuple[Database, list[StorageProblem]]:
    """Move the database at ``path`` aside untouched (it is ``reason``, e.g. "holding rows
    the cabinet cannot read") and start a fresh one, for the cabinet (``RUN``)."""
    try:
        moved = move_aside(path, wall_clock())
    except OSError as exc:
        return in_memory(f"{path.name} is {reason} and cannot be moved aside: {exc}")
    problem = StorageProblem(
        ProblemKind.DATABASE_MOVED_ASIDE,
        f"the database {path.name} was {reason}; it was moved aside untouched to "
        f"{moved.name} and the cabinet starts on default settings with empty audits",
        subject=path.name,
        moved_to=moved,
    )
    log.error("%s", problem.message)
    try:
        return Database(connect(path, busy_timeout_s), path), [problem]
    except UNREADABLE as exc:
        db, more = in_memory(f"a fresh {path.name} cannot be created: {describe(exc)}")
        return db, [problem, *more]


def in_memory(why: str) -> tuple[Database, list[StorageProblem]]:
    """For the cabinet (``RUN``), when no database can be used (``why``): an empty one in
    memory, on default settings; nothing is saved, and the problem says so."""
    problem = StorageProblem(
        ProblemKind.NOT_SAVING,
        f"{why}; the cabinet runs on default settings and saves nothing until this is fixed",
    )
    log.error("%s", problem.message)
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn)
    return Database(conn, None), [problem]
