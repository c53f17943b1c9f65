"""Nothing in the books is changed in place without a copy kept and a message saying so:
the cases the sweep of every command against damaged data directories found
(``command_sweep.py``), one by one.

- a full disk made the cabinet set a good database aside, as if it were bad;
- a file the cabinet then refused was switched to WAL first ("moved aside untouched",
  "nothing was changed");
- a command that opened the books to write migrated an older schema, wrote the mark or
  replaced rows it could not read before it knew it would write (``settings import`` of a
  bad file, ``doctor`` outside a fleet), and none kept a copy first;
- a database file that may not be written, in a directory that may, stopped the cabinet
  and the fleet commands with a traceback.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cabinet.commands.cli import main
from cabinet.commands.doctor_fleet import report_findings
from cabinet.commands.findings import Finding, Severity
from cabinet.storage.database import SCHEMA_VERSION, Access
from cabinet.storage.problems import ProblemKind, StorageError
from cabinet.storage.setting_table import RECORDS_KEPT, VOLUME
from cabinet.storage.store import CabinetStore
from tests.cabinet.clocks import WallClock

from .sweep_cases import DAMAGES, write_inputs
from .sweep_damages import (
    Case,
    cabinet_database,
    older_schema,
    scribbled_audit_time,
    scribbled_setting,
    strangers_in_rollback_mode,
)
from .sweep_judge import held, snapshot
from .sweep_machine_damages import read_only_file

ROOT = Path(__file__).resolve().parents[3]
from_before_the_mark = DAMAGES["from before the mark"]


@pytest.fixture
def case(tmp_path: Path) -> Iterator[Case]:
    made = Case(tmp_path / "root", tmp_path / "io", contextlib.ExitStack())
    made.root.mkdir()
    write_inputs(made.io)
    with made.cleanup:
        yield made


def files(data: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(data.iterdir()) if p.is_file()}


def copied(store: CabinetStore) -> Path:
    """The copy the store kept, said in its one DATABASE_COPIED problem."""
    (problem,) = (p for p in store.problems if p.kind is ProblemKind.DATABASE_COPIED)
    assert problem.copy is not None and problem.copy.name in problem.message
    return problem.copy


# -- a full disk -------------------------------------------------------------------------

_OPEN_WITH_A_LIMIT = """
import resource, signal, sys
from pathlib import Path
from cabinet.storage.database import Access
from cabinet.storage.problems import StorageError
from cabinet.storage.store import CabinetStore
from cabinet.storage.setting_table import VOLUME
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, as on a full disk
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
try:
    store = CabinetStore.open(Path(sys.argv[1]), access=Access(sys.argv[3]))
except StorageError as exc:
    print("StorageError", exc)
    sys.exit(0)
print(store.saving, store.settings.get(VOLUME))
for problem in store.problems:
    print(problem.kind.value, problem.message)
"""


def open_with_a_limit(data: Path, limit_bytes: int, access: Access = Access.RUN) -> list[str]:
    """Open the books in a child process whose files may not grow past ``limit_bytes``
    (as on a full disk): what it printed, ``saving volume`` and each problem's kind and
    message, or the StorageError."""
    done = subprocess.run(
        [sys.executable, "-c", _OPEN_WITH_A_LIMIT, str(data), str(limit_bytes), access.value],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_full_disk_sets_no_good_database_aside(case: Case) -> None:
    """It used to: "the database cabinet.sqlite3 was unreadable (disk I/O error); it was
    moved aside ... and the cabinet starts on default settings with empty audits", and on
    the next start, with room again, the books began anew. Here no file may grow past
    16 KiB: SQLite's 32 KiB ``-shm`` index cannot be made."""
    cabinet_database(case.data)
    before = files(case.data)
    saving, *problems = open_with_a_limit(case.data, 16 << 10)
    assert saving == "False 35"  # the stored settings, in memory: nothing is saved
    assert [p.split()[0] for p in problems] == ["not_saving"], problems
    assert "cannot be written" in problems[0] and "moved aside" not in problems[0]
    (line,) = open_with_a_limit(case.data, 16 << 10, Access.WRITE)
    assert line.startswith("StorageError") and "cannot be written" in line
    after = files(case.data)
    assert not [name for name in after if ".bad-" in name]
    assert after["cabinet.sqlite3"] == before["cabinet.sqlite3"]


