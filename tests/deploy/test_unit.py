"""The systemd unit: ``systemd-analyze verify`` passes it and fails broken ones, install.sh
renders it faithfully, and it keeps the choices docs/install-pi.md explains."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.deploy.conftest import (
    UNIT,
    environment,
    parse_unit,
    require_tool,
    run,
    values,
)

DEFAULTS = ("/opt/spit-cabinet", "/var/lib/spit-cabinet", "spit")


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    tool = require_tool("systemd-analyze", "sudo apt-get install systemd (README, Prerequisites)")
    return run([tool, "verify", "--man=no", unit])


def problems(done: subprocess.CompletedProcess[str]) -> list[str]:
    """What systemd-analyze says about our unit: a failing status, and every line naming the
    unit (bad values are only warnings, with status 0, so the lines count too). Lines about
    other units on this machine are not ours to judge."""
    found = [
        line for line in (done.stdout + done.stderr).splitlines() if "spit-cabinet.service" in line
    ]
    if done.returncode != 0:
        found.append(f"exit status {done.returncode}")
    return found


def with_executable(install_dir: Path) -> None:
    """Put executables where the unit's ExecStart, ExecStartPre and ExecStartPost point, as
    the real install would."""
    for binary in (install_dir / "current" / "venv" / "bin" / "spit-cabinet",
                   install_dir / "bin" / "update.sh"):  # fmt: skip
        binary.parent.mkdir(parents=True)
        binary.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        binary.chmod(0o755)


def test_rendering_with_the_defaults_gives_the_committed_unit(
    render_unit: Callable[..., Path],
) -> None:
    rendered = render_unit(*DEFAULTS)
    assert rendered.read_text(encoding="utf-8") == UNIT.read_text(encoding="utf-8")


def test_rendering_puts_in_every_path_and_the_user(
    render_unit: Callable[..., Path], tmp_path: Path
) -> None:
    text = render_unit("/srv/cab", "/data/cab", "arcade").read_text(encoding="utf-8")
    entries = parse_unit(text)
    assert values(entries, "Service", "ExecStart") == ["/srv/cab/current/venv/bin/spit-cabinet"]
    assert values(entries, "Service", "ExecStartPre") == [
        "+/srv/cab/bin/update.sh --boot-check --install-dir /srv/cab"
    ]
    # Nothing runs after the start: it would get tty1 and hang up the running cabinet.
    assert values(entries, "Service", "ExecStartPost") == []
    assert environment(entries)["SPIT_CABINET_STARTED_FILE"] == "/run/spit-cabinet/started"
    assert values(entries, "Service", "RuntimeDirectoryPreserve") == ["restart"]
    assert values(entries, "Service", "Type") == ["notify"]
    assert environment(entries)["SPIT_CABINET_INSTALL"] == "/srv/cab"
    assert values(entries, "Service", "User") == ["arcade"]
    assert values(entries, "Service", "Group") == ["arcade"]
    assert environment(entries)["SPIT_CABINET_DATA"] == "/data/cab"
    assert values(entries, "Service", "ReadWritePaths") == ["/data/cab"]
    assert values(entries, "Unit", "RequiresMountsFor") == ["/data/cab"]
    settings = [line for line in text.splitlines() if not line.startswith("#")]
    assert not [line for line in settings if "/var/lib/spit-cabinet" in line]
    assert not [line for line in settings if "/opt/spit-cabinet" in line]
    # Comments are documentation: rendered as they are.
    comments = [line for line in text.splitlines() if line.startswith("#")]
    committed = [
        line for line in UNIT.read_text(encoding="utf-8").splitlines() if line.startswith("#")
    ]
    assert comments == committed


def test_systemd_analyze_verifies_the_unit(
    render_unit: Callable[..., Path], tmp_path: Path
) -> None:
    install_dir = tmp_path / "opt" / "spit-cabinet"
    with_executable(install_dir)
    unit = render_unit(str(install_dir), "/var/lib/spit-cabinet", "spit")
    done = verify(unit)
    assert problems(done) == [], done.stdout + done.stderr


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(None, "is not executable", id="no-executable"),
        pytest.param(("Restart=always", "Restart=alwys"), "restart specifier", id="bad-value"),
        pytest.param(
            ("WorkingDirectory=/run/spit-cabinet", "WorkingDirectory=run/spit-cabinet"),
            "not absolute",
            id="relative-path",
        ),
        pytest.param(("[Service]", "[Servce]"), "Servce", id="misspelt-section"),
        pytest.param(
            ("StandardOutput=journal", "StandardOutput=jornal"),
            "output specifier",
            id="bad-output",
        ),
    ],
)
def test_systemd_analyze_catches_a_broken_unit(
    render_unit: Callable[..., Path],
    tmp_path: Path,
    change: tuple[str, str] | None,
    expected: str,
) -> None:
    install_dir = tmp_path / "opt" / "spit-cabinet"
    if change is not None:
        with_executable(install_dir)
    unit = render_unit(str(install_dir), "/var/lib/spit-cabinet", "spit")
    if change is not None:
        old, new = change
        text = unit.read_text(encoding="utf-8")
        assert old in text
        unit.write_text(text.replace(old, new, 1), encoding="utf-8")
    found = problems(verify(unit))
    assert found, "systemd-analyze accepted a broken unit"
    assert any(expected in line for line in found), found


# The choices the unit stands for (docs/install-pi.md explains each).
ENTRIES = parse_unit(UNIT.read_text(encoding="utf-8"))


def one(section: str, key: str) -> str:
    found = values(ENTRIES, section, key)
    assert len(found) == 1, f"{section}.{key}: {found}"
    return found[0]


def test_it_restarts_forever_but_not_in_a_tight_loop() -> None:
    assert one("Service", "Restart") == "always"
    assert 1 <= float(one("Service", "RestartSec")) <= 10
    assert one("Unit", "StartLimitIntervalSec") == "0"


def test_lgpio_gets_a_writable_working_directory() -> None:
    runtime = "/run/" + one("Service", "RuntimeDirectory")
    assert one("Service", "WorkingDirectory") == runtime
    assert environment(ENTRIES)["LG_WD"] == runtime
    assert environment(ENTRIES)["HOME"] == runtime


def test_it_draws_on_the_console_with_kmsdrm_and_owns_tty1() -> None:
    env = environment(ENTRIES)
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert one("Service", "TTYPath") == "/dev/tty1"
    assert one("Service", "StandardInput") == "tty"
    assert "getty@tty1.service" in one("Unit", "Conflicts").split()
    assert "getty@tty1.service" in " ".join(values(ENTRIES, "Unit", "After")).split()


def test_its_output_goes_to_the_journal() -> None:
    # With StandardInput=tty, output would follow the input to the tty unless told otherwise.
    assert one("Service", "StandardOutput") == "journal"
    assert one("Service", "StandardError") == "journal"


def test_the_data_directory_is_the_writable_and_mounted_one() -> None:
    data = environment(ENTRIES)["SPIT_CABINET_DATA"]
    assert one("Service", "ReadWritePaths") == data
    assert one("Unit", "RequiresMountsFor") == data
    assert one("Service", "ProtectSystem") == "strict"


def test_the_shader_cache_outlives_a_boot_in_the_data_directory() -> None:
    """Mesa's cache in HOME would be in /run, lost at every boot (docs/install-pi.md)."""
    env = environment(ENTRIES)
    data = env["SPIT_CABINET_DATA"]
    cache = Path(env["MESA_SHADER_CACHE_DIR"])
    assert cache.is_relative_to(data) and cache != Path(data)
    assert not cache.is_relative_to(env["HOME"])
    assert env["MESA_SHADER_CACHE_MAX_SIZE"].endswith("M")


