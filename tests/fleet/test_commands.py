"""``spit-cabinet fleet join|status|leave`` and ``doctor``'s fleet and missing-switch
checks, on a real join file from ``spit-fleet add-cabinet`` and a real broker."""

from __future__ import annotations

import json
import os
import pwd
from pathlib import Path

import pytest

from cabinet.commands.cli import main
from cabinet.commands.doctor_fleet import check_fleet, check_missing_switches
from cabinet.commands.findings import Severity
from cabinet.storage.store import CabinetStore
from fleet import cli as fleet_cli
from tests.fleet.conftest import Route
from tests.fleet.services import Broker, IngestProcess, Postgres, free_port, running


def test_join_status_and_leave(
    route: Route, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "cab")
    join_file = route.add_cabinet("bar-3", "Cinema Nova")
    capsys.readouterr()
    assert main(["fleet", "status", "--data-dir", data]) == 0
    assert "fleet: none (the cabinet opens no connection)" in capsys.readouterr().out
    assert main(["fleet", "join", str(join_file), "--data-dir", data]) == 0
    assert "joined fleet 'Test Route' as bar-3 at Cinema Nova" in capsys.readouterr().out
    store = CabinetStore.open(Path(data))
    store.save_audits()  # one event queued
    store.close()
    assert main(["fleet", "status", "--json", "--data-dir", data]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["cabinet"] == "bar-3" and state["queued"] == 1 and state["connected"] is False
    assert main(["fleet", "leave", "--data-dir", data]) == 0
    assert "1 event(s) not yet sent were discarded" in capsys.readouterr().out
    assert main(["fleet", "status", "--data-dir", data]) == 0
    assert "fleet: none" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("not json", "not JSON"),
        ('{"format": "other"}', "is not a join file"),
        ('{"format": "spit-fleet-join", "version": 9}', "version 9"),
    ],
)
def test_a_bad_join_file_is_refused_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    bad = tmp_path / "join.json"
    bad.write_text(text)
    assert main(["fleet", "join", str(bad), "--data-dir", str(tmp_path / "cab")]) == 2
    assert said in capsys.readouterr().err


def test_a_join_file_with_a_bad_certificate_is_refused(
    route: Route, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    join_file = route.add_cabinet("bar-4")
    data = json.loads(join_file.read_text())
    data["ca"] = "-----BEGIN CERTIFICATE-----\nbroken\n-----END CERTIFICATE-----\n"
    join_file.write_text(json.dumps(data))
    assert main(["fleet", "join", str(join_file), "--data-dir", str(tmp_path / "cab")]) == 2
    assert "its CA certificate cannot be used" in capsys.readouterr().err


def test_doctor_checks_the_link(route: Route) -> None:
    cabinet = route.cabinet("bar-5")
    data = cabinet.data_dir
    down = check_fleet(data)
    assert down.severity is Severity.FAIL and "cannot be reached over TLS" in down.detail
    with running(route.broker):
        up = check_fleet(data)
    assert up.severity is Severity.OK and "reachable over TLS" in up.detail
    assert check_fleet(route.root / "elsewhere").severity is Severity.OK


def test_doctor_says_a_missing_switch(tmp_path: Path) -> None:
    store = CabinetStore.open(tmp_path)
    assert check_missing_switches(tmp_path).severity is Severity.OK
    with store.db.transaction() as conn:
        conn.execute("INSERT INTO button_silence (control, games) VALUES ('p2.slot4', 12)")
    store.close()
    finding = check_missing_switches(tmp_path)
    assert finding.severity is Severity.WARN and finding.detail.startswith("p2.slot4")


def test_doctor_s_findings_are_queued_for_the_fleet(route: Route) -> None:
    from cabinet.commands.doctor_fleet import report_findings
    from cabinet.commands.findings import Finding
    from cabinet.storage.outbox import pending

    cabinet = route.cabinet("bar-6")
    findings = [
        Finding("fleet", Severity.OK, "reachable"),
        Finding("missing switches", Severity.WARN, "p1.slot2: not pressed", "check it"),
    ]
    assert report_findings(cabinet.data_dir, findings)
    rows = [r for r in pending(cabinet.store.db.connection, 0, 100) if r.kind == "doctor"]
    assert [f["severity"] for f in rows[0].body["findings"]] == ["ok", "warn"]
    assert not report_findings(route.root / "no-cabinet", findings)


def test_ingest_reaches_the_broker_by_the_name_it_is_given(
    postgres: Postgres, tmp_path: Path
) -> None:
    """A fleet whose cabinets use a name the server cannot reach itself by (here one no DNS
    knows): ``spit-fleet ingest --broker-host`` takes another of init's names."""
    folder, port = tmp_path / "fleet", free_port()
    database = postgres.new_database(f"fleet_broker_host_{os.getpid()}")
    assert fleet_cli.main(["init", "--dir", str(folder), "--name", "Far Route", "--host",
                           "fleet.invalid", "--host", "127.0.0.1", "--port", str(port),
                           "--bind", "127.0.0.1", "--database", database, "--broker-user",
                           pwd.getpwuid(os.geteuid()).pw_name]) == 0  # fmt: skip
    ingest = IngestProcess(folder, "fleet.cli", "ingest", "--dir", str(folder),
                           "--broker-host", "127.0.0.1")  # fmt: skip
    with running(Broker(folder, port), ingest):  # it waits for ingest's "subscribed"
        assert "fleet.invalid" not in ingest.log.read_text()
