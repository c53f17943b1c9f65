"""Every ``spit-cabinet`` command that touches the books, run against every kind of damaged,
foreign, locked, read-only and full data directory: did anything change without a copy
kept and a message saying so?

Each case makes a fresh data directory with one kind of damage (:data:`DAMAGES`, which
takes in the corpus of ``test_damaged_databases.py``), snapshots every file under the
case's folder (names, bytes, modes, links), runs one command (:data:`COMMANDS`) in a
child process as an operator would (``SPIT_CABINET_DATA``, or ``--data-dir``), snapshots
again and judges (:func:`judge`):

- ``unchanged``: nothing changed (SQLite's ``-shm`` index is not data, and not looked at;
  a database is compared by what it holds, so a checkpoint of its WAL changes nothing);
- ``created``: only new files (a database where there was none);
- ``written``: a command that writes did its work on books it can use as they are
  (:data:`SOUND`: healthy, locked, full…);
- ``set aside``: what changed or went is still there, as it was, under a name the
  command printed (moved aside, or a copy kept before a migration or a repair);
- ``CHANGED``: anything else: data changed or lost, with no copy kept or none named.
  The sweep fails on any.

The suite runs a representative part (``test_command_sweep.py``); a maintainer runs the
whole of it (a few minutes; ``--jobs`` at most the cores)::

    .venv/bin/python -m tests.cabinet.storage.command_sweep [--jobs 2] [--command NAME]
        [--damage NAME] [--verbose]

The full-disk cases mount a small tmpfs, as root only (skipped otherwise); the file-size
limit cases (``RLIMIT_FSIZE``) run for anyone. The read-only cases use the kernel's
immutable flag as root (whom permissions do not stop) and permissions otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cabinet.storage.paths import DATABASE_NAME, database_path
from cabinet.storage.schema import MIGRATIONS, READERS_TABLE, SCHEMA_VERSION
from cabinet.storage.setting_table import RECORDS_KEPT, VOLUME
from cabinet.storage.store import CabinetStore
from tests.cabinet.clocks import WallClock
from tests.cabinet.storage.conftest import cpu_game
from tests.cabinet.storage.test_damaged_databases import CORPUS, _immutable

ROOT = Path(__file__).resolve().parents[3]

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


def read_only_file(case: Case) -> None:
    cabinet_database(case.data)
    _read_only(case, case.db)


def read_only_directory(case: Case) -> None:
    cabinet_database(case.data)
    _read_only(case, case.data)


def read_only_both(case: Case) -> None:
    cabinet_database(case.data)
    _read_only(case, case.db)
    _read_only(case, case.data)


def read_only_empty_directory(case: Case) -> None:
    case.data.mkdir()
    _read_only(case, case.data)


def _read_only(case: Case, path: Path) -> None:
    if os.geteuid() == 0:
        _immutable(path, True)
        case.cleanup.callback(_immutable, path, False)
    else:
        mode = path.stat().st_mode & 0o777
        path.chmod(0o555 if path.is_dir() else 0o444)
        case.cleanup.callback(path.chmod, mode)


def locked(case: Case) -> None:
    """Another program holds the database in a write transaction (a sqlite3 shell). It is
    another process: a lock SQLite takes is the process's, and the snapshot's reading of
    the file in this one would let it go."""
    path = cabinet_database(case.data)
    code = (
        "import sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('BEGIN EXCLUSIVE')\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    case.cleanup.callback(holder.wait, 30)
    case.cleanup.callback(holder.communicate, "")
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"


def file_size_limit(case: Case) -> None:
    """No file may grow: ``RLIMIT_FSIZE`` at the database's size (a full card, for a
    user without a way to mount one)."""
    path = cabinet_database(case.data)
    size = path.stat().st_size

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    case.preexec = limit


def no_room_for_the_index(case: Case) -> None:
    """Files may not grow past 16 KiB: the database is there, but SQLite's 32 KiB
    ``-shm`` index cannot be made (a full disk, for a user without a way to mount one)."""
    cabinet_database(case.data)

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (16 << 10, 16 << 10))

    case.preexec = limit


def _full_disk(case: Case, make: Callable[[Path], object]) -> None:
    """A tmpfs of 1 MiB mounted on the case's folder, ``make`` run in it, the rest of the
    space taken by a file beside the data directory."""
    if os.geteuid() != 0:
        raise Unavailable("mounting a full disk needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m,mode=755", "tmpfs", str(case.root)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise Unavailable(f"cannot mount a tmpfs: {done.stderr.decode().strip()}")
    case.cleanup.callback(subprocess.run, ["umount", "-l", str(case.root)], check=False)
    make(case.data)
    with contextlib.suppress(OSError), (case.root / "filler").open("wb") as f:
        while True:
            f.write(b"\0" * 4096)
            f.flush()
    with contextlib.suppress(OSError), (case.root / "filler2").open("wb") as f:
        while True:
            f.write(b"\0")
            f.flush()


def full_disk(case: Case) -> None:
    _full_disk(case, cabinet_database)


def full_disk_empty_directory(case: Case) -> None:
    _full_disk(case, lambda data: data.mkdir())


def full_disk_with_wal(case: Case) -> None:
    _full_disk(case, lambda data: cabinet_database(data, wal=True))


SOUND = frozenset({
    "healthy", "healthy, a WAL left", "absent", "empty directory", "an empty file",
    "a dangling link", "scribbled record (quick_check ok)", "newer schema, readable",
    "in a fleet", "read-only file", "read-only directory", "read-only file and directory",
    "read-only empty directory", "locked", "file size limit",
    "file size limit, no room for the index", "full disk",
    "full disk, empty directory", "full disk, a WAL left",
})  # fmt: skip
"""The damage that leaves a database the cabinet uses as it is: a command that writes may
change it in place (its purpose). Any other must be kept, as it was, before it is changed."""


class Unavailable(Exception):
    """This damage cannot be made here (no root for a mount)."""


def _from_corpus(name: str) -> Callable[[Case], None]:
    make, _ = CORPUS[name]

    def damage(case: Case) -> None:
        make(case.data)

    damage.__doc__ = f"test_damaged_databases.CORPUS[{name!r}]"
    damage.__name__ = name.replace(" ", "_")
    return damage


DAMAGES: dict[str, Callable[[Case], None]] = {
    "healthy": healthy,
    "healthy, a WAL left": healthy_with_wal,
    "absent": absent,
    "empty directory": empty_directory,
    "a file for the directory": file_for_directory,
    "a directory for the database": directory_for_database,
    "a link to a stranger's database": symlink_to_strangers_database,
    "a dangling link": dangling_symlink,
    **{name: _from_corpus(name) for name in CORPUS},
    "scribbled setting (quick_check ok)": scribbled_setting,
    "scribbled audit time (quick_check ok)": scribbled_audit_time,
    "scribbled record (quick_check ok)": scribbled_record,
    "in a fleet": in_a_fleet,
    "in a fleet, scribbled audit time": in_a_fleet_scribbled,
    "newer schema": newer_schema,
    "newer schema, readable": newer_schema_readable,
    "newer schema, unmarked": newer_schema_unmarked,
    "older schema (3)": older_schema,
    "a stranger's, rollback journal": strangers_in_rollback_mode,
    "read-only file": read_only_file,
    "read-only directory": read_only_directory,
    "read-only file and directory": read_only_both,
    "read-only empty directory": read_only_empty_directory,
    "locked": locked,
    "file size limit": file_size_limit,
    "file size limit, no room for the index": no_room_for_the_index,
    "full disk": full_disk,
    "full disk, empty directory": full_disk_empty_directory,
    "full disk, a WAL left": full_disk_with_wal,
}


# -- the commands -------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Command:
    words: str
    """The words after ``spit-cabinet``, split at spaces: ``{data}`` and ``{io}`` are the
    case's folders; without ``{data}`` the data directory is given by
    ``SPIT_CABINET_DATA``."""
    writes: bool = False
    """Whether it is meant to change the books (when it exits with one of ``done``)."""
    done: tuple[int, ...] = (0,)
    """The exit statuses of a command that did its work."""
    slow: bool = False
    """Seconds, not a fraction of one."""

    def argv(self, case: Case) -> list[str]:
        return [w.format(data=case.data, io=case.io) for w in self.words.split()]


COMMANDS: dict[str, Command] = {
    "settings show": Command("settings show"),
    "settings show --json": Command("settings show --json --data-dir {data}"),
    "settings export FILE": Command("settings export {io}/out.toml"),
    "settings export -": Command("settings export -"),
    "settings import FILE": Command("settings import {io}/good.toml", writes=True),
    "settings import BAD": Command("settings import {io}/bad.toml", writes=True),
    "settings import MISSING": Command("settings import {io}/missing.toml", writes=True),
    "audits": Command("audits"),
    "audits --json": Command("audits --json --data-dir {data}"),
    "audits --csv": Command("audits --csv"),
    "fleet status": Command("fleet status"),
    "fleet status --json": Command("fleet status --json --data-dir {data}"),
    "fleet join FILE": Command("fleet join {io}/join.json", writes=True),
    "fleet join BAD": Command("fleet join {io}/bad.toml", writes=True),
    "fleet leave": Command("fleet leave", writes=True),
    "doctor": Command(  # in a fleet, it queues its findings for the fleet
        "doctor --input mock --buttons skip --lights auto", writes=True, done=(0, 1)
    ),
    "firmware flash": Command("firmware flash --port {io}/no-board"),
    "fairness --input mock": Command(
        "fairness --input mock --offsets 1000 --pairs 2 --gap-ms 100 --wait 5",
        writes=True,
        slow=True,
    ),
    "run --seconds 1": Command(
        "run --input mock --windowed --seconds 1 --lights none --size 320x240",
        writes=True,
        slow=True,
    ),
}

_CA: list[str] = []


def _ca_pem() -> str:
    """A self-signed CA certificate (the join file's ``ca``), made once."""
    if not _CA:
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(
                ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                 "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=sweep",
                 "-keyout", f"{tmp}/key.pem", "-out", f"{tmp}/ca.pem"],
                check=True, capture_output=True,
            )  # fmt: skip
            _CA.append(Path(tmp, "ca.pem").read_text(encoding="ascii"))
    return _CA[0]


