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

A database is set aside only for what is in it: a full disk, a failing card or a missing
permission (SQLite's I/O, full, can't-open and permission errors) never make a good file
"bad"; the cabinet then reads it into memory, and a command gets its one line. The checks
that can refuse a file (SQLite's ``quick_check``, the schema's version and columns) run
through the read-only connection too, before anything is changed. Where the cabinet's
own database must be changed in place to be used (an older schema migrated, the mark
written, switched to WAL), a copy of its files as they were is kept first
(``<name>.copy-<UTC time>``, :func:`~cabinet.storage.files.copy_aside`) and reported; if
no copy can be kept (a full disk), nothing is changed: the cabinet reads it into memory
and a command that writes gets a :class:`StorageError`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import logging
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from cabinet.storage.files import copy_aside, files_exist, move_aside, writable
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

#: SQLite's errors (and their extended codes) that tell of the machine, not of the file's
#: content: a full disk, a failing card, a permission, a lock. A file never is set aside
#: for one of them.
_MACHINE = (
    "SQLITE_IOERR", "SQLITE_FULL", "SQLITE_CANTOPEN", "SQLITE_NOMEM", "SQLITE_PERM",
    "SQLITE_READONLY", "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_NOLFS", "SQLITE_AUTH",
    "SQLITE_PROTOCOL",
)  # fmt: skip


def _of_the_machine(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.Error) and getattr(exc, "sqlite_errorname", "").startswith(
        _MACHINE
    )


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
    found = _inspect(path, busy_timeout_s, check=True)
    stranger = found.stranger
    if stranger is None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            why = f"cannot create the data directory {path.parent}: {exc}"
            if access is Access.WRITE:
                raise StorageError(why) from exc
            return _in_memory(problems, why)
        kept: list[StorageProblem] = []

        def keep_copy(conn: sqlite3.Connection, changes: tuple[str, ...]) -> None:
            copy = copy_aside(conn, path, wall_clock())
            kept.append(
                StorageProblem(
                    ProblemKind.DATABASE_COPIED,
                    f"the database {path.name} was {' and '.join(changes)}; a copy of it as "
                    f"it was is kept at {copy.name}",
                    subject=path.name,
                    copy=copy,
                )
            )

        try:
            conn = _connect(path, busy_timeout_s, checked=found.checked, keep_copy=keep_copy)
        except _NoCopyError as exc:
            why = (
                f"{path.name} must be {' and '.join(exc.changes)} to be used, and no copy of "
                f"it can be kept first ({exc.reason})"
            )
            if access is Access.WRITE:
                raise StorageError(f"{path}: {why}: nothing was changed") from exc
            return _read_into_memory(path, problems, busy_timeout_s, why)
        except _UNREADABLE as exc:
            for problem in kept:  # changed, then refused: the copy is said all the same
                log.warning("%s", problem.message)
            problems.extend(kept)
            name = getattr(exc, "sqlite_errorname", "")
            if name in _BUSY:
                if access is Access.WRITE:
                    raise DatabaseBusyError(
                        f"{path} is locked by another program (waited {busy_timeout_s:g} s)"
                    ) from exc
                return _read_into_memory(
                    path, problems, busy_timeout_s, f"{path.name} is locked by another program"
                )
            if name.startswith("SQLITE_READONLY") or (path.exists() and not writable(path)):
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
            if _of_the_machine(exc):  # a full disk, a failing card: not the file's fault
                why = f"cannot be written ({exc}{_disk_full(path)})"
                if access is Access.WRITE:
                    raise StorageError(f"{path} {why}") from exc
                return _read_into_memory(path, problems, busy_timeout_s, f"{path.name} {why}")
            stranger = _describe(exc)
        else:
            for problem in kept:
                log.warning("%s", problem.message)
            return Database(conn, path), [*problems, *kept]
    if access is Access.WRITE:
        done = "nothing was changed"
        if problems and problems[-1].copy is not None:
            done = f"a copy of it as it was before is kept at {problems[-1].copy.name}"
        raise StorageError(f"{path} is {stranger}: {done}")
    return _set_aside(path, stranger, problems, wall_clock, busy_timeout_s)


FULL_BELOW_BYTES = 1 << 20
"""Free space (bytes) below which a disk is said to be full, when SQLite cannot write."""


def _disk_full(path: Path) -> str:
    """``"; the disk is full"`` when the directory's disk has (almost) no space left."""
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        return ""
    return f"; the disk is full ({free // 1024} KiB free)" if free < FULL_BELOW_BYTES else ""


