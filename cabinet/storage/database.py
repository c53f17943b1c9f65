"""The SQLite database: opening it safely, and transactions (its schema and migrations
are :mod:`cabinet.storage.schema`).

Crash safety comes from SQLite itself: the database runs in WAL mode with
``synchronous=FULL``, so a transaction that :meth:`Database.transaction` has committed is
in the write-ahead log and fsynced before the call returns, and a power cut at any moment
leaves either the whole transaction or none of it. Nothing is written outside a
transaction.

:func:`open_database` knows the cabinet's database by a mark it writes (SQLite's
``application_id``, :data:`APPLICATION_ID`; a database from before the mark by its
tables), checked through a read-only connection, so a file that is not the cabinet's is
never changed. What it then does depends on who opens (:class:`Access`):

- the cabinet (``RUN``) never fails on bad data: a file that is corrupt, unreadable or
  another program's is moved aside untouched (renamed ``<name>.bad-<UTC time>``, with its
  ``-wal``, ``-shm`` and ``-journal`` files) and a fresh database is started; a database
  it may read but not write, or one another program keeps locked past the busy timeout,
  is read into memory; if nothing works, an in-memory database runs on defaults. Each
  such event is returned as a :class:`StorageProblem`, and nothing is saved in memory;
- a command that changes the data (``WRITE``) gets a :class:`StorageError` with one line
  saying why, instead of any of that: it sets nothing aside and never pretends to save;
- a command that only reads (``READ``) reads the file through a read-only connection
  (into memory), changing nothing, or gets a :class:`StorageError`.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from cabinet.storage.files import files_exist, move_aside, writable
from cabinet.storage.problems import (
    DatabaseBusyError,
    ProblemKind,
    StorageError,
    StorageProblem,
)
from cabinet.storage.schema import APPLICATION_ID as APPLICATION_ID
from cabinet.storage.schema import CABINET_TABLES as CABINET_TABLES
from cabinet.storage.schema import MIGRATIONS as MIGRATIONS
from cabinet.storage.schema import SCHEMA_VERSION as SCHEMA_VERSION
from cabinet.storage.schema import UnusableDatabaseError as UnusableDatabaseError
from cabinet.storage.schema import check_columns, check_version
from cabinet.storage.schema import migrate as migrate

log = logging.getLogger("cabinet.storage")

WallClock = Callable[[], datetime]
"""A callable returning the current UTC time (an aware :class:`datetime`)."""


def utc_now() -> datetime:
    """The current time in UTC; the default :data:`WallClock`."""
    return datetime.now(UTC)


BUSY_TIMEOUT_S = 5.0
"""How long (s) a write waits for another connection's lock before giving up."""


class Access(enum.Enum):
    """Who opens the database, which decides what happens to one it cannot use."""

    RUN = "run"
    """The cabinet: always starts; sets aside what it cannot use; falls back to memory."""
    WRITE = "write"
    """A command that changes the data: a clear error instead of any fallback."""
    READ = "read"
    """A command that reads: read-only, changes nothing; a clear error if it cannot."""


_CORRUPT = {"SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_FORMAT"}
_BUSY = {"SQLITE_BUSY", "SQLITE_LOCKED"}


#: What reading a damaged file raises: SQLite's errors, ours, and text that is not UTF-8.
_UNREADABLE = (sqlite3.Error, UnusableDatabaseError, ValueError)


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
    if name in _BUSY:
        return DatabaseBusyError(f"the database is locked by another program: {exc}")
    return StorageError(f"could not write the database: {exc}")


