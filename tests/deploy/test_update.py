"""update.sh's plan for each kind of source, a real pull of a git checkout, and both scripts
refusing to install onto the read-only root. Real installs, rollbacks and the power-cut
test are in test_versions.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deploy.conftest import DEPLOY, INSTALL, REPO, UPDATE, bash, run


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


def test_the_updater_runs_through_the_link_install_sh_makes(
    tmp_path: Path, wheelhouse: Path
) -> None:
    # install.sh links /usr/local/sbin/spit-cabinet-update to INSTALL_DIR/bin/update.sh: run
    # through the link, the script must still find lib.sh and versions.sh beside itself
    # (it did not, found on the virtual Pi).
    link = tmp_path / "sbin" / "spit-cabinet-update"
    link.parent.mkdir()
    link.symlink_to(UPDATE)
    done = run(["bash", link, "--dry-run", "--from", wheelhouse, "--install-dir", tmp_path / "opt"])
    assert done.returncode == 0, done.stderr
    assert any(line.startswith("+ ") and "pip install" in line for line in done.stdout.splitlines())


def test_dry_run_plan_installs_beside_switches_then_flashes_and_starts(
    tmp_path: Path, wheelhouse: Path
) -> None:
    done = run(
        ["bash", UPDATE, "--dry-run", "--from", wheelhouse, "--install-dir", tmp_path / "opt",
         "--flash-firmware", "--port", "/dev/ttyACM0"]
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    cmds = commands(done.stdout)
    opt = f"{tmp_path}/opt"
    assert not [c for c in cmds if "git" in c.split()]
    venv = next(i for i, c in enumerate(cmds) if c.startswith("python3 -m venv"))
    version = cmds[venv].split()[-1].removesuffix("/venv")
    assert cmds[venv] == f"python3 -m venv --system-site-packages {version}/venv"
    assert version.startswith(f"{opt}/versions/")
    offline = next(i for i, c in enumerate(cmds) if " download " in c)
    assert "--no-index" in cmds[offline].split()  # the wheelhouse and the stick first
    install = next(i for i, c in enumerate(cmds) if " install " in c and "[flash]" in c)
    switch = cmds.index(f"mv -T {opt}/current.new {opt}/current")
    stop = cmds.index("systemctl stop spit-cabinet.service")
    flash = cmds.index(f"{opt}/current/venv/bin/spit-cabinet firmware flash --port /dev/ttyACM0")
    start = cmds.index("systemctl start spit-cabinet.service")
    assert venv < offline < install < switch < stop < flash < start
    assert f"would write {version}/COMPLETE (mode 0644):" in done.stdout
    assert "the data directory is not touched" in done.stdout


def test_dry_run_pulls_the_checkout(checkout: tuple[Path, Path], tmp_path: Path) -> None:
    _, clone = checkout
    head = git(clone, "rev-parse", "HEAD")
    done = run(
        ["bash", UPDATE, "--dry-run", "--from", clone, "--no-restart",
         "--install-dir", tmp_path / "opt"]
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    cmds = commands(done.stdout)
    assert f"git -C {clone} pull --ff-only" in cmds
    assert any(" wheel " in c and c.endswith("/tmp/src") for c in cmds)
    assert not [c for c in cmds if c.startswith("systemctl")]
    assert git(clone, "rev-parse", "HEAD") == head


def test_a_git_url_is_cloned_and_an_unknown_source_refused(tmp_path: Path) -> None:
    url = "https://git.example.org/arcade/spit-cabinet.git"
    done = run(["bash", UPDATE, "--dry-run", "--from", url, "--install-dir", tmp_path / "opt"])
    assert done.returncode == 0, done.stderr
    assert f"git clone --quiet --depth 1 {url} {tmp_path}/opt/tmp/clone" in commands(done.stdout)
    bad = run(["bash", UPDATE, "--dry-run", "--from", tmp_path, "--install-dir", tmp_path / "o"])
    assert bad.returncode == 1
    assert "must be a git URL, a .whl file, a checkout or a folder of wheels" in bad.stderr


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


def test_update_needs_an_installed_cabinet(tmp_path: Path, wheelhouse: Path) -> None:
    done = run(["bash", UPDATE, "--from", wheelhouse, "--install-dir", tmp_path])
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
    extra = "--skip-apt" if script == INSTALL else f"--no-pull --from {REPO}"
    code = (
        "root_fstype() { echo overlay; }; dir_fstype() { echo overlay; }; PROC_CMDLINE=$1; "
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


@pytest.mark.parametrize(("script", "refused"), [(INSTALL, True), (UPDATE, False)])
def test_under_the_read_only_root_only_the_update_goes_on_when_its_folder_is_its_own(
    tmp_path: Path, script: Path, refused: bool
) -> None:
    """The flashed card: the root is the overlay, the versions are on the data partition
    (ext4). An update writes only there and goes on; an install (users, the unit, /etc)
    is still refused."""
    proc_cmdline = tmp_path / "cmdline"
    proc_cmdline.write_text("console=tty3 overlayroot=tmpfs:recurse=0\n", encoding="utf-8")
    extra = "--skip-apt" if script == INSTALL else f"--no-pull --from {REPO}"
    code = (
        "root_fstype() { echo overlay; }; dir_fstype() { echo ext4; }; PROC_CMDLINE=$1; "
        f"main --dry-run {extra} --install-dir {tmp_path}/opt"
    )
    done = bash(script, code, str(proc_cmdline))
    assert (done.returncode == 1) is refused, done.stderr
    assert ("raspi-config nonint disable_overlayfs" in done.stderr) is refused


def test_a_folder_not_made_yet_is_on_its_nearest_existing_folders_file_system(
    tmp_path: Path,
) -> None:
    done = bash(UPDATE, 'dir_fstype "$1"; dir_fstype "$2"', str(tmp_path / "no" / "such"), "/")
    below, root = done.stdout.split()
    expected = run(["findmnt", "--noheadings", "--output", "FSTYPE", "--target", str(tmp_path)])
    assert below == expected.stdout.strip()
    assert root == run(["findmnt", "--noheadings", "--output", "FSTYPE", "/"]).stdout.strip()


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        ("https://fleet.example.com:8443/releases/", "release"),
        ("https://fleet.example.com:8443/releases", "release"),
        ("https://git.example.org/arcade/spit-cabinet.git", "git"),
        ("https://git.example.org/releases/spit-cabinet.git", "git"),
        ("git@git.example.org:arcade/spit-cabinet.git", "git"),
    ],
)
def test_the_fleet_s_releases_are_told_from_a_git_url(source: str, kind: str) -> None:
    done = bash(DEPLOY / "lib.sh", 'source_kind "$1"', source)
    assert done.returncode == 0, done.stderr
    assert done.stdout == kind
