"""Checks of values read from outside (records, settings, messages), shared by every
package that may import ``game``.

>>> is_int(3), is_int(True), is_int(3.0)
(True, False, False)
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TypeGuard


def is_int(value: object) -> TypeGuard[int]:
    """An int that is not a bool: JSON's and TOML's ``true`` is no count."""
    return isinstance(value, int) and not isinstance(value, bool)


class UnreadableFileError(ValueError):
    """A file that is not read: a device, a directory, a socket, or over the limit."""


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, a regular file or a pipe of at most ``limit`` bytes: a
    device or a directory is refused before it is opened, and no more than ``limit + 1``
    bytes are ever read (:class:`UnreadableFileError` says which; :class:`OSError` when
    it cannot be read)."""
    kind = unreadable_kind(path.stat().st_mode)
    if kind is not None:
        raise UnreadableFileError(f"{path} is {kind}: only a regular file or a pipe is read")
    with path.open("rb") as f:
        raw = f.read(limit + 1)
    if len(raw) > limit:
        raise UnreadableFileError(f"{path} is larger than the limit of {limit} bytes")
    return raw


def unreadable_kind(mode: int) -> str | None:
    """What a file that is neither a regular file nor a pipe is, or ``None``."""
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return None
    for test, kind in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return kind
    return "not a regular file"
