"""The command sweep's damage of the machine (``command_sweep.py``): a data directory
that cannot be written, a database another program holds locked, files that may not
grow, a full disk. The damage to the books' content is :mod:`.sweep_damages`."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.cabinet.storage.sweep_damages import Case, Unavailable, cabinet_database
from tests.cabinet.storage.test_damaged_databases import _immutable


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