def write_inputs(io: Path) -> None:
    """The files the commands are given: a good and a bad settings file, a join file."""
    import json

    io.mkdir(parents=True, exist_ok=True)
    (io / "good.toml").write_text("[cabinet]\nvolume = 80\n", encoding="utf-8")
    (io / "bad.toml").write_text("[cabinet]\nvolume = 'loud'\n", encoding="utf-8")
    join = {
        "format": "spit-fleet-join", "version": 1, "fleet": "Sweep", "cabinet": "bar-1",
        "location": "Here", "host": "fleet.invalid", "port": 8883, "password": "pw",
        "ca": _ca_pem(),
    }  # fmt: skip
    (io / "join.json").write_text(json.dumps(join), encoding="utf-8")


# -- snapshots and the judgement ----------------------------------------------------------

Entry = tuple[str, int, bytes | str]
"""One path's kind (``file``, ``dir``, ``link``), permission bits and content (a file's
bytes, a link's target, nothing for a directory)."""


def snapshot(root: Path) -> dict[str, Entry]:
    """Every path under ``root`` (relative), with what it holds."""
    out: dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath, name)
            rel = str(path.relative_to(root))
            st = path.lstat()
            if path.is_symlink():
                out[rel] = ("link", 0, os.readlink(path))
            elif path.is_dir():
                out[rel] = ("dir", st.st_mode & 0o7777, b"")
            else:
                out[rel] = ("file", st.st_mode & 0o7777, path.read_bytes())
    return out


