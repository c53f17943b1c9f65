"""Opening the cabinet's database safely: :func:`open_database`.

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

import dataclasses
import logging
import shutil
import sqlite3
from pathlib import Path

from cabinet.storage.connections import (
    NoCopyError,
    check_usable,
    connect,
    copy_into_memory,
    read_only_connection,
)
from cabinet.storage.database import (
    BUSY,
    BUSY_TIMEOUT_S,
    UNREADABLE,
    Access,
    Database,
    WallClock,
    describe,
    of_the_machine,
    utc_now,
)
from cabinet.storage.fallbacks import in_memory, read_into_memory, set_aside
from cabinet.storage.files import copy_aside, files_exist, writable
from cabinet.storage.problems import (
    DatabaseBusyError,
    ProblemKind,
    StorageError,
    StorageProblem,
)
from cabinet.storage.schema import (
    APPLICATION_ID,
    CABINET_TABLES,
    SCHEMA_VERSION,
    check_columns,
    migrate,
)

log = logging.getLogger("cabinet.storage")

Opened = tuple[Database, list[StorageProblem]]
"""An open database and the problems found opening it."""


def open_database(
    path: Path,
    *,
    access: Access = Access.RUN,
    wall_clock: WallClock = utc_now,
    busy_timeout_s: float = BUSY_TIMEOUT_S,
) -> Opened:
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
            return in_memory(why)
        opened = _open_to_write(path, found.checked, access, wall_clock, busy_timeout_s, problems)
        if not isinstance(opened, str):
            return opened
        stranger = opened
    if access is Access.WRITE:
        done = "nothing was changed"
        if problems and problems[-1].copy is not None:
            done = f"a copy of it as it was before is kept at {problems[-1].copy.name}"
        raise StorageError(f"{path} is {stranger}: {done}")
    return _after(
        problems, set_aside(path, stranger, wall_clock=wall_clock, busy_timeout_s=busy_timeout_s)
    )


def _open_to_write(
    path: Path,
    checked: bool,
    access: Access,
    wall_clock: WallClock,
    busy_timeout_s: float,
    problems: list[StorageProblem],
) -> Opened | str:
    """The cabinet's database at ``path`` (or none yet) opened to write (``RUN`` or
    ``WRITE``); or, when it turns out unusable, what it is, the copies kept of it before
    that added to ``problems``. ``checked``: :func:`_inspect` has run the checks."""
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
        conn = connect(path, busy_timeout_s, checked=checked, keep_copy=keep_copy)
    except NoCopyError as exc:
        why = (
            f"{path.name} must be {' and '.join(exc.changes)} to be used, and no copy of "
            f"it can be kept first ({exc.reason})"
        )
        if access is Access.WRITE:
            raise StorageError(f"{path}: {why}: nothing was changed") from exc
        return _after(problems, read_into_memory(path, why, busy_timeout_s=busy_timeout_s))
    except UNREADABLE as exc:
        for problem in kept:  # changed, then refused: the copy is said all the same
            log.warning("%s", problem.message)
        problems.extend(kept)
        return _refused(path, exc, access, busy_timeout_s, problems)
    for problem in kept:
        log.warning("%s", problem.message)
    return Database(conn, path), [*problems, *kept]


def _refused(
    path: Path,
    exc: BaseException,
    access: Access,
    busy_timeout_s: float,
    problems: list[StorageProblem],
) -> Opened | str:
    """What opening the file at ``path`` to write comes to when it raised ``exc``: for
    the machine's reasons (a lock, read-only, a full disk) the database read into memory
    (``RUN``) or a :class:`StorageError` (``WRITE``); else what the file is."""
    name = getattr(exc, "sqlite_errorname", "")
    if name in BUSY:
        if access is Access.WRITE:
            raise DatabaseBusyError(
                f"{path} is locked by another program (waited {busy_timeout_s:g} s)"
            ) from exc
        why = f"{path.name} is locked by another program"
        return _after(problems, read_into_memory(path, why, busy_timeout_s=busy_timeout_s))
    if name.startswith("SQLITE_READONLY") or (path.exists() and not writable(path)):
        if access is Access.WRITE:
            raise StorageError(f"{path} cannot be written (read-only)") from exc
        why = f"{path.name} cannot be written (read-only)"
        return _after(problems, read_into_memory(path, why, busy_timeout_s=busy_timeout_s))
    if not files_exist(path):
        why = f"a database cannot be created in {path.parent}: {describe(exc)}"
        if access is Access.WRITE:
            raise StorageError(why) from exc
        return _after(problems, in_memory(why))
    if of_the_machine(exc):  # a full disk, a failing card: not the file's fault
        why = f"cannot be written ({exc}{_disk_full(path)})"
        if access is Access.WRITE:
            raise StorageError(f"{path} {why}") from exc
        why = f"{path.name} {why}"
        return _after(problems, read_into_memory(path, why, busy_timeout_s=busy_timeout_s))
    return describe(exc)


def _after(problems: list[StorageProblem], opened: Opened) -> Opened:
    """``opened`` with ``problems`` (found first) before its own."""
    db, more = opened
    return db, [*problems, *more]


FULL_BELOW_BYTES = 1 << 20
"""Free space (bytes) below which a disk is said to be full, when SQLite cannot write."""


def _disk_full(path: Path) -> str:
    """``"; the disk is full"`` when the directory's disk has (almost) no space left."""
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        return ""
    return f"; the disk is full ({free // 1024} KiB free)" if free < FULL_BELOW_BYTES else ""


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
        conn = read_only_connection(path, busy_timeout_s)
    except sqlite3.Error as exc:
        return _Found() if of_the_machine(exc) else _Found(describe(exc))
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
        check_usable(conn)
        if version >= SCHEMA_VERSION:
            check_columns(conn)
    except UNREADABLE as exc:
        # The machine's errors (a lock, a full disk): the cabinet's own opening says.
        return _Found() if of_the_machine(exc) else _Found(describe(exc))
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
        return Database(copy_into_memory(path, busy_timeout_s), None, read_from=path)
    except UNREADABLE as exc:
        if getattr(exc, "sqlite_errorname", "") in BUSY:
            raise DatabaseBusyError(f"{path} is locked by another program") from exc
        raise StorageError(f"{path} cannot be read: {describe(exc)}") from exc
