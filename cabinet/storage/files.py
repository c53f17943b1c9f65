"""The database's files on disk: whether any is there, whether it may be written, moving
a bad one aside (with its ``-wal``, ``-shm`` and ``-journal`` files), and keeping a copy
of one before it is changed in place."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from cabinet.storage.durable import sync_dir

_SIDE_FILES = ("-wal", "-shm", "-journal")


def files_exist(path: Path) -> bool:
    return any(path.with_name(path.name + suffix).exists() for suffix in ("", "-wal", "-journal"))


def writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _free_name(path: Path, label: str, at: datetime) -> Path:
    """``<name>.<label>-<YYYYmmddTHHMMSSZ>[-n]``, a name nothing has yet."""
    stamp = at.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    base = path.with_name(f"{path.name}.{label}-{stamp}")
    target = base
    n = 1
    while any(target.with_name(target.name + s).exists() for s in ("", *_SIDE_FILES)):
        n += 1
        target = base.with_name(f"{base.name}-{n}")
    return target


def move_aside(path: Path, at: datetime) -> Path:
    """Rename the database and its WAL, shared-memory and journal files to
    ``<name>.bad-<YYYYmmddTHHMMSSZ>[-n]``; returns the new database path."""
    target = _free_name(path, "bad", at)
    for suffix in _SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.replace(target.with_name(target.name + suffix))
    if path.exists():
        path.replace(target)
    return target


def copy_aside(conn: sqlite3.Connection, path: Path, at: datetime) -> Path:
    """Copy the database at ``path``, open on ``conn``, to
    ``<name>.copy-<YYYYmmddTHHMMSSZ>[-n]`` before anything in it is changed in place;
    returns the copy's path. SQLite's backup copies what the database holds, its WAL's
    transactions with it, as one consistent snapshot, page for page (its schema version
    and mark too), and its own commit syncs it to the disk. It reads through ``conn``:
    reading the file any other way, and closing it, would let go of the locks SQLite holds
    on it in this process. Call it outside a transaction. Raises :class:`OSError` (a full
    disk), with no partial copy left behind."""
    target = _free_name(path, "copy", at)
    try:
        copy = sqlite3.connect(target, isolation_level=None)
        try:
            conn.backup(copy)
        finally:
            copy.close()
        sync_dir(path.parent)  # the copy's name, too
    except (OSError, sqlite3.Error) as exc:
        for suffix in ("", "-journal", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                target.with_name(target.name + suffix).unlink()
        if isinstance(exc, OSError):
            raise
        raise OSError(f"cannot write {target.name}: {exc}") from exc
    return target
