"""What went wrong while opening or reading the stored data, for the screen and the log.

Opening the storage never fails on bad data: a corrupt database is moved aside, and a
bad setting falls back to its default (a copy of the database kept before the setting is
replaced in it). Each such event becomes a :class:`StorageProblem` that the cabinet shows
on screen (translated by its :attr:`~StorageProblem.kind`) and writes to the log (its
English :attr:`~StorageProblem.message`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path


class ProblemKind(enum.Enum):
    """What kind of problem was found."""

    DATABASE_MOVED_ASIDE = "database_moved_aside"
    """The database was corrupt or unreadable; it was renamed and a fresh one started."""
    DATABASE_COPIED = "database_copied"
    """The database was changed in place to be used (migrated to this program's schema,
    or what could not be read in it replaced); a copy of it as it was is kept."""
    NOT_SAVING = "not_saving"
    """No database could be opened or created; the cabinet runs on defaults and keeps
    nothing (settings, audits and games are lost at power-off)."""
    SETTING_REPLACED = "setting_replaced"
    """A stored setting's value was not valid; its default is used instead."""
    UNREADABLE_DATA = "unreadable_data"
    """A stored audit row could not be read; it starts again (from now, or 0)."""
    UNKNOWN_SETTING = "unknown_setting"
    """The database holds a setting this program does not know; it is ignored."""


@dataclass(frozen=True, slots=True)
class StorageProblem:
    """One problem found; :attr:`message` is a whole English sentence for the log."""

    kind: ProblemKind
    message: str
    subject: str | None = None
    """The setting's name, or the database file's name."""
    moved_to: Path | None = None
    """Where a database moved aside now is."""
    copy: Path | None = None
    """Where the copy of a database changed in place is kept, as it was before."""

    def __str__(self) -> str:
        return self.message


class StorageError(RuntimeError):
    """Writing to the database failed (disk full, card failing, file removed); nothing of
    the failed transaction was written."""


class DatabaseBusyError(StorageError):
    """Another process holds the database locked for longer than the busy timeout (for
    example a second cabinet program on the same data directory)."""