def test_it_waits_only_for_what_owns_the_screen_and_the_sound() -> None:
    """Ordered after the console's login prompt and the boot splash (both let go of the
    screen) and the sound cards, nothing else: not after the unit that allows logins, as
    a getty is (that wait was on its path at every boot)."""
    after = " ".join(values(ENTRIES, "Unit", "After")).split()
    assert set(after) == {"getty@tty1.service", "plymouth-quit-wait.service", "sound.target"}


def test_it_starts_at_boot_and_stops_cleanly() -> None:
    assert one("Install", "WantedBy") == "multi-user.target"
    assert one("Service", "KillSignal") == "SIGINT"
    assert "130" in one("Service", "SuccessExitStatus").split()
    assert one("Service", "EnvironmentFile") == "-/etc/default/spit-cabinet"


ROOT_UNITS = (
    "spit-cabinet-install.path",
    "spit-cabinet-install.service",
    "spit-cabinet-started.path",
    "spit-cabinet-started.service",
)


def test_systemd_analyze_verifies_the_install_units(tmp_path: Path) -> None:
    """The path units and the services they start as root, which install a staged release
    and end a new version's trial (rendered for another install and data directory, as
    install.sh does)."""
    from tests.deploy.conftest import DEPLOY, INSTALL, bash

    install_dir, data_dir = tmp_path / "opt", tmp_path / "data"
    with_executable(install_dir)
    folder = tmp_path / "units"
    folder.mkdir()
    for name in ROOT_UNITS:
        done = bash(INSTALL, 'render_unit "$@"', str(DEPLOY / name), str(install_dir),
                    str(data_dir), "spit")  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "/var/lib/spit-cabinet" not in done.stdout.split("[Unit]", 1)[1]
        (folder / name).write_text(done.stdout, encoding="utf-8")
    text = (folder / "spit-cabinet-install.path").read_text(encoding="utf-8")
    assert f"PathExists={data_dir}/releases/install-request" in text
    service = (folder / "spit-cabinet-install.service").read_text(encoding="utf-8")
    assert (
        f"{install_dir}/bin/update.sh --install-dir {install_dir} --data-dir {data_dir}" in service
    )
    started = parse_unit((folder / "spit-cabinet-started.path").read_text(encoding="utf-8"))
    assert values(started, "Path", "PathChanged") == ["/run/spit-cabinet/started"]
    started = parse_unit((folder / "spit-cabinet-started.service").read_text(encoding="utf-8"))
    assert values(started, "Service", "ExecStart") == [
        f"{install_dir}/bin/update.sh --started --install-dir {install_dir}"
    ]
    tool = require_tool("systemd-analyze", "sudo apt-get install systemd (README, Prerequisites)")
    done = run([tool, "verify", "--man=no", *sorted(folder.iterdir())])
    ours = [line for line in (done.stdout + done.stderr).splitlines() if "spit-cabinet-" in line]
    assert done.returncode == 0 and ours == [], done.stdout + done.stderr


def test_the_install_service_writes_its_boot_before_it_takes_the_request(
    tmp_path: Path,
) -> None:
    """Its first steps, run as written (rendered for another data directory): this boot's
    id kept, then the request and the last result taken. The cabinet asks again for an
    install started in another boot with no result (cabinet/updates/watch.py)."""
    import shlex

    from tests.deploy.conftest import DEPLOY, INSTALL, bash

    install_dir, data_dir = tmp_path / "opt", tmp_path / "data"
    releases = data_dir / "releases"
    releases.mkdir(parents=True)
    (releases / "install-request").write_text(f"{releases / 'staged'}\n")
    (releases / "install-result").write_text("1\n")
    done = bash(INSTALL, 'render_unit "$@"', str(DEPLOY / "spit-cabinet-install.service"),
                str(install_dir), str(data_dir), "spit")  # fmt: skip
    assert done.returncode == 0, done.stderr
    steps = values(parse_unit(done.stdout), "Service", "ExecStartPre")
    assert len(steps) == 2 and "install-started" in steps[0]
    for step in steps:
        assert run(shlex.split(step)).returncode == 0
    boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    assert (releases / "install-started").read_text().strip() == boot
    assert sorted(p.name for p in releases.iterdir()) == ["install-started"]
