"""A fairness certificate on its way to the fleet: the cabinet keeps it in its books and
queues it (the command and the service menu both do so), the real sender sends it, the
real ingest stores it in PostgreSQL once on its key (cabinet, epoch, seq), even when ingest
dies between its commit and its acknowledgement and the cabinet sends it again, and the
acknowledgement empties the outbox."""

from __future__ import annotations

from cabinet.fairness.certificate import CaseResult, Certificate, Source
from cabinet.storage import fairness
from tests.fleet.conftest import Route
from tests.fleet.services import IngestProcess, running
from tests.fleet.test_faults import sending
from tests.fleet.waiting import wait_for

CERTIFICATE = Certificate(
    Source.JIG,
    2.0,
    31,
    150,
    (CaseResult(50, 100, 96, 4), CaseResult(100, 100, 100), CaseResult(1000, 100, 99, 0, 1)),
    "1.2.3",
    "2026-12-05T10:00:00+00:00",
)


def test_a_certificate_is_stored_once_though_sent_again(route: Route) -> None:
    cabinet = route.cabinet("bar-1")
    assert fairness.record(cabinet.store, CERTIFICATE.body())  # kept, and queued
    cabinet.play(seed=3)  # a game after it: the same batch carries both
    crashing = IngestProcess(route.folder, "tests.fleet.ingest_process", str(route.folder), "1")
    with running(route.broker, crashing), sending(cabinet):
        crashing.wait(30)  # it stored the batch, and died before acknowledging it
        assert route.stored("bar-1", "fairness") == 1
        assert cabinet.queued() > 0  # the cabinet was not told
        crashing.set_log_aside()
        with running(route.ingest):  # sent again; stored once; acknowledged
            wait_for(
                "the outbox to empty", lambda: cabinet.queued() == 0, cabinet.changes, timeout_s=60
            )
    assert route.stored("bar-1", "fairness") == 1
    assert route.stored("bar-1", "game") == 1
    with route.db() as conn:
        rows = conn.execute(
            "SELECT body, cabinet_at, synced FROM events WHERE cabinet = 'bar-1' "
            "AND kind = 'fairness'"
        ).fetchall()
        refused = conn.execute("SELECT count(*) FROM refused").fetchone()
    ((body, _at, synced),) = rows
    assert Certificate.from_body(body) == CERTIFICATE and synced is True
    assert refused == (0,)