def _not_data(rel: str) -> bool:
    """SQLite's shared-memory index (rebuilt by every opener) and the full disk's
    fillers are not data."""
    return rel.endswith("-shm") or Path(rel).name.startswith("filler")


_SIDE_FILES = ("-wal", "-journal")


def units(snap: dict[str, Entry]) -> dict[str, tuple[object, ...]]:
    """What each file holds, a database's ``-wal`` and ``-journal`` files with it: for a
    SQLite database that opens, its content (schema version, mark, journal mode and every
    row: a checkpoint changes bytes, not data), else its bytes. Empty files hold nothing
    and are left out, as are directories (their files are there)."""
    out: dict[str, tuple[object, ...]] = {}
    for rel, (kind, mode, content) in snap.items():
        if _not_data(rel) or kind == "dir":
            continue
        if kind == "link":
            out[rel] = ("link", content)
            continue
        base = next((rel[: -len(x)] for x in _SIDE_FILES if rel.endswith(x)), None)
        if base is not None and snap.get(base, ("",))[0] == "file":
            continue  # with its database
        assert isinstance(content, bytes)
        sides = {x: snap.get(rel + x, ("", 0, b""))[2] for x in _SIDE_FILES}
        if not content and not any(sides.values()):
            continue
        out[rel] = (mode, *_content(content, sides))
    return out


