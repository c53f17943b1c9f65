"""The fleet's systemd units: ``systemd-analyze verify`` passes them, and they keep what
docs/fleet.md says of them (the broker stopped with SIGTERM, reloaded with SIGHUP, both
as the fleet's own user)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deploy.conftest import REPO, parse_unit, require_tool, run, values

UNITS = REPO / "deploy" / "fleet"


@pytest.mark.parametrize("name", ["spit-fleet-broker.service", "spit-fleet-ingest.service"])
def test_the_unit_verifies(name: str, tmp_path: Path) -> None:
    tool = require_tool("systemd-analyze", "sudo apt-get install systemd (README, Prerequisites)")
    text = (UNITS / name).read_text(encoding="utf-8")
    # Where the install puts the programs, here: executables of the test's own.
    for program in ("/usr/sbin/mosquitto", "/opt/spit-fleet/venv/bin/spit-fleet"):
        stand_in = tmp_path / Path(program).name
        stand_in.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        stand_in.chmod(0o755)
        text = text.replace(program, str(stand_in))
    unit = tmp_path / name
    unit.write_text(text, encoding="utf-8")
    done = run([tool, "verify", "--man=no", str(unit)])
    ours = [line for line in (done.stdout + done.stderr).splitlines() if name in line]
    assert done.returncode == 0 and not ours, ours or done.stderr


def test_the_broker_is_stopped_gently_and_reloaded_with_sighup() -> None:
    entries = parse_unit((UNITS / "spit-fleet-broker.service").read_text(encoding="utf-8"))
    assert values(entries, "Service", "KillSignal") == ["SIGTERM"]
    assert values(entries, "Service", "ExecReload") == ["/bin/kill -HUP $MAINPID"]
    for name in ("spit-fleet-broker.service", "spit-fleet-ingest.service"):
        assert values(
            parse_unit((UNITS / name).read_text(encoding="utf-8")), "Service", "User"
        ) == ["spit-fleet"]
