"""The fairness test's page (Tests → Fairness test), on the real store on disk: the books'
certificates listed (the newest in full, the earlier ones a row each, read whole on a page
of their own), and the test run from the menu with a jig on the mock pins, its presses
reaching the page as the table reports them, its certificate kept in the books and queued
for the fleet; a keyboard cabinet refuses, a jig that never presses is said so."""

from __future__ import annotations

from datetime import datetime

import pygame

from cabinet.fairness.certificate import CaseResult, Certificate, Source
from cabinet.fairness.runner import MockJig
from cabinet.i18n import font_path
from cabinet.inputs.feed import FeedEvent, PlayerPress
from cabinet.link import membership
from cabinet.service.draw import MenuRenderer
from cabinet.service.fairness_page import FairnessPage
from cabinet.service.fairness_run import FairnessRunPage
from cabinet.service.format import when
from cabinet.service.screen import Row, Tone
from cabinet.storage import fairness
from cabinet.storage.outbox import Kind, pending
from cabinet.storage.setting_table import LANGUAGE
from cabinet.storage.store import CabinetStore
from firmware_bridge.fairness import A_FIRST, Schedule
from fleet.join_file import Join
from game.edges import Button, Edge
from game.units import MS, US, S
from tests.cabinet.service.conftest import FRAME, Cabinet

JOIN = Join("Route", "bar-1", "The Anchor", "localhost", 8883, "pw", "ca")
MARK = "Passes with at least 99.9 % right and none missed at every offset from 100 µs"


def certificate(taken_at: str, *cases: CaseResult) -> Certificate:
    return Certificate(Source.JIG, 2.0, 31, 150, cases, "1.2.3", taken_at)


def taken(cert: Certificate, source: str = "jig") -> str:
    moment = when(datetime.fromisoformat(cert.taken_at))
    return f"{moment} · {source} · race window {cert.window_ms:.1f} ms"


def open_fairness(cab: Cabinet) -> None:
    cab.test()
    cab.choose("Tests")
    cab.choose("Fairness test")
    assert isinstance(cab.app.service and cab.app.service.page, FairnessPage)


def row(cab: Cabinet, label: str) -> Row:
    found = [r for r in cab.shown.rows if r.label == label]
    assert found, f"no row {label!r}: {cab.labels()}"
    return found[0]


def on_run_page(cab: Cabinet) -> bool:
    return isinstance(cab.app.service and cab.app.service.page, FairnessRunPage)


def books_of_three(cab: Cabinet) -> tuple[Certificate, Certificate, Certificate]:
    """Three certificates recorded in the books: the oldest, a failed one, the newest."""
    oldest = certificate("2026-11-01T09:00:00+00:00", CaseResult(100, 100, 100))
    failed = certificate(
        "2026-12-05T10:00:00+00:00",
        CaseResult(50, 100, 60, 40),
        CaseResult(100, 1000, 997, 1, 2, 5),
        CaseResult(1000, 100, 100),
    )
    newest = certificate(
        "2026-12-06T11:30:00+00:00", CaseResult(50, 100, 97, 3), CaseResult(100, 100, 100, late=1)
    )
    for cert in (oldest, failed, newest):
        fairness.record(cab.store, cert.body())
    return oldest, failed, newest


def check_the_books_page(
    cab: Cabinet, oldest: Certificate, failed: Certificate, newest: Certificate
) -> None:
    """The page: the run rows, the newest certificate in full, the earlier ones a row each."""
    assert cab.labels() == [
        "Pairs per offset",
        "Run the test with the jig",
        "Newest certificate",
        taken(newest),
        "judged by version 1.2.3",
        "50 µs · reported only",
        "100 µs",
        "Earlier certificates",
        taken(failed),
        taken(oldest),
        "Back",
    ]
    assert (row(cab, taken(newest)).value, row(cab, taken(newest)).tone) == ("PASSED", "good")
    fifty = row(cab, "50 µs · reported only")
    assert fifty.value == "97/100 right · 0 missed · 0 late"
    assert fifty.tone == "dim"  # under the mark: reported, never failed
    assert row(cab, "100 µs").value == "100/100 right · 0 missed · 1 late"
    assert row(cab, "Pairs per offset").value == "100"
    assert row(cab, "Run the test with the jig").value == "about 75 s"
    assert cab.shown.notice.startswith("The jig must be set to the same pairs")
    assert "spit-cabinet fairness" in cab.shown.notice


