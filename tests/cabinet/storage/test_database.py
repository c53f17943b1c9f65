"""The database file: WAL and synchronous=FULL, migrations, and recovery from files that
are corrupt, unreadable, from a newer program, or locked."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from cabinet.storage.database import MIGRATIONS, SCHEMA_VERSION, migrate
from cabinet.storage.opening import open_database
from cabinet.storage.paths import database_path
from cabinet.storage.problems import DatabaseBusyError, ProblemKind
from cabinet.storage.schema import READERS_TABLE, readable_from
from cabinet.storage.setting_table import LANGUAGE, VOLUME
from cabinet.storage.store import CabinetStore
from tests.cabinet.clocks import WallClock

from .conftest import cpu_game


def test_wal_and_synchronous_full_are_set(store: CabinetStore, data_dir: Path) -> None:
    assert store.db.pragma("journal_mode") == "wal"
    assert store.db.pragma("synchronous") == 2  # FULL
    # WAL is a property of the file: another connection sees it too.
    with sqlite3.connect(database_path(data_dir)) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_new_database_has_the_current_schema(store: CabinetStore) -> None:
    assert store.db.pragma("user_version") == SCHEMA_VERSION == len(MIGRATIONS)
    tables = {r[0] for r in store.db.connection.execute("SELECT name FROM sqlite_master")}
    assert {"settings", "audit_groups", "audit_counters", "games"} <= tables
    assert store.problems == []


def test_migrate_takes_an_empty_database_through_every_step() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    assert migrate(conn) == 0
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert migrate(conn) == SCHEMA_VERSION  # nothing left to do


def test_a_failed_migration_leaves_the_version_alone() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE settings (x)")  # the first migration will collide
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    assert not conn.in_transaction


def _reopen_after(
    damage: Callable[[Path], None], data_dir: Path, wall_clock: WallClock
) -> tuple[CabinetStore, Path]:
    first = CabinetStore.open(data_dir, wall_clock=wall_clock)
    first.settings.set(VOLUME, 35)
    first.save_settings()
    first.close()
    path = database_path(data_dir)
    damage(path)
    wall_clock.advance(hours=1)
    return CabinetStore.open(data_dir, wall_clock=wall_clock), path


def _garbage_over_everything(path: Path) -> None:
    size = path.stat().st_size
    path.write_bytes(bytes((i * 37 + 11) % 256 for i in range(size)))


def _garbage_over_the_pages(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for i in range(120, len(data)):  # the 100-byte header stays intact
        data[i] = (i * 131 + 7) % 256
    path.write_bytes(bytes(data))


def _a_directory_in_its_place(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _from_a_newer_program(path: Path) -> None:
    """A newer program's step that older ones cannot read: it raised the mark."""
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        conn.execute(f"UPDATE {READERS_TABLE} SET value = {SCHEMA_VERSION + 1}")


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (_garbage_over_everything, "corrupt"),
        (_garbage_over_the_pages, "corrupt"),
        (_a_directory_in_its_place, "unreadable"),
        (_from_a_newer_program, "newer program"),
    ],
)
def test_a_bad_database_is_moved_aside_and_the_cabinet_starts_on_defaults(
    damage: Callable[[Path], None], reason: str, data_dir: Path, wall_clock: WallClock
) -> None:
    store, path = _reopen_after(damage, data_dir, wall_clock)
    try:
        assert store.settings.get(VOLUME) == VOLUME.default
        assert store.path == path and path.is_file()
        (problem,) = store.problems
        assert problem.kind is ProblemKind.DATABASE_MOVED_ASIDE
        assert reason in problem.message
        assert problem.moved_to == path.with_name("cabinet.sqlite3.bad-20250301T130000Z")
        assert problem.moved_to.exists()
        # The fresh database works and keeps what is written next.
        store.settings.set(LANGUAGE, "fi")
        store.save_settings()
    finally:
        store.close()
    again = CabinetStore.open(data_dir, wall_clock=wall_clock)
    assert again.problems == [] and again.settings.get(LANGUAGE) == "fi"
    again.close()


def test_a_second_bad_database_in_the_same_second_gets_its_own_name(
    data_dir: Path, wall_clock: WallClock
) -> None:
    moved = []
    for _ in range(2):
        store, _path = _reopen_after(_garbage_over_everything, data_dir, wall_clock)
        wall_clock.advance(hours=-1)  # the same moment both times
        moved.append(store.problems[0].moved_to)
        store.close()
    assert moved[0] is not None and moved[1] is not None
    assert moved[1].name == moved[0].name + "-2"
    assert moved[0].exists() and moved[1].exists()


