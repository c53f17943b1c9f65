"""The route and cabinet pages on a made-up route's history (:mod:`tests.web.fill`): what
each role sees, sorting and filtering by the query string, the charts, and the pages at a
phone's width and a desktop's (screenshots in the test's folder)."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Any

import psycopg
import pytest
from playwright.sync_api import expect

from tests.fleet.services import ROOT
from tests.web.fill import fill_route
from tests.web.harness import Account, WebApp, log_in

MONEY_HEADS = ("Today", "Week", "Since collection")


@pytest.fixture(scope="module")
def filled(fleet: tuple[Path, str], web: WebApp) -> WebApp:
    with psycopg.connect(fleet[1]) as conn:
        fill_route(conn, cabinets=40, days=120)
    return web


def heads(page: Any) -> list[str]:
    return [
        h.split(" ")[0] if h.endswith(("▲", "▼")) else h
        for h in (
            t.strip().rstrip("▲▼").strip()
            for t in page.locator("#route thead th").all_inner_texts()
        )
    ]


def column(page: Any, label: str) -> list[str]:
    index = heads(page).index(label) + 1
    return page.locator(f"#route tbody tr td:nth-child({index})").all_inner_texts()


def test_the_route_with_money_sorted_and_filtered(
    filled: WebApp, accounts: dict[str, Account], page: Any
) -> None:
    log_in(page, filled, accounts["collector"])
    page.goto(filled.url("/"))
    assert set(MONEY_HEADS) <= set(heads(page))
    assert len(column(page, "Cabinet")) == 40
    expect(page.locator("#summary")).to_contain_text("of 40 cabinets online")
    assert "light_board_lost" in " ".join(column(page, "Open faults"))
    page.click("#route thead a[data-col=games_today]")  # most first
    games = [int(g) for g in column(page, "Games today")]
    assert games == sorted(games, reverse=True) and games[0] > games[-1]
    page.click("#route thead a[data-col=games_today]")  # and back
    games = [int(g) for g in column(page, "Games today")]
    assert games == sorted(games)
    page.click("#route thead a[data-col=earnings_since]")
    since = [float(e.replace(",", "")) for e in column(page, "Since collection")]
    assert since == sorted(since, reverse=True) and since[0] > 0
    page.select_option("#filter select[name=location]", "Venue 3")
    page.click("#filter button")
    assert "location=Venue+3" in page.url and "sort=earnings_since" in page.url
    assert set(column(page, "Location")) == {"Venue 3"}
    assert len(column(page, "Location")) == 10  # 40 cabinets at 4 locations
    page.goto(filled.url("/?sort=nonsense&dir=sideways&location=Nowhere"))  # ignored
    assert len(column(page, "Cabinet")) == 40


def test_a_technician_sees_no_money(
    filled: WebApp, accounts: dict[str, Account], page: Any
) -> None:
    log_in(page, filled, accounts["technician"])
    page.goto(filled.url("/?sort=earnings_today"))
    assert not set(MONEY_HEADS) & set(heads(page))
    assert "today" not in page.inner_text("#summary")
    page.goto(filled.url("/cabinets/cab-0010/"))
    expect(page.locator("#games-chart .uplot")).to_have_count(1)
    assert page.locator("#earnings").count() == 0
    assert page.locator("#money-counts").count() == 0
    audits = page.inner_text("#audits")
    assert "games.vs_cpu" in audits and "money." not in audits
    assert "earnings" not in page.inner_text("#chart-data")


def test_the_cabinet_page(filled: WebApp, accounts: dict[str, Account], page: Any) -> None:
    log_in(page, filled, accounts["owner"])
    response = page.goto(filled.url("/cabinets/cab-0010/?days=30"))
    assert response is not None and response.status == 200
    expect(page.locator(".uplot")).to_have_count(4)  # earnings, games, online, health
    assert "money.earnings_cents" in page.inner_text("#audits")
    assert page.locator("#money-counts tbody tr").count() == 10
    assert page.locator("#games tbody tr").count() == 10
    assert " ms, player " in page.inner_text("#games")  # each game's closest race
    open_faults = page.inner_text("#open-faults")
    assert "coin_line_held_low" in open_faults  # cab-0010: its fault raised today, not cleared
    assert page.locator("#fame ol li").count() > 0
    assert "offline" in page.inner_text("#presence")
    data = page.evaluate("JSON.parse(document.getElementById('chart-data').textContent)")
    assert len(data["daily"]["t"]) == 30 and len(data["daily"]["earnings"]) == 30
    # The chart library served is the copy in the package.
    with urllib.request.urlopen(filled.url("/static/web/uPlot.iife.min.js")) as served:
        assert served.read() == (ROOT / "fleet/web/static/web/uPlot.iife.min.js").read_bytes()


@pytest.mark.parametrize("width", [375, 1280])
def test_the_pages_fit_the_screen(
    filled: WebApp, accounts: dict[str, Account], browser: Any, tmp_path: Path, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    try:
        page = context.new_page()
        log_in(page, filled, accounts["owner"])
        for name, path in (
            ("route", "/"),
            ("cabinet", "/cabinets/cab-0001/"),
            ("accounts", "/accounts/"),
        ):
            page.goto(filled.url(path))
            page.wait_for_load_state("load")
            page.screenshot(path=tmp_path / f"{name}-{width}.png", full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        if width == 375:  # the menu folds away behind its button
            expect(page.locator("nav.nav")).to_be_hidden()
            page.click("label.menu-button")
            expect(page.locator("nav.nav")).to_be_visible()
        assert (tmp_path / f"route-{width}.png").stat().st_size > 0
    finally:
        context.close()