def read_into_memory(
    path: Path, why: str, *, busy_timeout_s: float = BUSY_TIMEOUT_S
) -> tuple[Database, list[StorageProblem]]:
    """For the cabinet (``RUN``): the database at ``path``, which must not be written
    (``why``), read into memory; nothing is saved, and the problem says so."""
    return _read_into_memory(path, [], busy_timeout_s, why)


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
    (With one, a crash left transactions in it, which only a WAL reader sees. An empty one
    holds none: a writer that could not start, on a full disk, leaves one.)"""
    try:
        wal = path.with_name(path.name + "-wal").stat().st_size > 0
    except OSError:
        wal = False
    uri = "file:" + quote(str(path)) + ("?mode=ro" if wal else "?mode=ro&immutable=1")
    return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=busy_timeout_s)


class _NoCopyError(Exception):
    """The database must be changed in place to be used, and no copy of it can be kept
    first (nothing was changed)."""

    def __init__(self, changes: tuple[str, ...], reason: str) -> None:
        super().__init__(f"{', '.join(changes)}: {reason}")
        self.changes = changes
        self.reason = reason


@dataclasses.dataclass(frozen=True, slots=True)
class _Found:
    """What :func:`_inspect` found of a file, looking through a read-only connection."""

    stranger: str | None = None
    """What the file is when the cabinet cannot use it ("corrupt (…)", "another
    program's database (…)"); ``None`` when it can, or when opening it will tell."""
    checked: bool = False
    """Whether SQLite's quick_check and the schema's checks passed."""


def _inspect(path: Path, busy_timeout_s: float, *, check: bool = False) -> _Found:
    """What the file at ``path`` is, found without changing it: absent, empty, the
    cabinet's (and, with ``check``, whether it passes SQLite's quick_check and is of a
    schema this program can use) or not."""
    try:
        if not path.exists() or (path.is_file() and path.stat().st_size == 0):
            return _Found()
    except OSError as exc:
        return _Found(f"unreadable ({exc})")
    if not path.is_file():
        return _Found("unreadable (not a file)")
    try:
        conn = _read_only_connection(path, busy_timeout_s)
    except sqlite3.Error as exc:
        return _Found() if _of_the_machine(exc) else _Found(_describe(exc))
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        stranger = _stranger(app_id, version, tables)
        if stranger is not None or not check:
            return _Found(stranger)
        if app_id == 0 and version == 0 and not tables:
            return _Found()  # an empty database: nothing in it to check or keep
        _check(conn)
        if version >= SCHEMA_VERSION:
            check_columns(conn)
    except _UNREADABLE as exc:
        # The machine's errors (a lock, a full disk): the cabinet's own opening says.
        return _Found() if _of_the_machine(exc) else _Found(_describe(exc))
    finally:
        conn.close()
    return _Found(None, checked=True)


def _stranger(app_id: int, version: int, tables: set[str]) -> str | None:
    """``None`` when a file with this mark, version and tables is the cabinet's database
    (or an empty one); else what it is."""
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


def _check(conn: sqlite3.Connection) -> None:
    """Raise :class:`UnusableDatabaseError` unless the database passes SQLite's
    quick_check and is of a schema this program reads."""
    check = [row[0] for row in conn.execute("PRAGMA quick_check")]
    if check != ["ok"]:
        # One line: SQLite's first finding (its report may span lines, headed "***").
        lines = [ln for ln in str(check[0]).splitlines() if ln and not ln.startswith("***")]
        raise UnusableDatabaseError(f"corrupt (integrity check: {lines[0] if lines else check[0]})")
    check_version(conn)


def _read_only(path: Path, busy_timeout_s: float) -> Database:
    """The database read into memory through a read-only connection (``READ``)."""
    if not files_exist(path):
        conn = sqlite3.connect(":memory:", isolation_level=None)
        migrate(conn)
        return Database(conn, None)
    stranger = _inspect(path, busy_timeout_s).stranger
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


def _connect(
    path: Path,
    busy_timeout_s: float,
    *,
    checked: bool = False,
    keep_copy: Callable[[sqlite3.Connection, tuple[str, ...]], None] | None = None,
) -> sqlite3.Connection:
    """A connection that writes the database at ``path``, made ready: WAL, synchronous
    FULL, the current schema, the mark. ``checked``: :func:`_inspect` has run the checks
    already. When that changes a database that holds anything, ``keep_copy`` is called
    first, with the connection and what will change; raises :class:`_NoCopyError`
    (nothing changed) when it raises :class:`OSError`."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=busy_timeout_s)
    try:
        # Another program may be reading along, but none may be writing: a database held
        # locked (a sqlite3 shell inside a transaction) is found now, not at the first save.
        # And SQLite opens a file it may not write read-only, without a word: a write that
        # is rolled back finds that now too.
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            conn.execute(f"PRAGMA user_version = {version}")
            if not checked:
                _check(conn)
            changes = _changes(conn)
        finally:
            conn.execute("ROLLBACK")
        if changes and keep_copy is not None:
            try:
                keep_copy(conn, changes)
            except OSError as exc:
                raise _NoCopyError(changes, str(exc.strerror or exc)) from exc
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise UnusableDatabaseError(f"unusable (its journal cannot be WAL: {mode})")
        conn.execute("PRAGMA synchronous=FULL")
        check_version(conn)
        migrate(conn)
        check_columns(conn)
        if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    except BaseException:
        conn.close()
        raise
    return conn


def _changes(conn: sqlite3.Connection) -> tuple[str, ...]:
    """What making the database ready will change in it ("migrated from schema 3 to 5",
    "marked as the cabinet's", "switched to WAL"); nothing for one that holds nothing.
    Call it inside a transaction (the file's header read, not what the connection
    assumes of a file it has not read yet)."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if version == 0 and app_id == 0 and not tables:
        return ()  # new, or empty: nothing in it to keep
    changes = []
    if version < SCHEMA_VERSION:
        changes.append(f"migrated from schema {version} to {SCHEMA_VERSION}")
    if app_id != APPLICATION_ID:
        changes.append("marked as the cabinet's")
    if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() != "wal":
        changes.append("switched to WAL")
    return tuple(changes)