def test_no_room_for_a_copy_means_nothing_is_migrated(case: Case) -> None:
    """Where no copy can be kept (the disk full), an older schema is not migrated: a
    command gets one line, the cabinet reads the books into memory and says it saves
    nothing."""
    older_schema(case)
    with contextlib.closing(sqlite3.connect(case.db)) as conn, conn:  # a bigger file
        conn.execute(
            "INSERT INTO games (ended_at, players, levels, termination, duration_ms, record) "
            "VALUES ('', '', '', '', 0, ?)",
            ("x" * 60_000,),
        )
    size = case.db.stat().st_size
    assert size > 64 << 10
    before = files(case.data)
    saving, *problems = open_with_a_limit(case.data, 64 << 10)  # room for the -shm only
    assert saving == "False 35"
    assert [p.split()[0] for p in problems] == ["not_saving"], problems
    assert "no copy of it can be kept first" in problems[0]
    (line,) = open_with_a_limit(case.data, 64 << 10, Access.WRITE)
    assert line.startswith("StorageError") and "nothing was changed" in line
    assert files(case.data) == before


# -- a file the cabinet refuses is not changed first --------------------------------------


def test_a_database_refused_is_not_switched_to_wal_first(case: Case) -> None:
    """A file in rollback-journal mode with the cabinet's table names and a newer schema:
    it used to be switched to WAL (its header changed) before the version was checked."""
    strangers_in_rollback_mode(case)
    before = case.db.read_bytes()
    with pytest.raises(StorageError, match="nothing was changed"):
        CabinetStore.open(case.data, access=Access.WRITE)
    assert files(case.data) == {"cabinet.sqlite3": before}
    store = CabinetStore.open(case.data, wall_clock=WallClock())
    try:
        (problem,) = (p for p in store.problems if p.kind is ProblemKind.DATABASE_MOVED_ASIDE)
        assert problem.moved_to is not None and problem.moved_to.read_bytes() == before
    finally:
        store.close()


# -- changed in place: only with a copy kept first, and said --------------------------------


def test_an_older_schema_is_migrated_only_after_a_copy_is_kept(case: Case) -> None:
    older_schema(case)
    before = held(case.db)
    store = CabinetStore.open(case.data, wall_clock=WallClock())
    try:
        assert store.saving and store.db.pragma("user_version") == SCHEMA_VERSION
        assert store.settings.get(VOLUME) == 35 and store.audits.power.lifetime.power_ons == 7
        copy = copied(store)
        assert held(copy) == before and copy.name.startswith("cabinet.sqlite3.copy-")
        assert "migrated from schema 3" in str(store.problems)
    finally:
        store.close()
    again = CabinetStore.open(case.data, wall_clock=WallClock())
    assert again.problems == []  # done once: the next start keeps no other copy
    again.close()


def test_a_bad_settings_file_changes_nothing_even_in_an_older_database(
    case: Case, capsys: pytest.CaptureFixture[str]
) -> None:
    """``settings import`` opened the books to write before it read the file: exit 2,
    "nothing was changed", and the database had been migrated from schema 3."""
    older_schema(case)
    before = snapshot(case.root)
    for name in ("bad.toml", "missing.toml"):
        assert main(["settings", "import", str(case.io / name), "--data-dir", str(case.data)]) == 2
        assert "Traceback" not in capsys.readouterr().err
        assert snapshot(case.root) == before
    assert (
        main(["settings", "import", str(case.io / "good.toml"), "--data-dir", str(case.data)]) == 0
    )
    out, err = capsys.readouterr()
    assert "imported 1 settings" in out and "a copy of it as it was is kept at" in err


