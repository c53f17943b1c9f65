"""The SQLite database: opening it safely, its schema and migrations, and transactions.

Crash safety comes from SQLite itself: the database runs in WAL mode with
``synchronous=FULL``, so a transaction that :meth:`Database.transaction` has committed is
in the write-ahead log and fsynced before the call returns, and a power cut at any moment
leaves either the whole transaction or none of it. Nothing is written outside a
transaction.

:func:`open_database` never fails on bad data: a file that is corrupt or unreadable is
moved aside (renamed ``<name>.bad-<UTC time>``, with its ``-wal`` and ``-shm`` files) and a
fresh database is started; if even that fails, an in-memory database keeps the cabinet
running on defaults. Each such event is returned as a :class:`StorageProblem`.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from cabinet.storage.problems import (
    DatabaseBusyError,
    ProblemKind,
    StorageError,
    StorageProblem,
)

log = logging.getLogger("cabinet.storage")

WallClock = Callable[[], datetime]
"""A callable returning the current UTC time (an aware :class:`datetime`)."""


def utc_now() -> datetime:
    """The current time in UTC; the default :data:`WallClock`."""
    return datetime.now(UTC)


BUSY_TIMEOUT_S = 5.0
"""How long (s) a write waits for another connection's lock before giving up."""

#: The schema, one script per version: ``MIGRATIONS[n]`` takes a database from version n
#: to version n + 1 (``PRAGMA user_version``). Append, never edit a released script.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE settings (
        name  TEXT PRIMARY KEY,
        value TEXT NOT NULL            -- JSON
    );
    CREATE TABLE audit_groups (
        name       TEXT PRIMARY KEY,
        cleared_at TEXT NOT NULL       -- ISO 8601 UTC: when its counters last started at 0
    );
    CREATE TABLE audit_counters (
        name     TEXT PRIMARY KEY,     -- "<group>.<counter>", e.g. "games.draws"
        current  INTEGER NOT NULL,     -- since the group was last cleared
        lifetime INTEGER NOT NULL      -- never cleared
    );
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        ended_at    TEXT NOT NULL,     -- ISO 8601 UTC
        players     TEXT NOT NULL,     -- e.g. "human,cpu"
        levels      TEXT NOT NULL,     -- JSON: CPU level per seat, null for a person
        termination TEXT NOT NULL,     -- went_out, blocked or abandoned
        winner      INTEGER,           -- 0 or 1; NULL for a draw or an abandoned game
        duration_ms INTEGER NOT NULL,
        record      TEXT NOT NULL      -- the match record, MatchRecord.dumps()
    );
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this program writes."""

_CORRUPT = {"SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_FORMAT"}
_BUSY = {"SQLITE_BUSY", "SQLITE_LOCKED"}


class UnusableDatabaseError(Exception):
    """The file opened but cannot be used (corrupt, from a newer program, no WAL)."""


class Database:
    """An open database connection, used from one thread (the cabinet's main loop).

    Every write goes through :meth:`transaction`. ``path`` is ``None`` for the in-memory
    fallback, which keeps nothing.
    """

    def __init__(self, connection: sqlite3.Connection, path: Path | None) -> None:
        self.connection = connection
        self.path = path

    @property
    def in_memory(self) -> bool:
        return self.path is None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything inside is committed together (and fsynced)
        when the block ends, or rolled back if it raises. Raises
        :class:`~cabinet.storage.problems.StorageError` when SQLite cannot write."""
        conn = self.connection
        if conn.in_transaction:
            raise RuntimeError("transactions do not nest: one is already open")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise _write_error(exc) from exc
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise _write_error(exc) from exc
            raise

    def pragma(self, name: str) -> object:
        """One PRAGMA's value, e.g. ``pragma("journal_mode")`` → ``"wal"``."""
        if not name.replace("_", "").isalnum():
            raise ValueError(f"not a PRAGMA name: {name!r}")
        row = self.connection.execute(f"PRAGMA {name}").fetchone()
        return None if row is None else row[0]

    def close(self) -> None:
        self.connection.close()


def _write_error(exc: sqlite3.Error) -> StorageError:
    name = getattr(exc, "sqlite_errorname", "")
    if name in _BUSY:
        return DatabaseBusyError(f"the database is locked by another program: {exc}")
    return StorageError(f"could not write the database: {exc}")


def open_database(
    path: Path, *, wall_clock: WallClock = utc_now, busy_timeout_s: float = BUSY_TIMEOUT_S
) -> tuple[Database, list[StorageProblem]]:
    """Open (or create) the database at ``path``, migrated to :data:`SCHEMA_VERSION`.
    ``busy_timeout_s``: how long a write waits for another program's lock (s).

    Returns the database and the problems found. A corrupt or unreadable file is moved
    aside (named with ``wall_clock``'s time) and a fresh one created; if no file can be
    used, the database is in memory. Raises
    :class:`~cabinet.storage.problems.DatabaseBusyError` only when another process
    holds it locked (moving a database in use aside would lose its data).
    """
    problems: list[StorageProblem] = []
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return Database(_connect(path, busy_timeout_s), path), problems
    except OSError as exc:
        return _in_memory(problems, f"cannot create the data directory {path.parent}: {exc}")
    except (sqlite3.Error, UnusableDatabaseError) as exc:
        if getattr(exc, "sqlite_errorname", "") in _BUSY:
            raise DatabaseBusyError(f"{path} is locked by another program: {exc}") from exc
        reason = _describe(exc)
    try:
        moved = _move_aside(path, wall_clock())
    except OSError as exc:
        return _in_memory(problems, f"{path.name} is {reason} and cannot be moved aside: {exc}")
    problem = StorageProblem(
        ProblemKind.DATABASE_MOVED_ASIDE,
        f"the database {path.name} was {reason}; it was moved aside to {moved.name} "
        "and the cabinet starts on default settings with empty audits",
        subject=path.name,
        moved_to=moved,
    )
    log.error("%s", problem.message)
    problems.append(problem)
    try:
        return Database(_connect(path, busy_timeout_s), path), problems
    except (sqlite3.Error, UnusableDatabaseError) as exc:
        return _in_memory(problems, f"a fresh {path.name} cannot be created: {_describe(exc)}")


def _describe(exc: BaseException) -> str:
    if isinstance(exc, UnusableDatabaseError):
        return str(exc)
    name = getattr(exc, "sqlite_errorname", "")
    if name in _CORRUPT:
        return f"corrupt ({exc})"
    return f"unreadable ({exc})"


def _in_memory(problems: list[StorageProblem], why: str) -> tuple[Database, list[StorageProblem]]:
    problem = StorageProblem(
        ProblemKind.NOT_SAVING,
        f"{why}; the cabinet runs on default settings and saves nothing until this is fixed",
    )
    log.error("%s", problem.message)
    problems.append(problem)
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn)
    return Database(conn, None), problems