def check_the_failed_one_whole(cab: Cabinet, failed: Certificate) -> None:
    """An earlier certificate, read whole on a page of its own."""
    shown = cab.shown
    assert shown.title == "Fairness certificate"
    assert [(r.label, r.value, r.tone) for r in shown.rows] == [
        (taken(failed), "FAILED", "warn"),
        ("judged by version 1.2.3", "", "dim"),
        ("50 µs · reported only", "60/100 right · 0 missed · 0 late", "dim"),
        ("100 µs", "997/1000 right · 2 missed · 5 late", "warn"),
        ("1000 µs", "100/100 right · 0 missed · 0 late", "normal"),
        ("Back", "", "normal"),
    ]
    assert shown.notice == MARK


def test_the_books_certificates_newest_in_full_earlier_ones_a_row_each(
    cabinet: Cabinet, screen: pygame.Surface
) -> None:
    cab = cabinet
    oldest, failed, newest = books_of_three(cab)
    open_fairness(cab)
    check_the_books_page(cab, oldest, failed, newest)
    # The certificate rows are read only: from the run row the cursor goes straight on to
    # the earlier certificates.
    cab.go_to("Run the test with the jig")
    cab.p1(Button.SLOT2)
    assert cab.at_cursor() == taken(failed)
    assert (row(cab, taken(failed)).value, row(cab, taken(failed)).tone) == ("FAILED", "warn")
    # Drawn whole: every row of the page is on the screen at once.
    renderer = MenuRenderer(screen, font_path())
    assert renderer.draw(cab.shown)
    assert renderer.shown == range(len(cab.shown.rows))
    cab.p1(Button.PILE1)  # the failed one, whole
    check_the_failed_one_whole(cab, failed)
    cab.choose("Back")
    assert cab.shown.title == "Fairness test"


def test_the_page_speaks_the_menu_s_language(cabinet: Cabinet) -> None:
    cab = cabinet
    fairness.record(cab.store, certificate("2026-12-06T11:30:00+00:00").body())  # no press
    cab.store.settings.set(LANGUAGE, "fi")
    cab.test()
    cab.choose("Testit")
    cab.choose("Reiluustesti")
    assert cab.shown.title == "Reiluustesti"
    head = cab.shown.rows[3]
    assert head.label.endswith("testilaite · kisaikkuna 2,0 ms")
    assert head.value == "HYLÄTTY"


def test_a_keyboard_cabinet_cannot_run_the_test(cabinet: Cabinet) -> None:
    cab = cabinet
    open_fairness(cab)
    cab.choose("Run the test with the jig")
    assert not on_run_page(cab)
    assert cab.shown.notice.startswith("These buttons carry no kernel timestamps (keyboard)")


def step_with_the_jig(cab: Cabinet, jig: MockJig, seconds: float) -> None:
    """Frames for ``seconds``, the jig's every edge driven at its own stamp and taken in
    by the frame at that moment (the feed takes each press in as it is made)."""
    end = cab.clock() + int(seconds * S)
    while cab.clock() < end:
        due = jig.next_due_ns()
        frame = cab.clock() + FRAME
        cab.clock.set(frame if due is None else max(cab.clock(), min(frame, due)))
        jig.step(cab.clock())
        cab.app.step(cab.clock())


