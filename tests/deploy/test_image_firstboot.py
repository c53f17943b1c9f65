"""The card's first-boot files (scripts/image/files/spit-cabinet-firstboot; docs/image.md,
"Before the first boot"): a settings file and a fleet join file left on the boot partition
are taken in by the cabinet's own commands, then removed (the join file holds the
cabinet's password); what cannot be taken in stays, with one line in ERRORS.txt saying
why. Run here on folders of the test's own, with this checkout's cabinet."""

from __future__ import annotations

import json
import os
import pwd
import re
import subprocess
import sys
from pathlib import Path

from tests.cabinet.storage.sweep_cases import write_inputs
from tests.deploy.conftest import REPO

FIRSTBOOT = REPO / "scripts" / "image" / "files" / "spit-cabinet-firstboot"
CABINET = Path(sys.executable).with_name("spit-cabinet")


def firstboot(boot: Path, data: Path) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        SPIT_CABINET_BOOT=str(boot),
        SPIT_CABINET_DATA=str(data),
        SPIT_CABINET_COMMAND=str(CABINET),
        SPIT_CABINET_USER=pwd.getpwuid(os.getuid()).pw_name,  # as `id -un` says
    )
    return subprocess.run(
        ["sh", FIRSTBOOT], env=env, capture_output=True, text=True, timeout=120, check=True
    )


def cabinet(data: Path, *args: str) -> str:
    done = subprocess.run(
        [CABINET, *args, "--data-dir", str(data)], capture_output=True, text=True, check=True
    )
    return done.stdout


def card(tmp_path: Path, settings: str | None, join: bool) -> tuple[Path, Path]:
    io = tmp_path / "io"
    write_inputs(io)
    boot, data = tmp_path / "boot", tmp_path / "data"
    (boot / "spit-cabinet").mkdir(parents=True)
    data.mkdir()
    (io / "good.toml").write_text("[cabinet]\nvolume = 35\n")  # not the default (80)
    if settings is not None:
        (boot / "spit-cabinet" / "settings.toml").write_bytes((io / settings).read_bytes())
    if join:
        (boot / "spit-cabinet" / "fleet-join.json").write_bytes((io / "join.json").read_bytes())
    return boot, data


def test_both_files_are_taken_in_and_removed(tmp_path: Path) -> None:
    boot, data = card(tmp_path, "good.toml", join=True)
    done = firstboot(boot, data)
    assert "settings.toml taken in" in done.stdout
    assert sorted(p.name for p in (boot / "spit-cabinet").iterdir()) == []
    assert re.search(r"^\s*volume\s+35\b", cabinet(data, "settings", "show"), re.M)
    status = json.loads(cabinet(data, "fleet", "status", "--json"))
    assert "Sweep" in json.dumps(status)


def test_a_bad_file_stays_with_its_reason_and_the_rest_goes_in(tmp_path: Path) -> None:
    boot, data = card(tmp_path, "bad.toml", join=True)
    firstboot(boot, data)
    left = sorted(p.name for p in (boot / "spit-cabinet").iterdir())
    assert left == ["ERRORS.txt", "settings.toml"]
    errors = (boot / "spit-cabinet" / "ERRORS.txt").read_text().splitlines()
    assert len(errors) >= 1 and errors[0].startswith("settings.toml: ")
    assert "volume" in errors[0]
    assert "Sweep" in cabinet(data, "fleet", "status", "--json")  # the join still went in


def test_a_later_good_file_clears_the_errors(tmp_path: Path) -> None:
    boot, data = card(tmp_path, "bad.toml", join=False)
    firstboot(boot, data)
    assert (boot / "spit-cabinet" / "ERRORS.txt").exists()
    (boot / "spit-cabinet" / "settings.toml").write_text("[cabinet]\nvolume = 35\n")
    firstboot(boot, data)
    assert sorted(p.name for p in (boot / "spit-cabinet").iterdir()) == []


def test_nothing_there_changes_nothing(tmp_path: Path) -> None:
    boot, data = card(tmp_path, None, join=False)
    done = firstboot(boot, data)
    assert done.stdout == ""
    assert list(data.iterdir()) == []
    assert list((boot / "spit-cabinet").iterdir()) == []