def test_a_data_directory_that_cannot_be_made_runs_in_memory(
    tmp_path: Path, wall_clock: WallClock
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the data directory should be")
    store = CabinetStore.open(blocker / "data", wall_clock=wall_clock)
    (problem,) = store.problems
    assert problem.kind is ProblemKind.NOT_SAVING
    assert store.path is None and store.db.in_memory
    game = cpu_game(1)
    assert store.record_game(game.record, game.summary) == 1  # still works, keeps nothing
    assert store.audits.games.current.vs_cpu == 1
    store.close()


def test_a_locked_database_is_not_moved_aside(data_dir: Path, wall_clock: WallClock) -> None:
    store = CabinetStore.open(data_dir, wall_clock=wall_clock, busy_timeout_s=0.05)
    holder = sqlite3.connect(database_path(data_dir), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program is writing
    try:
        game = cpu_game(2)
        with pytest.raises(DatabaseBusyError):
            store.record_game(game.record, game.summary)
        # Nothing was counted: memory matches the database.
        assert store.audits.games.current.played == 0
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.record_game(game.record, game.summary) == 1
    assert store.problems == []
    store.close()


def test_open_database_reports_nothing_for_a_healthy_file(data_dir: Path) -> None:
    db, problems = open_database(database_path(data_dir))
    assert problems == [] and db.path == database_path(data_dir)
    db.close()


def _marked_readable_from(readable: int) -> Callable[[Path], None]:
    """A newer program's database that says which older schemas may still use it."""

    def damage(path: Path) -> None:
        with sqlite3.connect(path) as conn:
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
            conn.execute(
                f"CREATE TABLE IF NOT EXISTS {READERS_TABLE} (name TEXT PRIMARY KEY, value INTEGER)"
            )
            conn.execute(
                f"INSERT OR REPLACE INTO {READERS_TABLE} VALUES ('readable_from', ?)", (readable,)
            )
            conn.execute("CREATE TABLE future_things (id INTEGER PRIMARY KEY)")  # what it added

    return damage


def test_a_newer_database_that_this_program_may_read_is_used_as_it_is(
    data_dir: Path, wall_clock: WallClock
) -> None:
    """Rolling back after an update whose steps only added to the database: the older
    program keeps the data (it would otherwise set it aside and start on defaults)."""
    first = CabinetStore.open(data_dir, wall_clock=wall_clock)
    first.settings.set(VOLUME, 35)
    first.save_settings()
    first.close()
    _marked_readable_from(SCHEMA_VERSION)(database_path(data_dir))
    again = CabinetStore.open(data_dir, wall_clock=wall_clock)
    try:
        assert again.problems == []
        assert again.settings.get(VOLUME) == 35
        assert again.db.pragma("user_version") == SCHEMA_VERSION + 1  # not migrated back
        again.save_settings()  # and it writes, too
    finally:
        again.close()
    assert not list(data_dir.glob("*.bad-*"))


def test_a_newer_database_marked_for_newer_readers_only_is_still_set_aside(
    data_dir: Path, wall_clock: WallClock
) -> None:
    CabinetStore.open(data_dir, wall_clock=wall_clock).close()
    _marked_readable_from(SCHEMA_VERSION + 1)(database_path(data_dir))
    again = CabinetStore.open(data_dir, wall_clock=wall_clock)
    try:
        assert any("newer program" in p.message for p in again.problems)
        assert again.settings.get(VOLUME) == VOLUME.default
    finally:
        again.close()
    assert list(data_dir.glob("*.bad-*"))


def test_the_outbox_step_lets_the_program_before_it_keep_the_data() -> None:
    """Schema 4 only added the outbox and the fleet's table: it marks schema 3 as able to
    use it, so a rollback to a program before the fleet keeps the cabinet's data."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn)
    assert readable_from(conn) == 3 and SCHEMA_VERSION >= 4
    epoch = conn.execute("SELECT value FROM fleet WHERE name = 'epoch'").fetchone()[0]
    assert len(epoch) == 16 and int(epoch, 16) >= 0
    conn.close()


def test_the_fairness_step_only_adds_so_the_program_before_the_fleet_keeps_the_data() -> None:
    """Schema 5 only added the fairness certificates' table: schema 3 may still use it."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn)
    assert SCHEMA_VERSION == 5 and readable_from(conn) == 3
    assert conn.execute("SELECT count(*) FROM fairness").fetchone() == (0,)
    conn.close()
