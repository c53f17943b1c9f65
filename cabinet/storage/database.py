"""The SQLite database: the open connection and its transactions, who opens it
(:class:`Access`), and how SQLite's errors are told apart (its schema and migrations are
:mod:`cabinet.storage.schema`; opening it safely is :mod:`cabinet.storage.opening`).

Crash safety comes from SQLite itself: the database runs in WAL mode with
``synchronous=FULL``, so a transaction that :meth:`Database.transaction` has committed is
in the write-ahead log and fsynced before the call returns, and a power cut at any moment
leaves either the whole transaction or none of it. Nothing is written outside a
transaction.
"""

from __future__ import annotations

import contextlib
import enum
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

from cabinet.storage.problems import DatabaseBusyError, StorageError
from cabinet.storage.schema import APPLICATION_ID as APPLICATION_ID
from cabinet.storage.schema import CABINET_TABLES as CABINET_TABLES
from cabinet.storage.schema import MIGRATIONS as MIGRATIONS
from cabinet.storage.schema import SCHEMA_VERSION as SCHEMA_VERSION
from cabinet.storage.schema import UnusableDatabaseError as UnusableDatabaseError
from cabinet.storage.schema import migrate as migrate

WallClock = Callable[[], datetime]
"""A callable returning the current UTC time (an aware :class:`datetime`)."""


def utc_now() -> datetime:
    """The current time in UTC; the default :data:`WallClock`."""
    return datetime.now(UTC)


BUSY_TIMEOUT_S = 5.0
"""How long (s) a write waits for another connection's lock before giving up."""


class Access(enum.Enum):
    """Who opens the database, which decides what happens to one it cannot use
    (:func:`cabinet.storage.opening.open_database`)."""

    RUN = "run"
    """The cabinet: always starts; sets aside what it cannot use; falls back to memory."""
    WRITE = "write"
    """A command that changes the data: a clear error instead of any fallback."""
    READ = "read"
    """A command that reads: read-only, changes nothing; a clear error if it cannot."""


_CORRUPT = {"SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_FORMAT"}
BUSY = {"SQLITE_BUSY", "SQLITE_LOCKED"}
"""SQLite's errors that say another connection holds the database locked."""

#: SQLite's errors (and their extended codes) that tell of the machine, not of the file's
#: content: a full disk, a failing card, a permission, a lock. A file never is set aside
#: for one of them.
_MACHINE = (
    "SQLITE_IOERR", "SQLITE_FULL", "SQLITE_CANTOPEN", "SQLITE_NOMEM", "SQLITE_PERM",
    "SQLITE_READONLY", "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_NOLFS", "SQLITE_AUTH",
    "SQLITE_PROTOCOL",
)  # fmt: skip


def of_the_machine(exc: BaseException) -> bool:
    """Whether ``exc`` tells of the machine (a full disk, a lock), not of the file."""
    return isinstance(exc, sqlite3.Error) and getattr(exc, "sqlite_errorname", "").startswith(
        _MACHINE
    )


#: What reading a damaged file raises: SQLite's errors, ours, and text that is not UTF-8.
UNREADABLE = (sqlite3.Error, UnusableDatabaseError, ValueError)


def describe(exc: BaseException) -> str:
    """What a file is that reading raised ``exc`` (one of :data:`UNREADABLE`):
    "corrupt (…)" or "unreadable (…)"."""
    if isinstance(exc, UnusableDatabaseError):
        return str(exc)
    name = getattr(exc, "sqlite_errorname", "")
    if name in _CORRUPT or isinstance(exc, ValueError):
        return f"corrupt ({exc})"
    return f"unreadable ({exc})"


def _lenient_text(raw: bytes) -> str:
    """TEXT as ``str`` even when damage left bytes that are not UTF-8 (they show as
    U+FFFD and fail the value's own checks, instead of failing the whole read)."""
    return raw.decode("utf-8", "replace")


class Database:
    """An open database connection, used from one thread (the cabinet's main loop).

    Every write goes through :meth:`transaction`. ``path`` is ``None`` for the in-memory
    fallback, which keeps nothing.
    """

    def __init__(
        self, connection: sqlite3.Connection, path: Path | None, *, read_from: Path | None = None
    ) -> None:
        connection.text_factory = _lenient_text
        self.connection = connection
        self.path = path
        self.read_from = read_from
        """For a database read into memory (``path`` ``None``), the file it was read from."""
        self.committed: list[Callable[[], None]] = []
        """Called after each commit of :meth:`transaction` (the fleet link's wake-up: what
        the commit queued goes out at once, not at the link's next look)."""

    @property
    def in_memory(self) -> bool:
        """Nothing written is kept: it lives in memory only."""
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
        for call in self.committed:
            call()

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
    if name in BUSY:
        return DatabaseBusyError(f"the database is locked by another program: {exc}")
    return StorageError(f"could not write the database: {exc}")