def open_database(
    path: Path,
    *,
    access: Access = Access.RUN,
    wall_clock: WallClock = utc_now,
    busy_timeout_s: float = BUSY_TIMEOUT_S,
) -> tuple[Database, list[StorageProblem]]:
    """Open (or create) the database at ``path``, migrated to :data:`SCHEMA_VERSION`.
    ``busy_timeout_s``: how long to wait for another program's lock (s).

    Returns the database and the problems found (see the module's docstring for what
    ``access`` changes). Raises :class:`~cabinet.storage.problems.StorageError` (or its
    :class:`~cabinet.storage.problems.DatabaseBusyError`) only for ``WRITE`` and ``READ``.
    """
    problems: list[StorageProblem] = []
    if access is Access.READ:
        return _read_only(path, busy_timeout_s), problems
    stranger = _not_ours(path, busy_timeout_s)
    if stranger is None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            return Database(_connect(path, busy_timeout_s), path), problems
        except OSError as exc:
            why = f"cannot create the data directory {path.parent}: {exc}"
            if access is Access.WRITE:
                raise StorageError(why) from exc
            return _in_memory(problems, why)
        except _UNREADABLE as exc:
            name = getattr(exc, "sqlite_errorname", "")
            if name in _BUSY:
                if access is Access.WRITE:
                    raise DatabaseBusyError(
                        f"{path} is locked by another program (waited {busy_timeout_s:g} s)"
                    ) from exc
                return _read_into_memory(
                    path, problems, busy_timeout_s, f"{path.name} is locked by another program"
                )
            if name == "SQLITE_READONLY" or (path.exists() and not writable(path)):
                if access is Access.WRITE:
                    raise StorageError(f"{path} cannot be written (read-only)") from exc
                return _read_into_memory(
                    path, problems, busy_timeout_s, f"{path.name} cannot be written (read-only)"
                )
            if not files_exist(path):
                why = f"a database cannot be created in {path.parent}: {_describe(exc)}"
                if access is Access.WRITE:
                    raise StorageError(why) from exc
                return _in_memory(problems, why)
            stranger = _describe(exc)
    if access is Access.WRITE:
        raise StorageError(f"{path} is {stranger}: nothing was changed")
    return _set_aside(path, stranger, problems, wall_clock, busy_timeout_s)


def set_aside(
    path: Path,
    reason: str,
    *,
    wall_clock: WallClock = utc_now,
    busy_timeout_s: float = BUSY_TIMEOUT_S,
) -> tuple[Database, list[StorageProblem]]:
    """Move the database at ``path`` aside untouched (it is ``reason``, e.g. "holding rows
    the cabinet cannot read") and start a fresh one, for the cabinet (``RUN``)."""
    return _set_aside(path, reason, [], wall_clock, busy_timeout_s)


def _set_aside(
    path: Path,
    reason: str,
    problems: list[StorageProblem],
    wall_clock: WallClock,
    busy_timeout_s: float,
) -> tuple[Database, list[StorageProblem]]:
    try:
        moved = move_aside(path, wall_clock())
    except OSError as exc:
        return _in_memory(problems, f"{path.name} is {reason} and cannot be moved aside: {exc}")
    problem = StorageProblem(
        ProblemKind.DATABASE_MOVED_ASIDE,
        f"the database {path.name} was {reason}; it was moved aside untouched to "
        f"{moved.name} and the cabinet starts on default settings with empty audits",
        subject=path.name,
        moved_to=moved,
    )
    log.error("%s", problem.message)
    problems.append(problem)
    try:
        return Database(_connect(path, busy_timeout_s), path), problems
    except _UNREADABLE as exc:
        return _in_memory(problems, f"a fresh {path.name} cannot be created: {_describe(exc)}")


def _read_only_connection(path: Path, busy_timeout_s: float) -> sqlite3.Connection:
    """A connection that cannot change the file (SQLite's ``mode=ro``). With no WAL file
    beside it, also ``immutable``: then SQLite makes no ``-shm`` or ``-wal`` files either.
    (With one, a crash left transactions in it, which only a WAL reader sees.)"""
    wal = path.with_name(path.name + "-wal").exists()
    uri = "file:" + quote(str(path)) + ("?mode=ro" if wal else "?mode=ro&immutable=1")
    return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=busy_timeout_s)


