"""The command sweep's damage to the books' content (``command_sweep.py``): each kind
makes the data directory ``case.data`` of a :class:`Case` (a healthy cabinet database,
none, a stranger's, a newer or older schema, bytes scribbled over rows). The machine's
damage (read-only, locked, full) is :mod:`.sweep_machine_damages`."""

from __future__ import annotations

import contextlib
import dataclasses
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

from cabinet.storage.paths import DATABASE_NAME, database_path
from cabinet.storage.schema import MIGRATIONS, READERS_TABLE, SCHEMA_VERSION
from cabinet.storage.setting_table import RECORDS_KEPT, VOLUME
from cabinet.storage.store import CabinetStore
from tests.cabinet.clocks import WallClock
from tests.cabinet.storage.conftest import cpu_game

# -- the case's folder --------------------------------------------------------------------


@dataclasses.dataclass
class Case:
    """One case's folders: ``root`` is snapshotted whole; ``data`` is the data directory
    the command is given; ``io`` holds the command's own input and output files (not
    snapshotted); ``cleanup`` undoes what the damage did beyond files (locks, flags,
    mounts)."""

    root: Path
    io: Path
    cleanup: contextlib.ExitStack
    preexec: Callable[[], None] | None = None
    """Run in the child before the command (a file-size limit)."""

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def db(self) -> Path:
        return database_path(self.data)


def cabinet_database(data: Path, *, games: int = 1, wal: bool = False) -> Path:
    """A real cabinet database: volume 35, records_kept 500, ``games`` games (the first
    one played, the rest copies of its row), closed. ``wal``: a copy of its files taken
    while a writer had committed into the WAL and not yet checkpointed (a crash)."""
    store = CabinetStore.open(data, wall_clock=WallClock())
    store.settings.set(VOLUME, 35)
    store.settings.set(RECORDS_KEPT, 500)
    store.save_settings()
    game = cpu_game(1)
    store.record_game(game.record, game.summary)
    with store.db.transaction() as conn:
        for _ in range(games - 1):
            conn.execute(
                "INSERT INTO games (ended_at, players, levels, termination, winner, "
                "duration_ms, record) SELECT ended_at, players, levels, termination, winner, "
                "duration_ms, record FROM games ORDER BY id LIMIT 1"
            )
    if wal:
        conn = store.db.connection
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        store.settings.set(VOLUME, 45)
        store.save_settings()
        for suffix in ("", "-wal"):
            shutil.copyfile(data / (DATABASE_NAME + suffix), data / (DATABASE_NAME + suffix + ".x"))
        store.close()
        for suffix in ("", "-wal"):
            (data / (DATABASE_NAME + suffix + ".x")).replace(data / (DATABASE_NAME + suffix))
        return database_path(data)
    store.close()
    return database_path(data)


def _scribble(path: Path, find: bytes, replace: bytes) -> None:
    """Overwrite the one place ``find`` is in the file with ``replace`` (as long): a row's
    bytes changed, the page's structure not, so SQLite's quick_check still passes."""
    assert len(find) == len(replace)
    raw = path.read_bytes()
    assert raw.count(find) == 1, (find, raw.count(find))
    path.write_bytes(raw.replace(find, replace))
    conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    finally:
        conn.close()


class Unavailable(Exception):
    """This damage cannot be made here (no root for a mount)."""


# -- the damage: each makes ``case.data`` -------------------------------------------------


def healthy(case: Case) -> None:
    cabinet_database(case.data)


def healthy_with_wal(case: Case) -> None:
    """Committed transactions still in the WAL (the cabinet was switched off)."""
    cabinet_database(case.data, wal=True)


def absent(case: Case) -> None:
    """No data directory at all (a new cabinet)."""


def empty_directory(case: Case) -> None:
    case.data.mkdir()


def file_for_directory(case: Case) -> None:
    """A file where the data directory should be."""
    case.data.write_text("not a directory\n", encoding="utf-8")


def directory_for_database(case: Case) -> None:
    """A directory, with a file in it, in place of the database file."""
    case.db.mkdir(parents=True)
    (case.db / "keep.txt").write_text("mine\n", encoding="utf-8")


