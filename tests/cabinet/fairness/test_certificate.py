"""The certificate: its body (what the books keep and the fleet is sent), its pass mark,
and the books' table (docs/fairness.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cabinet.fairness.certificate import CaseResult, Certificate, Source
from cabinet.link import membership
from cabinet.storage import fairness
from cabinet.storage.outbox import Kind, pending
from cabinet.storage.store import CabinetStore
from fleet.join_file import Join

JOIN = Join("Route", "bar-1", "The Anchor", "localhost", 8883, "pw", "ca")


def certificate(*cases: CaseResult) -> Certificate:
    return Certificate(Source.JIG, 2.0, 31, 150, cases, "1.2.3", "2026-12-05T10:00:00+00:00")


def test_the_body_reads_back_as_the_same_certificate() -> None:
    cert = certificate(CaseResult(50, 100, 97, 3), CaseResult(100, 100, 100, late=2))
    body = json.loads(json.dumps(cert.body()))
    assert Certificate.from_body(body) == cert
    assert body["passed"] is True and body["cases"][0]["wrong"] == 3


@pytest.mark.parametrize(
    ("case", "passed"),
    [
        (CaseResult(100, 1000, 999, 1), True),  # 99.9 %
        (CaseResult(100, 1000, 998, 2), False),
        (CaseResult(100, 100, 99, 1), False),  # 99 % of 100
        (CaseResult(250, 1000, 999, 0, 1), False),  # a missed press fails, whatever
        (CaseResult(50, 100, 10, 90), True),  # under the mark: reported only
    ],
)
def test_the_pass_mark(case: CaseResult, passed: bool) -> None:
    assert certificate(case).passed is passed


def test_a_test_that_pressed_nothing_does_not_pass() -> None:
    assert not certificate().passed


def test_a_body_that_is_not_a_certificate_is_refused() -> None:
    body = certificate(CaseResult(100, 2, 2)).body()
    del body["cases"][0]["late"]
    with pytest.raises(ValueError, match="not a fairness certificate"):
        Certificate.from_body(body)
    with pytest.raises(ValueError):
        Certificate.from_body({**certificate().body(), "source": "hand"})


def test_the_books_keep_certificates_and_queue_them_only_in_a_fleet(tmp_path: Path) -> None:
    store = CabinetStore.open(tmp_path, synced=lambda: False)
    try:
        first = certificate(CaseResult(100, 2, 2)).body()
        assert fairness.record(store, first) is False  # in no fleet: kept, not queued
        assert fairness.stored(store) == first
        with store.db.transaction() as conn:
            membership.join(conn, JOIN)
        second = certificate(CaseResult(100, 2, 1, 1)).body()
        assert fairness.record(store, second) is True
        assert fairness.stored(store) == second
        rows = [r for r in pending(store.db.connection, 0, 100) if r.kind == Kind.FAIRNESS]
        assert [json.loads(r.body) if isinstance(r.body, str) else r.body for r in rows] == [second]
    finally:
        store.close()


def test_the_books_keep_the_newest_fifty(tmp_path: Path) -> None:
    store = CabinetStore.open(tmp_path)
    try:
        for n in range(fairness.KEEP + 5):
            fairness.record(store, {**certificate().body(), "seed": n})
        conn = store.db.connection
        assert conn.execute("SELECT count(*) FROM fairness").fetchone() == (fairness.KEEP,)
        assert (fairness.stored(store) or {})["seed"] == fairness.KEEP + 4
    finally:
        store.close()


def spit_cabinet(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cabinet", *argv], capture_output=True, text=True, timeout=120
    )


def test_the_command_runs_a_test_on_mock_pins_and_keeps_its_certificate(tmp_path: Path) -> None:
    done = spit_cabinet(
        "fairness", "--input", "mock", "--offsets", "100,1000", "--pairs", "2",
        "--gap-ms", "100", "--json", "--data-dir", str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["source"] == "mock" and body["passed"] is True
    assert [(c["offset_us"], c["pairs"], c["missed"]) for c in body["cases"]] == [
        (100, 2, 0),
        (1000, 2, 0),
    ]
    store = CabinetStore.open(tmp_path)
    try:
        assert fairness.stored(store) == body
    finally:
        store.close()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--pairs", "3"], "pairs per offset must be even"),
        (["--offsets", "0,100"], "an offset is 1 to 20000 microseconds"),
        (["--offsets", "fast"], "not a list of whole microseconds"),
        (["--gap-ms", "50"], "pairs need at least"),
        (["--input", "keyboard"], "a keyboard cannot take the jig's presses"),
    ],
)
def test_bad_options_say_what_is_wrong_and_keep_nothing(
    tmp_path: Path, argv: list[str], said: str
) -> None:
    done = spit_cabinet("fairness", "--input", "mock", *argv, "--data-dir", str(tmp_path))
    assert done.returncode == 2
    assert said in done.stderr
    assert not (tmp_path / "cabinet.db").exists() or _no_certificate(tmp_path)


def _no_certificate(path: Path) -> bool:
    store = CabinetStore.open(path)
    try:
        return fairness.stored(store) is None
    finally:
        store.close()