def _not_ours(path: Path, busy_timeout_s: float) -> str | None:
    """``None`` when ``path`` is absent, empty or the cabinet's database; else what it is
    ("another program's database (…)", "corrupt (…)"), found without changing it."""
    try:
        if not path.exists() or (path.is_file() and path.stat().st_size == 0):
            return None
    except OSError as exc:
        return f"unreadable ({exc})"
    if not path.is_file():
        return "unreadable (not a file)"
    try:
        conn = _read_only_connection(path, busy_timeout_s)
    except sqlite3.Error as exc:
        return _describe(exc)
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
    except _UNREADABLE as exc:
        name = getattr(exc, "sqlite_errorname", "")
        if name in _BUSY or name.startswith("SQLITE_READONLY") or name == "SQLITE_CANTOPEN":
            return None  # the cabinet's own opening says what it is
        return _describe(exc)
    finally:
        conn.close()
    if app_id == APPLICATION_ID:
        return None
    if app_id == 0 and version >= 1 and tables >= CABINET_TABLES:
        return None  # the cabinet's, from before the mark
    if app_id == 0 and version == 0 and not tables:
        return None  # an empty database: nothing in it to keep
    mark = f"application id {app_id:#x}, " if app_id else ""
    return (
        f"another program's database ({mark}schema {version}, tables: "
        + (", ".join(sorted(tables)[:5]) or "none")
        + ")"
    )


def _read_only(path: Path, busy_timeout_s: float) -> Database:
    """The database read into memory through a read-only connection (``READ``)."""
    if not files_exist(path):
        conn = sqlite3.connect(":memory:", isolation_level=None)
        migrate(conn)
        return Database(conn, None)
    stranger = _not_ours(path, busy_timeout_s)
    if stranger is not None:
        raise StorageError(f"{path} is {stranger}")
    try:
        return Database(_copy_into_memory(path, busy_timeout_s), None, read_from=path)
    except _UNREADABLE as exc:
        if getattr(exc, "sqlite_errorname", "") in _BUSY:
            raise DatabaseBusyError(f"{path} is locked by another program") from exc
        raise StorageError(f"{path} cannot be read: {_describe(exc)}") from exc


def _copy_into_memory(path: Path, busy_timeout_s: float) -> sqlite3.Connection:
    source = _read_only_connection(path, busy_timeout_s)
    memory = sqlite3.connect(":memory:", isolation_level=None)
    try:
        source.backup(memory)
        check_version(memory)
        migrate(memory)
    except BaseException:
        memory.close()
        raise
    finally:
        source.close()
    return memory


def _read_into_memory(
    path: Path, problems: list[StorageProblem], busy_timeout_s: float, why: str
) -> tuple[Database, list[StorageProblem]]:
    """``RUN`` on a database it cannot write: its settings and audits read into memory."""
    try:
        conn = _copy_into_memory(path, busy_timeout_s)
    except _UNREADABLE as exc:
        return _in_memory(problems, f"{why}, and cannot be read either ({_describe(exc)})")
    problem = StorageProblem(
        ProblemKind.NOT_SAVING,
        f"{why}; the cabinet runs on the settings stored in it and saves nothing until "
        "this is fixed",
        subject=path.name,
    )
    log.error("%s", problem.message)
    problems.append(problem)
    return Database(conn, None, read_from=path), problems


def _describe(exc: BaseException) -> str:
    if isinstance(exc, UnusableDatabaseError):
        return str(exc)
    name = getattr(exc, "sqlite_errorname", "")
    if name in _CORRUPT or isinstance(exc, ValueError):
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
            # One line: SQLite's first finding (its report may span lines, headed "***").
            lines = [ln for ln in str(check[0]).splitlines() if ln and not ln.startswith("***")]
            raise UnusableDatabaseError(
                f"corrupt (integrity check: {lines[0] if lines else check[0]})"
            )
        check_version(conn)
        migrate(conn)
        check_columns(conn)
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        # Another program may be reading along, but none may be writing: a database held
        # locked (a sqlite3 shell inside a transaction) is found now, not at the first save.
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("ROLLBACK")
    except BaseException:
        conn.close()
        raise
    return conn
