"""Connections to the database file: one that cannot change it, one that writes it made
ready (WAL, synchronous FULL, the current schema, the mark; what that changes in a
database holding anything said first, so that a copy can be kept), and the checks a file
must pass to be used (:mod:`cabinet.storage.opening` decides what to do with them)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from cabinet.storage.schema import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    UnusableDatabaseError,
    check_columns,
    check_version,
    migrate,
)


def read_only_connection(path: Path, busy_timeout_s: float) -> sqlite3.Connection:
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


class NoCopyError(Exception):
    """The database must be changed in place to be used, and no copy of it can be kept
    first (nothing was changed)."""

    def __init__(self, changes: tuple[str, ...], reason: str) -> None:
        super().__init__(f"{', '.join(changes)}: {reason}")
        self.changes = changes
        self.reason = reason


def check_usable(conn: sqlite3.Connection) -> None:
    """Raise :class:`UnusableDatabaseError` unless the database passes SQLite's
    quick_check and is of a schema this program reads."""
    check = [row[0] for row in conn.execute("PRAGMA quick_check")]
    if check != ["ok"]:
        # One line: SQLite's first finding (its report may span lines, headed "***").
        lines = [ln for ln in str(check[0]).splitlines() if ln and not ln.startswith("***")]
        raise UnusableDatabaseError(f"corrupt (integrity check: {lines[0] if lines else check[0]})")
    check_version(conn)


def copy_into_memory(path: Path, busy_timeout_s: float) -> sqlite3.Connection:
    """An in-memory copy of the database at ``path`` (read through
    :func:`read_only_connection`), migrated to this program's schema."""
    source = read_only_connection(path, busy_timeout_s)
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


def connect(
    path: Path,
    busy_timeout_s: float,
    *,
    checked: bool = False,
    keep_copy: Callable[[sqlite3.Connection, tuple[str, ...]], None] | None = None,
) -> sqlite3.Connection:
    """A connection that writes the database at ``path``, made ready: WAL, synchronous
    FULL, the current schema, the mark. ``checked``: the opening's look at the file has
    run :func:`check_usable` already. When that changes a database that holds anything,
    ``keep_copy`` is called first, with the connection and what will change; raises
    :class:`NoCopyError` (nothing changed) when it raises :class:`OSError`."""
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
                check_usable(conn)
            changes = _changes(conn)
        finally:
            conn.execute("ROLLBACK")
        if changes and keep_copy is not None:
            try:
                keep_copy(conn, changes)
            except OSError as exc:
                raise NoCopyError(changes, str(exc.strerror or exc)) from exc
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
