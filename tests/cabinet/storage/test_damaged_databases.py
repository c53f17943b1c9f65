"""A corpus of damaged databases, and what each kind of opener does with it.

The cabinet (``Access.RUN``) always starts: what it cannot use is moved aside untouched
(byte for byte), read into memory, or replaced by defaults, and each is reported. A
command that writes (``WRITE``) or reads (``READ``) gets one clear error instead and
changes nothing. Nobody changes a file that is not the cabinet's.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import struct
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cabinet.commands.cli import main
from cabinet.storage.audits import AuditGroup
from cabinet.storage.database import APPLICATION_ID, Access
from cabinet.storage.paths import database_path
from cabinet.storage.problems import DatabaseBusyError, ProblemKind, StorageError
from cabinet.storage.setting_table import VOLUME
from cabinet.storage.store import CabinetStore
from tests.cabinet.clocks import WallClock

from .conftest import cpu_game

ROOT = Path(__file__).resolve().parents[3]


def cabinet_database(data: Path, volume: int = 35) -> Path:
    """A real cabinet database with a changed setting and a game, closed."""
    store = CabinetStore.open(data, wall_clock=WallClock())
    store.settings.set(VOLUME, volume)
    store.save_settings()
    game = cpu_game(1)
    store.record_game(game.record, game.summary)
    store.close()
    return database_path(data)


def files(data: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(data.iterdir()) if p.is_file()}


# -- the corpus: each makes the data directory's state and says what the cabinet finds ----


def truncated(data: Path) -> None:
    path = cabinet_database(data)
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.truncate(size // 2)


def random_pages(data: Path) -> None:
    path = cabinet_database(data)
    raw = bytearray(path.read_bytes())
    for i in range(4096, len(raw), 7):  # page 1 (the header and schema) stays
        raw[i] = (i * 131 + 7) % 256
    path.write_bytes(bytes(raw))


def stranger_with_version(data: Path) -> None:
    """Another program's database that happens to have user_version 1."""
    data.mkdir(parents=True)
    with sqlite3.connect(database_path(data)) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO notes (text) VALUES ('mine')")
        conn.execute("PRAGMA user_version = 1")
    conn.close()


def stranger_without_version(data: Path) -> None:
    """Another program's database, user_version 0 (the one the cabinet used to take over)."""
    data.mkdir(parents=True)
    with sqlite3.connect(database_path(data)) as conn:
        conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO photos (name) VALUES ('cat.jpg')")
    conn.close()


def stranger_with_its_own_mark(data: Path) -> None:
    data.mkdir(parents=True)
    with sqlite3.connect(database_path(data)) as conn:
        conn.execute("CREATE TABLE settings (name TEXT, value TEXT)")
        conn.execute("PRAGMA application_id = 1234")
        conn.execute("PRAGMA user_version = 1")
    conn.close()


def not_sqlite(data: Path) -> None:
    data.mkdir(parents=True)
    database_path(data).write_text("these are someone's notes\n" * 200, encoding="utf-8")


def garbled_rows(data: Path) -> None:
    path = cabinet_database(data)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE audit_groups SET cleared_at = 'the 5th of never' WHERE name = 'games'")
        conn.execute("UPDATE audit_counters SET current = 'lots' WHERE name = 'games.vs_cpu'")
        conn.execute("INSERT INTO settings (name, value) VALUES ('language', x'00ff')")
        conn.execute("INSERT INTO settings (name, value) VALUES (x'0102', '1')")
        conn.execute("INSERT OR REPLACE INTO settings (name, value) VALUES ('best_of', '[[[[')")
    conn.close()


def from_before_the_mark(data: Path) -> None:
    """A cabinet database written before the application id: the cabinet's all the same."""
    path = cabinet_database(data, volume=45)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA application_id = 0")
    conn.close()


def empty_file(data: Path) -> None:
    data.mkdir(parents=True)
    database_path(data).touch()


CORPUS: dict[str, tuple[Callable[[Path], None], str]] = {
    # name: (make it, what RUN does: "aside", "kept" or "fresh")
    "truncated": (truncated, "aside"),
    "random pages": (random_pages, "aside"),
    "a stranger's, user_version 1": (stranger_with_version, "aside"),
    "a stranger's, user_version 0": (stranger_without_version, "aside"),
    "a stranger's, its own mark": (stranger_with_its_own_mark, "aside"),
    "not SQLite": (not_sqlite, "aside"),
    "garbled rows": (garbled_rows, "kept"),
    "from before the mark": (from_before_the_mark, "kept"),
    "an empty file": (empty_file, "fresh"),
}