def _connect(path: Path, busy_timeout_s: float) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout_s)
    try:
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise UnusableDatabaseError(f"unusable (its journal cannot be WAL: {mode})")
        conn.execute("PRAGMA synchronous=FULL")
        check = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if check != ["ok"]:
            raise UnusableDatabaseError(f"corrupt (integrity check: {check[0]})")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise UnusableDatabaseError(
                f"written by a newer program (schema {version}; this one reads up to "
                f"{SCHEMA_VERSION})"
            )
        migrate(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema up to :data:`SCHEMA_VERSION`, one transaction per step; returns
    the version found before."""
    found: int = conn.execute("PRAGMA user_version").fetchone()[0]
    for version in range(found, SCHEMA_VERSION):
        script = MIGRATIONS[version]
        try:
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {version + 1};\nCOMMIT;"
            )
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return found


def _move_aside(path: Path, at: datetime) -> Path:
    """Rename the database and its WAL and shared-memory files to
    ``<name>.bad-<YYYYmmddTHHMMSSZ>[-n]``; returns the new database path."""
    stamp = at.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    base = path.with_name(f"{path.name}.bad-{stamp}")
    target = base
    n = 1
    while target.exists():
        n += 1
        target = base.with_name(f"{base.name}-{n}")
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.replace(target.with_name(target.name + suffix))
    if path.exists():
        path.replace(target)
    return target
