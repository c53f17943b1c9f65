"""update.sh: its plan, a real pull of a git checkout, the order of a real run (with
systemctl and the installed cabinet stood in for), a failed update that restarts the cabinet,
and both scripts refusing to install onto the read-only root."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deploy.conftest import INSTALL, UPDATE, bash, run


def commands(out: str) -> list[str]:
    return [line[2:] for line in out.splitlines() if line.startswith("+ ")]


def git(repo: Path, *args: str) -> str:
    done = run(["git", "-c", "user.name=Test", "-c", "user.email=test@example.com",
                "-C", repo, *args])  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def checkout(tmp_path: Path) -> tuple[Path, Path]:
    """(upstream, clone): a repository with a unit file, and a clone of it."""
    upstream = tmp_path / "upstream"
    (upstream / "deploy").mkdir(parents=True)
    (upstream / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    (upstream / "deploy" / "spit-cabinet.service").write_text("[Unit]\n", encoding="utf-8")
    git(upstream, "init", "--quiet", "--initial-branch=main")
    git(upstream, "add", "-A")
    git(upstream, "commit", "--quiet", "-m", "first")
    clone = tmp_path / "clone"
    done = run(["git", "clone", "--quiet", upstream, clone])
    assert done.returncode == 0, done.stderr
    return upstream, clone


def test_dry_run_plan_stops_installs_flashes_then_starts(tmp_path: Path) -> None:
    done = run(
        ["bash", UPDATE, "--dry-run", "--no-pull", "--install-dir", tmp_path / "opt",
         "--flash-firmware", "--port", "/dev/ttyACM0"]
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    cmds = commands(done.stdout)
    assert not [c for c in cmds if "git" in c.split()]
    stop = cmds.index("systemctl stop spit-cabinet.service")
    install = next(i for i, c in enumerate(cmds) if "pip install" in c and "[pi,flash]" in c)
    flash = cmds.index(f"{tmp_path}/opt/venv/bin/spit-cabinet firmware flash --port /dev/ttyACM0")
    start = cmds.index("systemctl start spit-cabinet.service")
    assert stop < install < flash < start
    assert "the data directory is not touched" in done.stdout


def test_dry_run_pulls_the_checkout(checkout: tuple[Path, Path]) -> None:
    _, clone = checkout
    head = git(clone, "rev-parse", "HEAD")
    done = run(["bash", UPDATE, "--dry-run", "--source", clone, "--no-restart"])
    assert done.returncode == 0, done.stderr
    assert f"git -C {clone} pull --ff-only" in commands(done.stdout)
    assert "systemctl start spit-cabinet.service" not in commands(done.stdout)
    assert git(clone, "rev-parse", "HEAD") == head


def test_pull_brings_new_commits_and_warns_when_the_unit_changed(
    checkout: tuple[Path, Path],
) -> None:
    upstream, clone = checkout
    (upstream / "deploy" / "spit-cabinet.service").write_text(
        "[Unit]\nDescription=new\n", encoding="utf-8"
    )
    git(upstream, "commit", "--quiet", "-am", "unit changed")
    done = bash(UPDATE, 'pull_checkout "$1"', str(clone))
    assert done.returncode == 0, done.stderr
    assert git(clone, "rev-parse", "HEAD") == git(upstream, "rev-parse", "HEAD")
    assert "checkout updated:" in done.stdout
    assert "run deploy/install.sh again" in done.stderr

    (upstream / "README").write_text("docs only\n", encoding="utf-8")
    git(upstream, "add", "README")
    git(upstream, "commit", "--quiet", "-m", "docs")
    done = bash(UPDATE, 'pull_checkout "$1"', str(clone))
    assert done.returncode == 0, done.stderr
    assert "checkout updated:" in done.stdout
    assert "install.sh again" not in done.stderr
    again = bash(UPDATE, 'pull_checkout "$1"', str(clone))
    assert "no new commits" in again.stdout


# A real run of update.sh's main, with systemctl and the package install stood in for by
# shell functions that log what they are asked to do, and a stand-in installed cabinet.
STAND_INS = """
require_root() { :; }
systemctl() { printf 'systemctl %s\\n' "$*" >>"$LOG"; }
install_package() { printf 'install_package %s\\n' "$*" >>"$LOG"; return "$INSTALL_STATUS"; }
"""


def real_run(tmp_path: Path, install_status: int, *args: str) -> tuple[int, str, list[str]]:
    install_dir = tmp_path / "opt"
    (install_dir / "venv" / "bin").mkdir(parents=True)
    log = tmp_path / "log"
    log.write_text("", encoding="utf-8")
    for name, body in (("python", "exit 0"), ("spit-cabinet", 'echo "spit-cabinet $*" >>"$LOG"')):
        exe = install_dir / "venv" / "bin" / name
        exe.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        exe.chmod(0o755)
    code = (
        f"export LOG={log} INSTALL_STATUS={install_status}; {STAND_INS}\n"
        f'main --no-pull --install-dir {install_dir} "$@"'
    )
    done = bash(UPDATE, code, *args)
    return done.returncode, done.stderr, log.read_text(encoding="utf-8").splitlines()


def test_a_real_run_stops_installs_flashes_and_starts_in_that_order(tmp_path: Path) -> None:
    status, err, log = real_run(tmp_path, 0, "--flash-firmware", "--port", "/dev/ttyACM0")
    assert status == 0, err
    assert log == [
        "systemctl is-active --quiet spit-cabinet.service",
        "systemctl stop spit-cabinet.service",
        f"install_package {UPDATE.parents[1]} {tmp_path}/opt/venv",
        "spit-cabinet firmware flash --port /dev/ttyACM0",
        "systemctl start spit-cabinet.service",
    ]


def test_a_failed_update_starts_the_cabinet_again(tmp_path: Path) -> None:
    status, err, log = real_run(tmp_path, 1, "--flash-firmware")
    assert status != 0
    assert "update failed" in err
    assert log[-2:] == [
        f"install_package {UPDATE.parents[1]} {tmp_path}/opt/venv",
        "systemctl start spit-cabinet.service",
    ]
    assert not [line for line in log if "firmware flash" in line]


def test_update_needs_an_installed_cabinet(tmp_path: Path) -> None:
    done = bash(UPDATE, 'require_root() { :; }; main --no-pull --install-dir "$1"', str(tmp_path))
    assert done.returncode == 1
    assert "run deploy/install.sh first" in done.stderr


def test_port_without_flash_is_refused() -> None:
    done = run(["bash", UPDATE, "--dry-run", "--port", "/dev/ttyACM0"])
    assert done.returncode == 2
    assert "--port and --config are for --flash-firmware" in done.stderr


@pytest.mark.parametrize("script", [INSTALL, UPDATE], ids=["install", "update"])
@pytest.mark.parametrize(
    ("cmdline", "refused"),
    [
        ("console=tty1 root=PARTUUID=1-02 overlayroot=tmpfs rootwait", True),
        ("console=tty1 overlayroot=tmpfs:recurse=0", True),
        ("boot=overlay console=tty1", True),
        ("console=tty1 overlayroot=disabled", False),
        # A container's overlay root: nothing on the command line asked for it.
        ("console=ttyS0 quiet", False),
    ],
)
def test_both_scripts_refuse_the_read_only_root(
    tmp_path: Path, script: Path, cmdline: str, refused: bool
) -> None:
    proc_cmdline = tmp_path / "cmdline"
    proc_cmdline.write_text(cmdline + "\n", encoding="utf-8")
    extra = "--skip-apt" if script == INSTALL else "--no-pull"
    code = (
        "root_fstype() { echo overlay; }; PROC_CMDLINE=$1; "
        f"main --dry-run {extra} --install-dir {tmp_path}/opt"
    )
    done = bash(script, code, str(proc_cmdline))
    if refused:
        assert done.returncode == 1
        assert "raspi-config nonint disable_overlayfs" in done.stderr
        assert commands(done.stdout) == []
    else:
        assert done.returncode == 0, done.stderr
        assert commands(done.stdout)
