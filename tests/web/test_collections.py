"""The collections pages in Chromium against the real web process and PostgreSQL: a
collection set against the books, its difference shown; one entered while a real
cabinet is offline is "estimated", and settles once the cabinet's link has sent what it
holds; the bookkeeper's CSV."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from fleet.wire import Presence
from tests.fleet.cabinets import Cabinet
from tests.fleet.events import presence, put
from tests.fleet.services import running
from tests.fleet.waiting import wait_for
from tests.web.harness import Account, WebApp
from tests.web.site import Site


@pytest.fixture(scope="module")
def site(fleet: tuple[Path, str], web: WebApp, accounts: dict[str, Account], browser: Any) -> Site:
    return Site(fleet[0], fleet[1], web, browser, accounts)


def _coin(conn: Any, cabinet: str, cents: int, at: datetime) -> None:
    body = {"counts": {"coins1": 1}, "counted": {"coins1": 1, "earnings_cents": cents}}
    put(conn, cabinet, "money", body, at=at)


def _enter(site: Site, page: Any, cabinet: str, amount: str, note: str = "") -> None:
    """Enter a collection with the page's form, as a collector would."""
    page.goto(site.app.url("/collections/"))
    page.select_option("select[name=cabinet]", cabinet)
    page.fill("input[name=amount]", amount)
    page.fill("textarea[name=note]", note)
    page.click("#collection-form button[type=submit]")
    page.wait_for_url(f"**/collections/{cabinet}/?entered=*")


def test_a_collection_is_set_against_the_books_and_its_difference_shown(site: Site) -> None:
    site.cabinet("col-a")
    start = datetime.now(UTC) - timedelta(hours=2)
    with site.db() as conn:
        presence(conn, "col-a", Presence.ONLINE, start)
        for i in range(3):  # 3 x 1.00 and one 2.00 coin: 5.00 on the books
            _coin(conn, "col-a", 100, start + timedelta(minutes=i))
        _coin(conn, "col-a", 200, start + timedelta(minutes=5))
    page = site.page("collector")
    _enter(site, page, "col-a", "4.00", "one coin short?")
    entered = page.locator("#entered")
    assert "5.00" in entered.inner_text() and "4.00" in entered.inner_text()
    assert entered.locator(".difference").inner_text() == "short 1.00"
    # Nothing written after the collection yet: the fleet may lack a late coin.
    assert page.locator("#entered .estimated-tag").count() == 1
    with site.db() as conn:  # the cabinet's next heartbeat, written after the collection
        put(conn, "col-a", "health", {"version": "t"}, at=datetime.now(UTC) + timedelta(seconds=1))
    page.reload()
    assert page.locator("#entered .estimated-tag").count() == 0
    assert page.locator("#entered .difference").inner_text() == "short 1.00"
    row = page.locator("#collections tbody tr").first
    assert "settled" in (row.get_attribute("class") or "")
    assert "one coin short?" in row.inner_text()
    # The route's history holds it too, and the bookkeeper's CSV.
    page.goto(site.app.url("/collections/"))
    assert "short 1.00" in page.locator("#collections").inner_text()
    response = page.request.get(site.app.url("/collections/export.csv?cabinet=col-a"))
    assert response.status == 200 and response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text())))
    assert [(r["cabinet"], r["books"], r["counted"], r["difference"]) for r in rows] == [
        ("col-a", "5.00", "4.00", "-1.00")
    ]
    assert rows[0]["estimated"] == "no" and rows[0]["location"] == "The Anchor"
    page.context.close()


def test_a_collection_while_a_real_cabinet_is_offline_is_estimated_then_settles(
    site: Site,
) -> None:
    cabinet = Cabinet(site.folder.parent / "col-real", site.join_file("col-real"))
    try:
        with running(site.broker(), site.ingest()):
            sender = cabinet.sender()
            sender.start()
            for _ in range(2):
                cabinet.coin(1)  # 2 x 1.00, sent at once
            wait_for(
                "the coins in the fleet", lambda: _books(site, "col-real") == 200, site.ingested
            )
            sender.stop()
            wait_for(
                "the cabinet offline", lambda: _state(site, "col-real") == "offline", site.ingested
            )
            for _ in range(3):
                cabinet.coin(2)  # 3 x 2.00 while the venue's internet is down
            page = site.page("collector")
            _enter(site, page, "col-real", "8.00")
            entered = page.locator("#entered")
            assert entered.locator(".estimated-tag").count() == 1
            assert "offline since" in entered.inner_text()
            assert entered.locator(".difference").inner_text() == "over 6.00"  # 8.00 vs 2.00
            sender = cabinet.sender()
            sender.start()  # back: the queued coins, then a heartbeat written after
            try:

                def settled() -> bool:
                    """The page loaded again (at each of ingest's writes) says it."""
                    page.reload()
                    return page.locator("#entered .estimated-tag").count() == 0

                wait_for("the collection to settle", settled, site.ingested)
                assert page.locator("#entered .difference").inner_text() == "matches"
                assert "8.00" in page.locator("#entered").inner_text()
            finally:
                sender.stop()
            page.context.close()
    finally:
        cabinet.close()


def _books(site: Site, cabinet: str) -> int:
    with site.db() as conn:
        row = conn.execute(
            "SELECT coalesce(sum((body -> 'counted' ->> 'earnings_cents')::bigint), 0) "
            "FROM events WHERE cabinet = %s AND kind = 'money'",
            (cabinet,),
        ).fetchone()
    return int(row[0]) if row else 0


def _state(site: Site, cabinet: str) -> str | None:
    with site.db() as conn:
        row = conn.execute("SELECT state FROM presence WHERE cabinet = %s", (cabinet,)).fetchone()
    return None if row is None else str(row[0])
