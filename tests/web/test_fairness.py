"""The cabinet page's fairness certificate in Chromium against the real web process and
PostgreSQL, the certificates stored as ingest stores them: the newest one (not an older
one) with its time, version, what pressed, its race window and each offset's share right;
in the warning style when it failed or is older than the page vouches for; and a cabinet
that never sent one says so. Every role sees it: it is no money."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from cabinet.fairness.certificate import CaseResult, Certificate, Source
from fleet.web.fairness_data import STALE_DAYS
from tests.fleet.events import put
from tests.web.site import Site

PASSING = (CaseResult(50, 100, 97, 3), CaseResult(100, 100, 100, late=1))
FAILING = (CaseResult(100, 1000, 990, 8, 2),)
WARNING_BORDER = "rgb(179, 38, 30)"


def certify(site: Site, cabinet: str, cases: tuple[CaseResult, ...], at: datetime) -> None:
    """A certificate of ``cases`` taken at ``at``, stored as ingest stores the event the
    cabinet queued with it."""
    taken_at = at.isoformat(timespec="seconds")
    body = Certificate(Source.JIG, 2.0, 31, 150, cases, "1.2.3", taken_at).body()
    with site.db() as conn:
        put(conn, cabinet, "fairness", body, at=at)


def section(site: Site, page: Any, cabinet: str) -> Any:
    page.goto(site.app.url(f"/cabinets/{cabinet}/"))
    return page.locator("#fairness")


def warned(card: Any) -> bool:
    border = card.evaluate("e => getComputedStyle(e).borderLeftColor")
    return "warn" in (card.get_attribute("class") or "").split() and border == WARNING_BORDER


def test_the_cabinet_page_shows_the_newest_certificate_and_warns(site: Site) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    for name in ("fair-ok", "fair-failed", "fair-old", "fair-none"):
        site.cabinet(name)
    certify(site, "fair-ok", FAILING, now - timedelta(days=30))  # superseded
    certify(site, "fair-ok", PASSING, now - timedelta(days=1))
    certify(site, "fair-failed", FAILING, now - timedelta(hours=2))
    certify(site, "fair-old", PASSING, now - timedelta(days=STALE_DAYS + 30))
    page = site.page("technician")
    try:
        card = section(site, page, "fair-ok")
        taken = (now - timedelta(days=1)).strftime("%Y-%m-%d %H:%M")
        assert page.inner_text("#fairness-verdict") == (
            f"Passed · taken {taken} · version 1.2.3 · jig · race window 2.0 ms"
        )
        rows = page.locator("#fairness-cases tbody tr")
        assert [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())] == [
            ["50 µs", "97.0 %", "97 of 100", "0", "0"],
            ["100 µs", "100.0 %", "100 of 100", "0", "1"],
        ]
        assert not warned(card)
        card = section(site, page, "fair-failed")
        assert page.inner_text("#fairness-verdict").startswith("Failed · taken")
        assert page.locator("#fairness-cases tbody td").first.inner_text() == "100 µs"
        assert page.locator("#fairness-cases tbody td").nth(1).inner_text() == "99.0 %"
        assert warned(card) and "did not decide enough races" in card.inner_text()
        card = section(site, page, "fair-old")
        assert page.inner_text("#fairness-verdict").startswith("Passed · taken")
        assert warned(card)
        assert page.inner_text("#fairness-stale").startswith(f"Older than {STALE_DAYS} days")
        card = section(site, page, "fair-none")
        assert (
            "No fairness certificate yet: run the test from the service menu" in card.inner_text()
        )
        assert not warned(card)
    finally:
        page.context.close()