def symlink_to_strangers_database(case: Case) -> None:
    """The database is a link to another program's SQLite file outside the directory."""
    other = case.root / "elsewhere" / "notes.sqlite3"
    other.parent.mkdir()
    with contextlib.closing(sqlite3.connect(other)) as conn, conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO notes (text) VALUES ('mine')")
    case.data.mkdir()
    case.db.symlink_to(other)


def dangling_symlink(case: Case) -> None:
    case.data.mkdir()
    case.db.symlink_to(case.root / "gone.sqlite3")


def scribbled_setting(case: Case) -> None:
    """A stored setting's bytes scribbled (records_kept 500 reads ``5?0``) in a database
    of 230 games: quick_check passes; the setting reads as its default, 200."""
    path = cabinet_database(case.data, games=230)
    _scribble(path, b"records_kept500", b"records_kept5?0")


def scribbled_audit_time(case: Case) -> None:
    """A group's last-cleared time scribbled, passing quick_check."""
    path = cabinet_database(case.data)
    _scribble(path, b"power2025-03-01T12:00:00", b"power2025-0?-01T12:00:00")


def scribbled_record(case: Case) -> None:
    """A stored game's match record scribbled, passing quick_check."""
    path = cabinet_database(case.data)
    _scribble(path, b'"format":"spit-match"', b'"format":"spit-m?tch"')


def in_a_fleet(case: Case) -> None:
    """A healthy database of a cabinet that joined a fleet (the join file of ``io``)."""
    _joined(case)


def _joined(case: Case) -> Path:
    from cabinet.link import membership
    from fleet.join_file import read_join

    cabinet_database(case.data)
    store = CabinetStore.open(case.data, wall_clock=WallClock())
    with store.db.transaction() as conn:
        membership.join(conn, read_join(case.io / "join.json"))
    store.close()
    return case.db


def in_a_fleet_scribbled(case: Case) -> None:
    """In a fleet, and a group's last-cleared time scribbled (doctor reports to the fleet,
    and leaving it writes)."""
    _scribble(_joined(case), b"power2025-03-01T12:00:00", b"power2025-0?-01T12:00:00")


def newer_schema(case: Case, readable_from: int | None = SCHEMA_VERSION + 1) -> None:
    """A newer program's database (schema one higher, a table it added)."""
    path = cabinet_database(case.data)
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        conn.execute("CREATE TABLE future_things (id INTEGER PRIMARY KEY)")
        if readable_from is None:
            conn.execute(f"DROP TABLE {READERS_TABLE}")
        else:
            conn.execute(
                f"INSERT OR REPLACE INTO {READERS_TABLE} VALUES ('readable_from', ?)",
                (readable_from,),
            )


def newer_schema_readable(case: Case) -> None:
    """A newer program's database marked as usable by this one (its steps only added)."""
    newer_schema(case, SCHEMA_VERSION)


def newer_schema_unmarked(case: Case) -> None:
    newer_schema(case, None)


def older_schema(case: Case) -> None:
    """A database of schema 3 (before the fleet), as the program of then left it."""
    case.data.mkdir()
    with contextlib.closing(sqlite3.connect(case.db, isolation_level=None)) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        for version, script in enumerate(MIGRATIONS[:3]):
            conn.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {version + 1};\nCOMMIT;")
        conn.execute("PRAGMA application_id = 1397770580")
        conn.execute("INSERT INTO settings VALUES ('volume', '35')")
        conn.execute(
            "INSERT INTO audit_groups VALUES ('games', '2025-03-01T12:00:00+00:00'), "
            "('play', '2025-03-01T12:00:00+00:00'), ('hardware', '2025-03-01T12:00:00+00:00'), "
            "('power', '2025-03-01T12:00:00+00:00'), ('money', '2025-03-01T12:00:00+00:00')"
        )
        conn.execute("INSERT INTO audit_counters VALUES ('power.power_ons', 7, 7)")


def strangers_in_rollback_mode(case: Case) -> None:
    """Another program's database in rollback-journal mode, with a cabinet's tables."""
    case.data.mkdir()
    with contextlib.closing(sqlite3.connect(case.db)) as conn, conn:
        for table in ("settings", "audit_groups", "audit_counters", "games"):
            conn.execute(f"CREATE TABLE {table} (x)")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