@pytest.mark.parametrize(
    "damage", [older_schema, from_before_the_mark, scribbled_audit_time], ids=lambda f: f.__name__
)
def test_doctor_changes_nothing_outside_a_fleet(case: Case, damage: object) -> None:
    """doctor opened the books to write only to find out whether it was in a fleet: it
    migrated them, wrote the mark, replaced a garbled time, and said nothing."""
    assert callable(damage)
    damage(case)
    before = snapshot(case.root)
    findings = [Finding("wiring", Severity.OK, "fine")]
    assert report_findings(case.data, findings) is False
    assert snapshot(case.root) == before


def test_a_scribbled_setting_loses_no_game_without_a_copy(
    case: Case, capsys: pytest.CaptureFixture[str]
) -> None:
    """records_kept 500 scribbled so that it reads as its default, 200, in books of 230
    games: importing any settings file pruned 30 games, and nothing kept them."""
    scribbled_setting(case)
    before = held(case.db)
    assert (
        main(["settings", "import", str(case.io / "good.toml"), "--data-dir", str(case.data)]) == 0
    )
    err = capsys.readouterr().err
    assert "records_kept is not valid" in err
    (copy,) = case.data.glob("cabinet.sqlite3.copy-*Z")
    assert copy.name in err and held(copy) == before
    with contextlib.closing(sqlite3.connect(copy)) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (230,)
    store = CabinetStore.open(case.data, access=Access.READ)
    assert store.settings.get(RECORDS_KEPT) == RECORDS_KEPT.default and store.problems == []
    store.close()


def test_rows_that_cannot_be_read_are_replaced_once_after_a_copy(case: Case) -> None:
    scribbled_audit_time(case)
    before = held(case.db)
    store = CabinetStore.open(case.data, wall_clock=WallClock())
    try:
        assert held(copied(store)) == before
        kinds = sorted(p.kind.value for p in store.problems)
        assert kinds == ["database_copied", "unreadable_data"]
    finally:
        store.close()
    again = CabinetStore.open(case.data, wall_clock=WallClock())
    assert again.problems == []  # replaced in the file: no copy on every start
    again.close()
    assert len(list(case.data.glob("cabinet.sqlite3.copy-*Z"))) == 1


# -- a database file that may not be written ------------------------------------------------


def test_a_read_only_database_file_stops_no_command(
    case: Case, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file read-only, its directory not: SQLite opened it read-only without a word,
    and the first write raised (a traceback from ``fleet join``, ``fairness``, ``run``)."""
    read_only_file(case)
    before = case.db.read_bytes()
    store = CabinetStore.open(case.data, wall_clock=WallClock())
    try:
        assert not store.saving and store.settings.get(VOLUME) == 35
        (problem,) = store.problems
        assert problem.kind is ProblemKind.NOT_SAVING and "read-only" in problem.message
    finally:
        store.close()
    assert main(["fleet", "join", str(case.io / "join.json"), "--data-dir", str(case.data)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1 and "read-only" in err
    assert case.db.read_bytes() == before


def test_garbled_rows_cost_one_copy_not_one_a_start(case: Case) -> None:
    DAMAGES["garbled rows"](case)
    with contextlib.closing(sqlite3.connect(case.db)) as conn, conn:  # a newer program's group
        conn.execute("INSERT INTO audit_groups VALUES ('from_the_future', 'soon')")
    before = held(case.db)
    for start in range(3):
        store = CabinetStore.open(case.data, wall_clock=WallClock())
        try:
            kinds = [p.kind for p in store.problems]
            if start == 0:
                assert held(copied(store)) == before
            else:  # the name that is not text is left alone, as every name unknown
                assert kinds == [ProblemKind.UNKNOWN_SETTING]
        finally:
            store.close()
    assert len(list(case.data.glob("cabinet.sqlite3.copy-*Z"))) == 1
