"""What was written, made to survive a power cut: a file's bytes and a folder's names are
on the disk only once fsynced. A file system may otherwise keep both in memory for tens of
seconds, and commit a file's name before its bytes (ext4's delayed allocation): after a
cut, a file that was "written" can be empty."""

from __future__ import annotations

import os
from pathlib import Path


def _fsync(path: str | Path, flags: int = os.O_RDONLY) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_dir(path: Path) -> None:
    """The names in folder ``path`` (files made, renamed or removed there) on the disk."""
    _fsync(path, os.O_RDONLY | os.O_DIRECTORY)


def sync_tree(root: Path) -> None:
    """Every file under ``root`` and every folder's names, ``root``'s own included, on the
    disk: call it before the rename that makes ``root`` count."""
    for folder, _, files in os.walk(root, topdown=False):
        for name in files:
            _fsync(os.path.join(folder, name))
        sync_dir(Path(folder))
