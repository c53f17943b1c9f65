"""The database's files on disk: whether any is there, whether it may be written, and
moving a bad one aside (with its ``-wal``, ``-shm`` and ``-journal`` files)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path


def files_exist(path: Path) -> bool:
    return any(path.with_name(path.name + suffix).exists() for suffix in ("", "-wal", "-journal"))


def writable(path: Path) -> bool:
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def move_aside(path: Path, at: datetime) -> Path:
    """Rename the database and its WAL, shared-memory and journal files to
    ``<name>.bad-<YYYYmmddTHHMMSSZ>[-n]``; returns the new database path."""
    stamp = at.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    base = path.with_name(f"{path.name}.bad-{stamp}")
    target = base
    n = 1
    while target.exists():
        n += 1
        target = base.with_name(f"{base.name}-{n}")
    for suffix in ("-wal", "-shm", "-journal"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.replace(target.with_name(target.name + suffix))
    if path.exists():
        path.replace(target)
    return target