def test_the_test_run_from_the_menu_is_judged_kept_and_queued(mock_cabinet: Cabinet) -> None:
    cab = mock_cabinet
    assert cab.mock is not None
    with cab.store.db.transaction() as conn:
        membership.join(conn, JOIN)
    open_fairness(cab)
    assert row(cab, "No fairness test has been run yet")
    cab.go_to("Pairs per offset")
    for _ in range(3):
        cab.p1(Button.SLOT3)  # 100 → 50 → 20 → 10
    assert row(cab, "Pairs per offset").value == "10"
    assert row(cab, "Run the test with the jig").value == "about 8 s"
    cab.choose("Run the test with the jig")
    assert on_run_page(cab)
    shown = cab.shown
    assert [(r.label, r.value) for r in shown.rows] == [
        ("Offsets", "50, 100, 250, 1000, 5000 µs"),
        ("Pairs per offset", "10"),
        ("Between pairs", "150 ms"),
        ("Pairs pressed", "0 / 50"),
    ]
    assert shown.notice == "Start the jig now: waiting for its first press, 120 seconds left"
    schedule = Schedule(pairs=10)
    jig = MockJig(cab.mock, schedule, cab.clock(), 2 * S)
    step_with_the_jig(cab, jig, 2 + 25 * schedule.gap_ms / 1000 - 0.01)
    assert row(cab, "Pairs pressed").value == "25 / 50"  # the presses count as they come
    assert cab.shown.notice.startswith("The jig is pressing")
    step_with_the_jig(cab, jig, 3.7)
    assert jig.finished and on_run_page(cab)
    assert row(cab, "Pairs pressed").value == "50 / 50"
    assert fairness.stored(cab.store) is None  # a second for late presses, then judged
    step_with_the_jig(cab, jig, 1)
    shown = cab.shown
    body = fairness.stored(cab.store)
    assert body is not None, [r.label for r in shown.rows]
    cert = Certificate.from_body(body)
    assert (cert.source, cert.window_ms, cert.passed) == (Source.MOCK, 2.0, True)
    assert [(c.offset_us, c.right, c.missed, c.late) for c in cert.cases] == [
        (us, 10, 0, 0) for us in schedule.offsets_us
    ]  # each press taken in at its own stamp: on time, and the stamps decide every race
    assert [(r.label, r.value, r.tone) for r in shown.rows[3:6]] == [
        (taken(cert, "mock pins"), "PASSED", "good"),
        (f"judged by version {cert.version}", "", "dim"),
        ("50 µs · reported only", "10/10 right · 0 missed · 0 late", "dim"),
    ]
    assert shown.rows[-1] == Row("Kept in the books and queued for the fleet", "", Tone.GOOD)
    assert shown.notice == MARK
    queued = [r for r in pending(cab.store.db.connection, 0, 100) if r.kind == Kind.FAIRNESS]
    assert [r.body for r in queued] == [body]
    cab.test()  # back to the list: the new certificate is there
    assert row(cab, taken(cert, "mock pins")).value == "PASSED"
    # The books on disk hold it for the next start.
    assert cab.store.path is not None
    again = CabinetStore.open(cab.store.path.parent)
    try:
        assert fairness.stored(again) == body
    finally:
        again.db.close()


def test_a_jig_that_never_presses_is_said_so_and_nothing_is_kept(mock_cabinet: Cabinet) -> None:
    cab = mock_cabinet
    open_fairness(cab)
    cab.choose("Run the test with the jig")
    for _ in range(121):  # the wait for the jig's first press, a second a frame
        cab.clock.advance(S)
        cab.app.step(cab.clock())
    assert cab.shown.rows[-1] == Row("No press from the jig", "", Tone.WARN)
    assert cab.shown.notice == "Is the jig wired to both players' left pile buttons, and started?"
    cab.service()  # SERVICE: again
    assert cab.shown.notice.startswith("Start the jig now: waiting for its first press, 120")
    cab.p1(Button.PILE1)  # a stray press on a jig's button: judged as the jig's, not a menu key
    assert on_run_page(cab)
    assert row(cab, "Pairs pressed").value == "1 / 500"
    cab.test()  # TEST: back, the test under way dropped
    assert isinstance(cab.app.service and cab.app.service.page, FairnessPage)
    cab.frames(3)
    assert fairness.stored(cab.store) is None
    assert row(cab, "No fairness test has been run yet")


def test_the_page_judges_by_the_table_s_times_not_by_when_the_display_hears(
    mock_cabinet: Cabinet,
) -> None:
    """The table process reports its presses in batches, each press with its stamp and the
    moment the table took it in; the display may hear of them a whole frame later (here
    50 ms, past the 2 ms race window). Judged by the table's moments, every press is on
    time."""
    cab = mock_cabinet
    service = cab.app.service
    assert service is not None
    open_fairness(cab)
    cab.go_to("Pairs per offset")
    for _ in range(4):
        cab.p1(Button.SLOT3)  # down to 10
    cab.choose("Run the test with the jig")
    schedule = Schedule(pairs=10)
    start = cab.clock() + S
    for k in range(len(schedule)):
        first = 0 if schedule.first(k) == A_FIRST else 1
        t = start + schedule.start_ms(k) * MS
        second = t + schedule.offset_us(k) * US
        batch: list[FeedEvent] = [
            PlayerPress(first, Edge.press(first, Button.PILE1, t).delivered(t + 100 * US)),
            PlayerPress(1 - first, Edge.press(1 - first, Button.PILE1, second).delivered(second)),
        ]
        cab.clock.set(t + 50 * MS)
        service.take(batch, cab.clock())
        cab.app.step(cab.clock())
    cab.frames(1.2)
    body = fairness.stored(cab.store)
    assert body is not None
    cert = Certificate.from_body(body)
    assert [(c.right, c.late) for c in cert.cases] == [(10, 0)] * len(schedule.offsets_us)