def held(db: Path) -> tuple[object, ...]:
    """What the database file ``db`` holds, with its WAL (:func:`units`): its schema
    version, mark, journal mode and every row; its bytes when it is not a database."""
    sides = {x: db.with_name(db.name + x) for x in _SIDE_FILES}
    return _content(
        db.read_bytes(), {x: p.read_bytes() if p.exists() else b"" for x, p in sides.items()}
    )


def _content(raw: bytes, sides: dict[str, bytes | str]) -> tuple[object, ...]:
    if not raw.startswith(b"SQLite format 3\0"):
        return (raw, *sides.values())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "db")
        path.write_bytes(raw)
        for suffix, side in sides.items():
            if isinstance(side, bytes) and side:
                Path(tmp, "db" + suffix).write_bytes(side)
        try:
            with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
                header = tuple(
                    conn.execute(f"PRAGMA {name}").fetchone()[0]
                    for name in ("user_version", "application_id", "journal_mode")
                )
                return ("sqlite", *header, tuple(conn.iterdump()))
        except sqlite3.Error:
            return (raw, *sides.values())


@dataclasses.dataclass
class Result:
    command: str
    damage: str
    status: int | None
    out: str
    err: str
    verdict: str
    detail: str
    seconds: float

    @property
    def bad(self) -> bool:
        return self.verdict == "CHANGED"


def judge(
    before: dict[str, Entry], after: dict[str, Entry], said: str, written: bool
) -> tuple[str, str]:
    """The case's verdict and what changed (the module docstring), from the snapshots
    before and after and what the command ``said``. ``written``: the command did the
    writing it is for, on books that were sound (:data:`SOUND`)."""
    was, now = units(before), units(after)
    changed = [rel for rel in was if now.get(rel) != was[rel]]
    created = [rel for rel in now if rel not in was]
    new_dirs = [rel for rel, entry in after.items() if entry[0] == "dir" and rel not in before]
    changed += [
        f"{rel} (a directory)"
        for rel, entry in before.items()
        if entry[0] == "dir"
        and after.get(rel, ("",))[:2] != entry[:2]
        and not any(_named(d, before, said) for d in new_dirs)
    ]
    if not changed and not created:
        return "unchanged", ""
    if not changed:
        return "created", "new: " + ", ".join(created)
    unkept = []
    for rel in changed:
        copies = [r for r in created if rel in was and now[r] == was[rel]]
        named = [r for r in copies if _named(r, before, said)]
        if not named:
            gone = "" if rel in now else " (gone)"
            unkept.append(rel + gone + (f", its copy {copies[0]} not named" if copies else ""))
    if not unkept:
        return "set aside", "kept: " + ", ".join(created)
    what = "changed: " + "; ".join(unkept)
    if written:
        return "written", what
    return "CHANGED", what


