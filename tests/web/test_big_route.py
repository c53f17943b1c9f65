"""The route page on a route of 500 cabinets with a year of history: every cabinet in one
table, each role's columns, and a first load of at most 300 KB (bytes, not time: its
server time is measured by ``bench/route.py``, not asserted here). The cabinet page
reads a year of one cabinet's history."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.web.fill import fill_route
from tests.web.harness import Account, WebApp, log_in

pytestmark = pytest.mark.slow
WEIGHT_BYTES = 300_000


@pytest.fixture(scope="module")
def big(fleet: tuple[Path, str], web: WebApp) -> WebApp:
    with psycopg.connect(fleet[1]) as conn:
        fill_route(conn, cabinets=500, days=365, money=1, games=1)
    return web


@pytest.mark.parametrize("role", ["owner", "technician"])
def test_the_route_page_shows_every_cabinet_within_its_weight(
    big: WebApp, accounts: dict[str, Account], context: Any, role: str
) -> None:
    page = context.new_page()
    log_in(page, big, accounts[role])
    weights: list[int] = []
    page.on("response", lambda r: weights.append(len(r.body())) if r.ok else None)
    page.goto(big.url("/"))
    page.wait_for_load_state("load")
    assert page.locator("#route tbody tr").count() == 500
    assert sum(weights) <= WEIGHT_BYTES, weights
    money_columns = page.locator('#route thead a[data-col^="earnings_"]').count()
    assert money_columns == (3 if role == "owner" else 0)
    response = context.request.get(big.url("/cabinets/cab-0250/?days=365"))
    assert response.ok
    assert ('id="earnings"' in response.text()) == (role == "owner")


def test_the_static_files_are_cached_a_day(big: WebApp) -> None:
    with urllib.request.urlopen(big.url("/static/web/uPlot.iife.min.js")) as response:
        assert "max-age=86400" in response.headers["Cache-Control"]
