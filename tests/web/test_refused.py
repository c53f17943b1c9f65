"""Ingest's refused messages on the pages, in Chromium against the real web process: a
real cabinet's credentials send the real broker a message that is not JSON and one that
is malformed, the real ingest refuses both, and the counts (by refusal) are in
PostgreSQL, on the cabinet's page (in the warning style) and on the route's refused
messages page, for technicians and owners; a collector sees neither. The page fits a
phone's width."""

from __future__ import annotations

import json
from typing import Any

from fleet.wire import Batch, Event
from tests.fleet.conftest import Route
from tests.fleet.services import running
from tests.fleet.uplink import Uplink
from tests.fleet.waiting import wait_for
from tests.web.site import PHONE, Site, no_sideways_scroll

DOOR = Batch(
    "refuse-1",
    "0123456789abcdef",
    1,
    1,
    (Event(1, "door", "2026-12-02T10:00:00Z", True, {"state": "open"}),),
)


def _counts(site: Site) -> dict[str, int]:
    with site.db() as conn:
        rows = conn.execute(
            "SELECT refusal, count FROM refused_counts WHERE cabinet = 'refuse-1'"
        ).fetchall()
    return {str(refusal): int(count) for refusal, count in rows}


def _rows(page: Any, table: str) -> list[list[str]]:
    rows = page.locator(f"{table} tbody tr")
    return [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())]


def test_refused_messages_are_counted_and_shown(route: Route, site: Site) -> None:
    join_file = route.add_cabinet("refuse-1", "The Anchor")
    malformed = json.loads(DOOR.dumps())
    malformed["events"][0]["body"]["state"] = "ajar"
    with running(route.broker, route.ingest), Uplink(join_file, route.port) as uplink:
        uplink.send(b"not json")
        uplink.send(json.dumps(malformed).encode())
        uplink.send(b"{also not json")
        wait_for("three refusals", lambda: sum(_counts(site).values()) == 3, route.ingested)
    assert _counts(site) == {"not_json": 2, "malformed": 1}

    page = site.page("technician")
    try:
        page.goto(site.app.url("/cabinets/refuse-1/"))
        card = page.locator("#refused")
        assert "warn" in (card.get_attribute("class") or "").split()
        cells = {row[0]: row for row in _rows(page, "#refused-counts")}
        assert set(cells) == {"Not JSON", "Malformed"}
        assert cells["Not JSON"][1] == "2" and cells["Malformed"][1] == "1"
        assert cells["Not JSON"][4].startswith("not JSON (")
        assert cells["Malformed"][4] == "a door event's state is neither open nor closed"
        page.click("nav a:text-is('Refused')")
        page.wait_for_url("**/refused/")
        route_rows = [row for row in _rows(page, "#refused-route") if row[0] == "refuse-1"]
        assert sorted((row[1], row[2]) for row in route_rows) == [
            ("Malformed", "1"),
            ("Not JSON", "2"),
        ]
        page.click("#refused-route a:text-is('refuse-1')")
        page.wait_for_url("**/cabinets/refuse-1/")
    finally:
        page.context.close()

    collector = site.page("collector")
    try:
        collector.goto(site.app.url("/cabinets/refuse-1/"))
        assert collector.locator("#refused").count() == 0
        assert "Refused" not in collector.locator("nav").inner_text()
        assert collector.request.get(site.app.url("/refused/")).status == 403
    finally:
        collector.context.close()

    owner = site.page("owner", PHONE)
    try:
        for path in ("/refused/", "/cabinets/refuse-1/"):
            owner.goto(site.app.url(path))
            assert owner.locator("#refused-route, #refused-counts").count() == 1, path
            assert no_sideways_scroll(owner), path
    finally:
        owner.context.close()
