"""The alerts and the settings documents in Chromium against the real web process and
PostgreSQL: open alerts on their page and on the route page, the one that reveals money
(low earnings) not shown to a technician; the owner's options and opening hours; a
settings document refused with the reason in the form, saved under a version, and each
cabinet's state of it (pending, applied, refused with its reason)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from fleet.wire import Presence
from tests.fleet.events import presence, put, weekday_earnings
from tests.web.harness import Account, WebApp
from tests.web.site import Site


@pytest.fixture(scope="module")
def site(fleet: tuple[Path, str], web: WebApp, accounts: dict[str, Account], browser: Any) -> Site:
    return Site(fleet[0], fleet[1], web, browser, accounts)


def test_open_alerts_money_ones_only_for_owners_and_collectors(site: Site) -> None:
    now = datetime.now(UTC)
    site.cabinet("al-switch")
    site.cabinet("al-low")
    with site.db() as conn:
        presence(conn, "al-switch", Presence.ONLINE, now - timedelta(hours=1))
        presence(conn, "al-low", Presence.ONLINE, now - timedelta(hours=1))
        fault = {"fault": "missing_switch", "state": "raised", "button": "p1_left", "games": 12}
        put(conn, "al-switch", "fault", fault, at=now - timedelta(minutes=5))
        conn.execute(  # in the fleet all of the weeks the mean is taken over
            "UPDATE cabinets SET added_at = %s WHERE name = 'al-low'", (now - timedelta(days=60),)
        )
        conn.commit()
        yesterday = (now - timedelta(days=1)).replace(hour=12, minute=0, second=0, microsecond=0)
        weekday_earnings(conn, "al-low", yesterday, [5000, 5000, 5000, 5000, 100])
        put(conn, "al-low", "health", {"version": "t"}, at=now)
    seen = {}
    for role in ("owner", "technician"):
        page = site.page(role)
        page.goto(site.app.url("/alerts/"))
        seen[role] = page.locator("table.alerts tbody").inner_text()
        page.goto(site.app.url("/"))
        section = page.locator("#alerts-section")
        assert section.locator("#alerts-count").inner_text() == ("2" if role == "owner" else "1")
        page.context.close()
    assert "p1_left" in seen["owner"] and "Low earnings" in seen["owner"]
    assert "p1_left" in seen["technician"] and "Low earnings" not in seen["technician"]
    assert "al-low" not in seen["technician"]


def test_the_owner_sets_an_alert_option_and_a_venue_s_hours(site: Site) -> None:
    site.cabinet("al-hours", "The Swan")
    page = site.page("owner")
    page.goto(site.app.url("/alerts/options/"))
    page.fill("input[name=offline_hours]", "not hours")
    page.click("#options-form button[type=submit]")
    assert "offline_hours" in page.locator("#options-form .error").first.inner_text()
    page.fill("input[name=offline_hours]", "3")
    page.click("#options-form button[type=submit]")
    page.wait_for_url("**/alerts/options/")
    assert page.input_value("input[name=offline_hours]") == "3"
    swan = page.locator(".hours-form[data-location='The Swan']")
    swan.locator("input[name=opens]").fill("25:00")
    swan.locator("button[type=submit]").click()
    assert page.locator(".hours-form[data-location='The Swan'] .errors").count() == 1
    swan = page.locator(".hours-form[data-location='The Swan']")
    swan.locator("input[name=opens]").fill("11:00")
    swan.locator("input[name=closes]").fill("23:00")
    swan.locator("input[name=timezone]").fill("Europe/London")
    swan.locator("button[type=submit]").click()
    page.wait_for_url("**/alerts/options/")
    with site.db() as conn:
        row = conn.execute(
            "SELECT opens::text, closes::text, timezone FROM locations WHERE name = 'The Swan'"
        ).fetchone()
        option = conn.execute("SELECT value FROM fleet_options WHERE key = 'offline_hours'")
        assert option.fetchone() == ("3",)
    assert row == ("11:00:00", "23:00:00", "Europe/London")
    page.context.close()


def test_a_location_s_settings_document_and_each_cabinet_s_state(site: Site) -> None:
    for name in ("doc-a", "doc-b", "doc-c"):
        site.cabinet(name, "The Oak")
    site.cabinet("doc-elsewhere", "The Mill")
    with site.db() as conn:
        (oak,) = conn.execute("SELECT id FROM locations WHERE name = 'The Oak'").fetchone()
    page = site.page("owner")
    page.goto(site.app.url("/settings/"))
    page.click(f"#document-location-{oak} a")
    page.fill("textarea[name=body]", "[game\nbest_of = 3")
    page.click("#document-form button[type=submit]")
    assert "not TOML" in page.locator("#document-form .error").inner_text()
    page.fill("textarea[name=body]", "[game]\nbest_of = 3\n")
    page.click("#document-form button[type=submit]")
    page.wait_for_url(f"**/settings/location-{oak}/")
    version = int(page.locator("#version strong").inner_text())
    states = page.locator("#states tbody")
    assert states.locator("tr").count() == 3  # The Oak's cabinets only
    assert states.locator("tr.pending").count() == 3
    document = f"location-{oak}"
    with site.db() as conn:
        applied = {"document": document, "version": version, "result": "applied", "reason": ""}
        put(conn, "doc-a", "settings", applied)
        refused = {**applied, "result": "refused", "reason": "pricing is not remote"}
        put(conn, "doc-b", "settings", refused)
    page.reload()
    assert f"applied version {version}" in page.locator("#state-doc-a").inner_text()
    assert "pricing is not remote" in page.locator("#state-doc-b").inner_text()
    assert "pending" in page.locator("#state-doc-c").inner_text()
    page.context.close()
