"""install.sh: the plan ``--dry-run`` prints (and that it changes nothing), its option checks,
the root check, and the kernel command line edit behind ``--quiet-boot``."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.deploy.conftest import (
    CABINET_GROUPS,
    DEPLOY,
    INSTALL,
    bash,
    require_tool,
    run,
)

PI_CMDLINE = (
    "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
    "fsck.repair=yes rootwait consoleblank=600 quiet cfg80211.ieee80211_regdom=GB"
)
QUIET = ["consoleblank=0", "logo.nologo", "quiet", "loglevel=3", "vt.global_cursor_default=0"]
# Machine-wide things a real run would change; a dry run must leave each as it was.
SYSTEM_PATHS = [
    Path("/etc/systemd/system/spit-cabinet.service"),
    Path("/etc/default/spit-cabinet"),
    Path("/usr/local/bin/spit-cabinet"),
    Path("/usr/local/sbin/spit-cabinet-update"),
]


def state(path: Path) -> tuple[bool, int]:
    """Whether ``path`` exists (a dangling link counts) and when it last changed."""
    try:
        return (True, path.lstat().st_mtime_ns)
    except FileNotFoundError:
        return (False, 0)


def user_exists(name: str) -> bool:
    return run(["id", "-u", name]).returncode == 0


@pytest.fixture
def dry_run(tmp_path: Path) -> tuple[str, str, Path]:
    """install.sh --dry-run with every option pointing into tmp_path: (stdout, stderr, tmp)."""
    assert not user_exists("spittest")
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(PI_CMDLINE + "\n", encoding="utf-8")
    before = [state(p) for p in SYSTEM_PATHS]
    done = run(
        [
            "bash", INSTALL, "--dry-run",
            "--install-dir", tmp_path / "opt",
            "--data-dir", tmp_path / "data",
            "--user", "spittest",
            "--quiet-boot", "--cmdline", cmdline,
        ]
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    # Nothing was changed.
    assert [state(p) for p in SYSTEM_PATHS] == before
    assert not (tmp_path / "opt").exists()
    assert not (tmp_path / "data").exists()
    assert cmdline.read_text(encoding="utf-8") == PI_CMDLINE + "\n"
    assert not list(tmp_path.glob("cmdline.txt.*"))
    assert not user_exists("spittest")
    return done.stdout, done.stderr, tmp_path


def commands(out: str) -> list[str]:
    return [line[2:] for line in out.splitlines() if line.startswith("+ ")]


def test_dry_run_installs_the_packages_the_display_and_sound_need(
    dry_run: tuple[str, str, Path],
) -> None:
    out, _, _ = dry_run
    apt = [c for c in commands(out) if "apt-get install" in c]
    assert len(apt) == 1
    packages = set(apt[0].split())
    needed = {"python3-venv", "libdrm2", "libgbm1", "libegl1", "libgles2", "libgl1-mesa-dri"}
    assert needed | {"libasound2", "git"} <= packages


def test_dry_run_creates_the_user_in_every_group(dry_run: tuple[str, str, Path]) -> None:
    out, err, _ = dry_run
    assert any(c.startswith("useradd --system") and c.endswith(" spittest") for c in commands(out))
    usermod = [c for c in commands(out) if c.startswith("usermod --append --groups")]
    joined = set(usermod[0].split()[3].split(",")) if usermod else set()
    for group in CABINET_GROUPS:
        assert group in out.split("groups: ")[1].splitlines()[0].split()
        # Joined, or (on a machine without that group, unlike Raspberry Pi OS) a warning.
        assert group in joined or f"group '{group}' does not exist" in err
    for group in joined:
        assert run(["getent", "group", group]).returncode == 0


def test_dry_run_installs_a_first_version_and_the_updater(
    dry_run: tuple[str, str, Path],
) -> None:
    out, _, tmp = dry_run
    cmds = commands(out)
    opt = f"{tmp}/opt"
    venv = next(c for c in cmds if c.startswith("python3 -m venv"))
    version = venv.split()[-1].removesuffix("/venv")
    assert venv == f"python3 -m venv --system-site-packages {version}/venv"
    assert version.startswith(f"{opt}/versions/")
    assert f"install -d -m 0750 -o spittest -g spittest {tmp}/data" in cmds
    assert any(c.startswith(f"{version}/venv/bin/pip install") and "[flash]" in c for c in cmds)
    assert f"mv -T {opt}/current.new {opt}/current" in cmds
    assert f"ln -sfn {opt}/current/venv/bin/spit-cabinet /usr/local/bin/spit-cabinet" in cmds
    assert f"ln -sfn {opt}/bin/update.sh /usr/local/sbin/spit-cabinet-update" in cmds
    for script in ("update.sh", "lib.sh", "versions.sh"):
        assert f"install -m 0755 {DEPLOY}/{script} {opt}/bin/{script}" in cmds
    assert f"would write {opt}/source (mode 0644):" in out


def test_dry_run_installs_and_enables_the_unit(dry_run: tuple[str, str, Path]) -> None:
    out, _, tmp = dry_run
    assert "would write /etc/systemd/system/spit-cabinet.service (mode 0644):" in out
    unit = [line[6:] for line in out.splitlines() if line.startswith("    | ")]
    assert f"ExecStart={tmp}/opt/current/venv/bin/spit-cabinet" in unit
    assert f"ExecStartPre=+{tmp}/opt/bin/update.sh --boot-check --install-dir {tmp}/opt" in unit
    assert not [line for line in unit if line.startswith("ExecStartPost")]
    assert f"Environment=SPIT_CABINET_INSTALL={tmp}/opt" in unit
    assert f"Environment=SPIT_CABINET_DATA={tmp}/data" in unit
    assert "User=spittest" in unit
    cmds = commands(out)
    disable = cmds.index("systemctl disable getty@tty1.service")
    assert cmds.index("systemctl enable spit-cabinet.service") > disable
    # The path units that start root's services: a staged release's install, and the end
    # of a new version's trial at its first frame.
    enabled = [c.removeprefix("systemctl enable ") for c in cmds if c.startswith("systemctl en")]
    assert enabled == [
        "spit-cabinet.service", "spit-cabinet-install.path", "spit-cabinet-started.path"
    ]  # fmt: skip
    for unit in ("install.service", "started.service"):
        assert f"would write /etc/systemd/system/spit-cabinet-{unit} (mode 0644):" in out


def test_dry_run_shows_the_quiet_boot_command_line(dry_run: tuple[str, str, Path]) -> None:
    out, _, tmp = dry_run
    after = re.search(r"^kernel command line, after: +(.*)$", out, re.MULTILINE)
    assert after is not None
    words = after.group(1).split()
    assert set(QUIET) <= set(words)
    assert "consoleblank=600" not in words
    assert f"cp -p {tmp}/cmdline.txt {tmp}/cmdline.txt.spit-cabinet.orig" in commands(out)


def test_a_real_run_needs_root() -> None:
    # As root, the script runs as nobody, from a world-readable copy (the checkout and
    # pytest's tmp_path may be private to root).
    with tempfile.TemporaryDirectory(prefix="deploy-") as tmp:
        folder = Path(tmp)
        folder.chmod(0o755)
        shutil.copytree(DEPLOY, folder / "deploy")
        argv = ["bash", str(folder / "deploy" / "install.sh"), "--skip-apt"]
        argv += ["--install-dir", str(folder / "opt"), "--data-dir", str(folder / "data")]
        if os.geteuid() == 0:
            setpriv = require_tool("setpriv", "sudo apt-get install util-linux")
            argv = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *argv]
        done = run(argv)
        assert done.returncode == 1, done.stderr
        assert "must be run as root" in done.stderr
        assert "--dry-run" in done.stderr
        assert commands(done.stdout) == []
        assert not (folder / "opt").exists()
        assert not (folder / "data").exists()


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--frobnicate"], 2, "unknown option --frobnicate"),
        (["--data-dir"], 2, "--data-dir needs a value"),
        (["--data-dir", "var/lib/x"], 1, "--data-dir must be an absolute path"),
        (["--install-dir", "/opt/my cabinet"], 1, "must not contain spaces"),
        (["--install-dir", "/"], 1, "must not be the root directory"),
        (["--user", "Arcade"], 1, "--user must be a lower-case system user name"),
    ],
)
def test_bad_options_are_refused_before_anything_runs(
    args: list[str], status: int, message: str
) -> None:
    done = run(["bash", INSTALL, "--dry-run", *args])
    assert done.returncode == status
    assert message in done.stderr
    assert commands(done.stdout) == []


def test_help_lists_the_options() -> None:
    done = run(["bash", INSTALL, "--help"])
    assert done.returncode == 0
    for option in ("--install-dir", "--data-dir", "--user", "--quiet-boot", "--dry-run"):
        assert option in done.stdout


# The kernel command line edit (--quiet-boot), run for real on a file in tmp_path.


def cmdline_with(line: str, *options: str) -> str:
    done = bash(INSTALL, 'cmdline_with "$@"', line, *options)
    assert done.returncode == 0, done.stderr
    return done.stdout.rstrip("\n")


def test_quiet_boot_options_replace_old_values_and_keep_the_rest_in_order() -> None:
    new = cmdline_with(PI_CMDLINE, *QUIET).split()
    assert new[:7] == [
        "console=serial0,115200", "console=tty1", "root=PARTUUID=4e639091-02",
        "rootfstype=ext4", "fsck.repair=yes", "rootwait", "cfg80211.ieee80211_regdom=GB",
    ]  # fmt: skip
    assert new[7:] == QUIET


def test_quiet_boot_edits_the_file_once_and_keeps_the_original(tmp_path: Path) -> None:
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(PI_CMDLINE + "\n", encoding="utf-8")
    first = bash(INSTALL, 'quiet_boot "$1"', str(cmdline))
    assert first.returncode == 0, first.stderr
    text = cmdline.read_text(encoding="utf-8")
    assert text.count("\n") == 1 and text.endswith("\n")
    assert set(QUIET) <= set(text.split())
    orig = tmp_path / "cmdline.txt.spit-cabinet.orig"
    assert orig.read_text(encoding="utf-8") == PI_CMDLINE + "\n"
    second = bash(INSTALL, 'quiet_boot "$1"', str(cmdline))
    assert second.returncode == 0
    assert "unchanged" in second.stdout
    assert cmdline.read_text(encoding="utf-8") == text
    assert orig.read_text(encoding="utf-8") == PI_CMDLINE + "\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (PI_CMDLINE + "\nquiet\n", "more than one line"),
        ("", "is empty"),
    ],
)
def test_quiet_boot_refuses_a_file_it_does_not_understand(
    tmp_path: Path, content: str, message: str
) -> None:
    cmdline = tmp_path / "cmdline.txt"
    cmdline.write_text(content, encoding="utf-8")
    done = bash(INSTALL, 'quiet_boot "$1"', str(cmdline))
    assert done.returncode == 1
    assert message in done.stderr
    assert cmdline.read_text(encoding="utf-8") == content


WORD = st.from_regex(r"[a-z][a-z0-9_.]{0,8}(=[a-zA-Z0-9,_.:-]{0,8})?", fullmatch=True)


def replaced(word: str) -> bool:
    """Whether cmdline_with drops ``word``: it is one of the options, or sets the key of one."""
    keys = {option.partition("=")[0] for option in QUIET if "=" in option}
    key, sep, _ = word.partition("=")
    return word in QUIET or (bool(sep) and key in keys)


@settings(max_examples=40, deadline=None)
@example(words=["consoleblank", "consoleblank=", "loglevel=7", "quiet", "quiet=1"])
@given(words=st.lists(WORD | st.sampled_from(QUIET), min_size=1, max_size=12))
def test_cmdline_with_keeps_other_words_and_sets_each_option_once(words: list[str]) -> None:
    line = " ".join(words)
    new = cmdline_with(line, *QUIET).split()
    kept = [w for w in words if not replaced(w)]
    assert new == kept + QUIET
    assert cmdline_with(" ".join(new), *QUIET).split() == new  # idempotent
