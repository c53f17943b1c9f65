"""The web application's systemd unit: ``systemd-analyze verify`` passes it, and it runs
``spit-fleet web`` as the fleet's user, on loopback, behind the HTTPS proxy."""

from __future__ import annotations

from pathlib import Path

from tests.deploy.conftest import REPO, parse_unit, require_tool, run, values

UNIT = REPO / "deploy" / "fleet" / "spit-fleet-web.service"


def test_the_unit_verifies(tmp_path: Path) -> None:
    tool = require_tool("systemd-analyze", "sudo apt-get install systemd (README, Prerequisites)")
    program = "/opt/spit-fleet/venv/bin/spit-fleet"
    stand_in = tmp_path / "spit-fleet"
    stand_in.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    stand_in.chmod(0o755)
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text(encoding="utf-8").replace(program, str(stand_in)))
    done = run([tool, "verify", "--man=no", str(unit)])
    ours = [line for line in (done.stdout + done.stderr).splitlines() if UNIT.name in line]
    assert done.returncode == 0 and not ours, ours or done.stderr


def test_it_serves_on_loopback_as_the_fleet_s_user_behind_https() -> None:
    entries = parse_unit(UNIT.read_text(encoding="utf-8"))
    assert values(entries, "Service", "User") == ["spit-fleet"]
    (command,) = values(entries, "Service", "ExecStart")
    assert " web " in command and "--bind 127.0.0.1:" in command and "--https" in command