def _named(rel: str, before: dict[str, Entry], said: str) -> bool:
    """Whether the command's output names the copy ``rel``, or a new folder holding it."""
    path = Path(rel)
    return any(
        p.name in said for p in (path, *path.parents) if str(p) != "." and str(p) not in before
    )


# -- running a case -----------------------------------------------------------------------


def run_case(name: str, damage: str, base: Path, *, timeout_s: float = 120.0) -> Result:
    """Make ``damage`` in a new folder under ``base``, run command ``name`` on it, judge."""
    command = COMMANDS[name]
    folder = Path(tempfile.mkdtemp(dir=base, prefix="case-"))
    case = Case(folder / "root", folder / "io", contextlib.ExitStack())
    case.root.mkdir()
    write_inputs(case.io)
    started = time.monotonic()
    with case.cleanup:
        try:
            DAMAGES[damage](case)
        except Unavailable as exc:
            return Result(name, damage, None, "", "", "skipped", str(exc), 0.0)
        before = snapshot(case.root)
        argv = command.argv(case)
        env = dict(
            os.environ,
            SPIT_CABINET_DATA=str(case.data),
            HOME=str(case.io),
            SDL_VIDEODRIVER="dummy",
            SDL_AUDIODRIVER="dummy",
            PYGAME_HIDE_SUPPORT_PROMPT="1",
            PYTHONPATH=str(ROOT),
        )
        try:
            done = subprocess.run(
                [sys.executable, "-m", "cabinet", *argv],
                capture_output=True,
                text=True,
                env=env,
                cwd=case.io,
                timeout=timeout_s,
                preexec_fn=case.preexec,
                check=False,
            )
            status, out, err = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as exc:
            status, out, err = None, str(exc.stdout or ""), str(exc.stderr or "")
        after = snapshot(case.root)
        intended = command.writes and damage in SOUND and status in command.done
        verdict, detail = judge(before, after, out + err, intended)
        if status is not None and "Traceback" in err:
            detail = (detail + "; " if detail else "") + "a traceback"
    shutil.rmtree(folder, ignore_errors=True)
    return Result(name, damage, status, out, err, verdict, detail, time.monotonic() - started)


def sweep(
    commands: Sequence[str], damages: Sequence[str], *, jobs: int = 1, base: Path | None = None
) -> list[Result]:
    """Every command of ``commands`` against every damage of ``damages``."""
    with contextlib.ExitStack() as stack:
        if base is None:
            base = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="sweep-")))
        pairs = [(c, d) for c in commands for d in damages]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(lambda pair: run_case(*pair, base), pairs))


def report(results: Sequence[Result], *, verbose: bool = False) -> Iterator[str]:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
        if verbose or r.bad or "traceback" in r.detail:
            yield (
                f"{r.verdict:<10} {r.command} × {r.damage}: exit {r.status}, {r.seconds:.1f} s"
                + (f"; {r.detail}" if r.detail else "")
            )
            if r.bad or "traceback" in r.detail:
                for line in (r.err.strip().splitlines() or ["(nothing on stderr)"])[-6:]:
                    yield f"           | {line[:300]}"
    yield f"{len(results)} cases: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--command", action="append", choices=COMMANDS, help="(all)")
    parser.add_argument("--damage", action="append", choices=DAMAGES, help="(all)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="a line for every case")
    args = parser.parse_args(argv)
    results = sweep(args.command or list(COMMANDS), args.damage or list(DAMAGES), jobs=args.jobs)
    for line in report(results, verbose=args.verbose):
        print(line, flush=True)
    return 1 if any(r.bad for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