@pytest.mark.parametrize("name", CORPUS)
def test_the_cabinet_starts_on_every_damaged_database(name: str, tmp_path: Path) -> None:
    make, outcome = CORPUS[name]
    data = tmp_path / "data"
    make(data)
    before = files(data)
    store = CabinetStore.open(data, wall_clock=WallClock())
    try:
        assert store.saving  # a fresh or repaired database, on disk
        game = cpu_game(2)
        store.record_game(game.record, game.summary)  # and it works
        if outcome == "aside":
            (problem,) = (p for p in store.problems if p.kind is ProblemKind.DATABASE_MOVED_ASIDE)
            assert problem.moved_to is not None
            # Moved aside byte for byte: nothing of it was changed first.
            assert problem.moved_to.read_bytes() == before["cabinet.sqlite3"]
            assert store.settings.get(VOLUME) == VOLUME.default
        elif outcome == "kept":
            assert not any(p.kind is ProblemKind.DATABASE_MOVED_ASIDE for p in store.problems)
            assert store.settings.get(VOLUME) in (35, 45)  # what could be read is kept
            assert store.records.count() == 2
        else:
            assert store.problems == []
        assert store.db.pragma("application_id") == APPLICATION_ID
    finally:
        store.close()


def test_garbled_rows_are_reported_one_by_one_and_the_rest_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    garbled_rows(data)
    clock = WallClock()
    store = CabinetStore.open(data, wall_clock=clock)
    try:
        kinds = sorted(p.kind.value for p in store.problems)
        assert kinds == [
            "database_copied",  # kept before any of it is replaced
            "setting_replaced",  # best_of: not JSON
            "setting_replaced",  # language: not text
            "unknown_setting",  # a name that is not text
            "unreadable_data",  # games' last-cleared time
            "unreadable_data",  # games.played
        ]
        assert store.audits.group(AuditGroup.GAMES).cleared_at == clock()
        assert store.audits.games.current.vs_cpu == 0
        assert store.audits.games.lifetime.vs_cpu == 1  # the row's other count is kept
        assert all(len(p.message) < 300 for p in store.problems)
    finally:
        store.close()


@pytest.mark.parametrize("name", [n for n, (_, outcome) in CORPUS.items() if outcome == "aside"])
@pytest.mark.parametrize("access", [Access.WRITE, Access.READ])
def test_commands_say_why_and_change_nothing(name: str, access: Access, tmp_path: Path) -> None:
    make, _ = CORPUS[name]
    data = tmp_path / "data"
    make(data)
    before = files(data)
    with pytest.raises(StorageError) as caught:
        CabinetStore.open(data, access=access)
    assert "\n" not in str(caught.value) and str(database_path(data)) in str(caught.value)
    assert files(data) == before


def test_a_read_changes_nothing_of_a_good_database(tmp_path: Path) -> None:
    data = tmp_path / "data"
    path = cabinet_database(data)
    from_before_the_mark(tmp_path / "old")
    for directory in (data, tmp_path / "old"):
        before = files(directory)
        store = CabinetStore.open(directory, access=Access.READ)
        assert store.settings.get(VOLUME) in (35, 45)
        assert not store.saving and store.db.read_from == database_path(directory)
        store.close()
        assert files(directory) == before  # not even the mark, nor a WAL switch
    assert path.exists()


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[Path]:
    """A cabinet database another program holds in a write transaction (a sqlite3 shell)."""
    data = tmp_path / "data"
    path = cabinet_database(data)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    yield data
    holder.execute("ROLLBACK")
    holder.close()


def test_a_locked_database_is_waited_for_then_read_into_memory(locked: Path) -> None:
    store = CabinetStore.open(locked, busy_timeout_s=0.05)
    try:
        (problem,) = store.problems
        assert problem.kind is ProblemKind.NOT_SAVING and "locked" in problem.message
        assert not store.saving
    finally:
        store.close()
    with pytest.raises(DatabaseBusyError):
        CabinetStore.open(locked, access=Access.WRITE, busy_timeout_s=0.05)


