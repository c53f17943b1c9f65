"""The rollouts page in Chromium against the real web process and PostgreSQL: the owner
starts a rollout to a venue (a bad release refused in the form), sees each cabinet's wave
and step, and the rollout halted by a canary that rolled back, with the reason, on the
page and as an alert; the owner halts one by hand. The steps come as ingest records them
(:func:`fleet.rollouts.record_update`), the halt from the controller's tick."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from fleet import rollouts
from tests.web.harness import Account, WebApp
from tests.web.site import Site

RELEASE_STEPS = ("downloading", "verified", "waiting", "installing")


@pytest.fixture(scope="module")
def site(fleet: tuple[Path, str], web: WebApp, accounts: dict[str, Account], browser: Any) -> Site:
    made = Site(fleet[0], fleet[1], web, browser, accounts)
    for name in ("oak-1", "oak-2", "oak-3", "oak-4"):
        made.cabinet(name, "The Oak")
    made.cabinet("mill-1", "The Mill")
    return made


def report(site: Site, rollout: int, cabinet: str, *steps: str, reason: str = "") -> None:
    with site.db() as conn:
        for step in steps:
            rollouts.record_update(conn, cabinet, {"rollout": rollout, "release": "0.2.0",
                                                   "state": step, "reason": reason})  # fmt: skip
        conn.commit()


def tick(site: Site) -> list[str]:
    published: list[str] = []
    with site.db() as conn:
        said = rollouts.tick(conn, lambda topic, payload: published.append(topic),
                             datetime.now(UTC))  # fmt: skip
        conn.commit()
    return said


def test_a_rollout_started_followed_and_halted_by_a_rollback(site: Site, tmp_path: Path) -> None:
    page = site.page("owner")
    page.goto(site.app.url("/rollouts/"))
    page.fill("#rollout-form input[name=release]", "zero point two")
    page.select_option("#rollout-form select[name=group]", "location:The Oak")
    page.fill("#rollout-form input[name=canary_share]", "25")
    page.fill("#rollout-form input[name=healthy_minutes]", "0")
    page.click("#rollout-form button[type=submit]")
    assert "is not a release's version" in page.locator("#rollout-form").inner_text()
    page.fill("#rollout-form input[name=release]", "0.2.0")
    page.click("#rollout-form button[type=submit]")
    page.wait_for_url("**/rollouts/")
    assert "Rollout 1 started" in page.locator("body").inner_text()
    assert page.locator("#rollout-state strong").inner_text() == "canaries first"
    rows = page.locator("#cabinets tbody tr")
    assert rows.count() == 4  # The Oak's cabinets only
    waves = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(4)]
    assert waves == ["canary", "the rest", "the rest", "the rest"]
    canary = rows.nth(0).locator("td").nth(0).inner_text()
    assert page.locator(f"#cabinet-{canary} td.state").inner_text() == "not offered yet"
    assert page.locator("#rollout-form").count() == 0  # one rollout at a time
    tick(site)  # ingest offers it to the canary
    report(site, 1, canary, *RELEASE_STEPS)
    page.reload()
    assert page.locator(f"#cabinet-{canary} td.state").inner_text() == "installing"
    page.screenshot(path=str(tmp_path / "rollout-canary.png"), full_page=True)
    report(site, 1, canary, "rolled_back", reason="failed to start 3 times in a row")
    assert tick(site) == [f"rollout 1 halted: {canary} rolled back: failed to start 3 times "
                          "in a row"]  # fmt: skip
    page.reload()
    assert page.locator("#rollout-state strong").inner_text() == "halted"
    assert "failed to start 3 times in a row" in page.locator("#rollout-state").inner_text()
    step = page.locator(f"#cabinet-{canary} td.state")
    assert step.inner_text() == "rolled back" and "fault" in (step.get_attribute("class") or "")
    assert page.locator("#halt-form").count() == 0 and page.locator("#rollout-form").count() == 1
    page.goto(site.app.url("/alerts/"))
    assert "rollout 1 of 0.2.0 halted" in page.locator("body").inner_text()
    page.context.close()


def test_the_owner_halts_a_rollout_by_hand(site: Site) -> None:
    page = site.page("owner")
    page.goto(site.app.url("/rollouts/"))
    page.fill("#rollout-form input[name=release]", "0.2.1")
    page.select_option("#rollout-form select[name=group]", "list")
    page.fill("#rollout-form input[name=cabinets]", "mill-1, oak-4")
    page.click("#rollout-form button[type=submit]")
    page.wait_for_url("**/rollouts/")
    assert page.locator("#cabinets tbody tr").count() == 2
    page.click("#halt-form button[type=submit]")
    page.wait_for_url("**/rollouts/")
    assert page.locator("#rollout-state strong").inner_text() == "halting"
    said = tick(site)
    assert len(said) == 1 and said[0].startswith("rollout 2 halted: halted by owner")
    page.reload()
    assert page.locator("#rollout-state strong").inner_text() == "halted"
    earlier = page.locator("#earlier").inner_text()
    assert "0.2.0" in earlier and "halted" in earlier  # rollout 1, below
    page.context.close()
