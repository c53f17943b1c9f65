"""What the command sweep crosses (``command_sweep.py``): every kind of damage by name
(:data:`DAMAGES`, and :data:`SOUND`, those that leave books a command may write), every
command (:data:`COMMANDS`), and the files the commands are given (:func:`write_inputs`)."""

from __future__ import annotations

import dataclasses
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.cabinet.storage.sweep_damages import (
    Case,
    absent,
    dangling_symlink,
    directory_for_database,
    empty_directory,
    file_for_directory,
    healthy,
    healthy_with_wal,
    in_a_fleet,
    in_a_fleet_scribbled,
    newer_schema,
    newer_schema_readable,
    newer_schema_unmarked,
    older_schema,
    scribbled_audit_time,
    scribbled_record,
    scribbled_setting,
    strangers_in_rollback_mode,
    symlink_to_strangers_database,
)
from tests.cabinet.storage.sweep_machine_damages import (
    file_size_limit,
    full_disk,
    full_disk_empty_directory,
    full_disk_with_wal,
    locked,
    no_room_for_the_index,
    read_only_both,
    read_only_directory,
    read_only_empty_directory,
    read_only_file,
)
from tests.cabinet.storage.test_damaged_databases import CORPUS

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