def test_a_locked_database_stops_no_run(locked: Path) -> None:
    """The real command: it used to die with a DatabaseBusyError traceback."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "cabinet", "run", "--input", "mock", "--windowed",
         "--seconds", "1", "--lights", "none", "--data-dir", str(locked)],
        capture_output=True, text=True, env=env, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "locked by another program" in done.stderr


# -- read-only files and directories -------------------------------------------------------

FS_IOC_GETFLAGS, FS_IOC_SETFLAGS, FS_IMMUTABLE_FL = 0x80086601, 0x40086602, 0x10


def _immutable(path: Path, on: bool) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        flags = bytearray(struct.pack("l", 0))
        fcntl.ioctl(fd, FS_IOC_GETFLAGS, flags)
        value = struct.unpack("l", flags)[0]
        value = value | FS_IMMUTABLE_FL if on else value & ~FS_IMMUTABLE_FL
        fcntl.ioctl(fd, FS_IOC_SETFLAGS, struct.pack("l", value))
    finally:
        os.close(fd)


@pytest.fixture
def read_only() -> Iterator[Callable[[Path], None]]:
    """``read_only(path)``: nobody may write ``path`` any more, not even root (for whom
    permissions are no obstacle: the kernel's immutable flag is)."""
    made: list[Path] = []

    def make(path: Path) -> None:
        if os.geteuid() == 0:
            _immutable(path, True)
        else:
            path.chmod(0o555 if path.is_dir() else 0o444)
        made.append(path)

    yield make
    for path in reversed(made):
        if os.geteuid() == 0:
            _immutable(path, False)
        path.chmod(0o755 if path.is_dir() else 0o644)


def test_a_read_only_database_is_read_and_never_pretended_written(
    tmp_path: Path, read_only: Callable[[Path], None], capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    path = cabinet_database(data)
    read_only(path)
    read_only(data)
    before = files(data)
    settings_file = tmp_path / "volume.toml"
    settings_file.write_text("[cabinet]\nvolume = 80\n", encoding="utf-8")
    assert main(["settings", "show", "--json", "--data-dir", str(data)]) == 0
    assert '"volume": 35' in capsys.readouterr().out  # the stored value, not the default
    assert main(["settings", "import", str(settings_file), "--data-dir", str(data)]) == 1
    out, err = capsys.readouterr()
    (line,) = err.splitlines()
    assert line.startswith("settings import: ") and "nothing was changed" in line
    assert "read-only" in line and "imported" not in out
    # The cabinet runs on what is stored, and says it saves nothing.
    store = CabinetStore.open(data)
    assert store.settings.get(VOLUME) == 35 and not store.saving
    assert [p.kind for p in store.problems] == [ProblemKind.NOT_SAVING]
    store.close()
    assert files(data) == before


def test_an_unwritable_empty_data_directory_reports_no_moved_database(
    tmp_path: Path, read_only: Callable[[Path], None], capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    read_only(data)
    settings_file = tmp_path / "volume.toml"
    settings_file.write_text("[cabinet]\nvolume = 80\n", encoding="utf-8")
    assert main(["settings", "import", str(settings_file), "--data-dir", str(data)]) == 1
    err = capsys.readouterr().err
    assert "moved aside" not in err and "cannot be created" in err
    store = CabinetStore.open(data)
    (problem,) = store.problems
    assert problem.kind is ProblemKind.NOT_SAVING and "moved aside" not in problem.message
    store.close()
    assert list(data.iterdir()) == []


# -- any damage at all --------------------------------------------------------------------


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(st.integers(min_value=0, max_value=200_000), st.binary(min_size=1, max_size=64)),
        min_size=1,
        max_size=8,
    )
)
def test_the_cabinet_starts_whatever_bytes_are_scribbled(
    tmp_path_factory: pytest.TempPathFactory, scribbles: list[tuple[int, bytes]]
) -> None:
    data = tmp_path_factory.mktemp("scribbled") / "data"
    path = cabinet_database(data)
    raw = bytearray(path.read_bytes())
    for at, chunk in scribbles:
        at %= len(raw)
        raw[at : at + len(chunk)] = chunk[: len(raw) - at]
    path.write_bytes(bytes(raw))
    store = CabinetStore.open(data, wall_clock=WallClock())
    try:
        store.settings.set(VOLUME, 60)
        store.save_settings()  # whatever it found, it can save now
        game = cpu_game(3)
        store.record_game(game.record, game.summary)
    finally:
        store.close()
