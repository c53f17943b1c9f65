"""The fleet's systemd units: ``systemd-analyze verify`` passes them, and they keep what
docs/fleet.md says of them (the broker stopped with SIGTERM, reloaded with SIGHUP, all
as the fleet's own user; the digest's timer every morning)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deploy.conftest import REPO, parse_unit, require_tool, run, values

UNITS = REPO / "deploy" / "fleet"


SERVICES = [
    "spit-fleet-broker.service",
    "spit-fleet-ingest.service",
    "spit-fleet-digest.service",
]


@pytest.mark.parametrize("name", [*SERVICES, "spit-fleet-digest.timer"])
def test_the_unit_verifies(name: str, tmp_path: Path) -> None:
    tool = require_tool("systemd-analyze", "sudo apt-get install systemd (README, Prerequisites)")
    # Where the install puts the programs, here: executables of the test's own.
    programs = ("/usr/sbin/mosquitto", "/opt/spit-fleet/venv/bin/spit-fleet")
    for program in programs:
        stand_in = tmp_path / Path(program).name
        stand_in.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        stand_in.chmod(0o755)
    for each in UNITS.iterdir():  # every unit beside it: a timer's service must be there
        text = each.read_text(encoding="utf-8")
        for program in programs:
            text = text.replace(program, str(tmp_path / Path(program).name))
        (tmp_path / each.name).write_text(text, encoding="utf-8")
    unit = tmp_path / name
    done = run([tool, "verify", "--man=no", str(unit)])
    ours = [line for line in (done.stdout + done.stderr).splitlines() if name in line]
    assert done.returncode == 0 and not ours, ours or done.stderr


def test_the_broker_is_stopped_gently_and_reloaded_with_sighup() -> None:
    entries = parse_unit((UNITS / "spit-fleet-broker.service").read_text(encoding="utf-8"))
    assert values(entries, "Service", "KillSignal") == ["SIGTERM"]
    assert values(entries, "Service", "ExecReload") == ["/bin/kill -HUP $MAINPID"]
    for name in SERVICES:
        assert values(
            parse_unit((UNITS / name).read_text(encoding="utf-8")), "Service", "User"
        ) == ["spit-fleet"]


def test_the_digest_runs_every_morning_once() -> None:
    timer = parse_unit((UNITS / "spit-fleet-digest.timer").read_text(encoding="utf-8"))
    assert values(timer, "Timer", "OnCalendar") == ["*-*-* 07:00:00"]
    assert values(timer, "Timer", "Unit") == ["spit-fleet-digest.service"]
    service = parse_unit((UNITS / "spit-fleet-digest.service").read_text(encoding="utf-8"))
    assert values(service, "Service", "Type") == ["oneshot"]
