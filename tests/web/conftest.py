"""The web tests' parts, shared by a test file's tests: a PostgreSQL cluster, a fleet
folder on one database of it, the web application serving it, the fleet's broker, ingest
and real cabinets (``route``), its accounts of each role, all of these as one ``site``
(:class:`tests.web.site.Site`), and one Chromium for the whole session (a fresh context,
so fresh cookies, each test)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fleet.broker import FleetConfig
from tests.fleet.conftest import Route
from tests.fleet.services import Broker, IngestProcess, Postgres, free_port, init_fleet
from tests.web.harness import Account, WebApp, launch_chromium
from tests.web.site import Site


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    cluster = Postgres()
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def fleet(postgres: Postgres, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A fleet folder (``spit-fleet init``) and its database's connection string."""
    database = postgres.new_database(f"web_{os.getpid()}")
    folder = tmp_path_factory.mktemp("fleet") / "fleet"
    init_fleet(folder, database, free_port())
    return folder, database


@pytest.fixture(scope="module")
def web(fleet: tuple[Path, str]) -> Iterator[WebApp]:
    app = WebApp(fleet[0])
    app.start()
    try:
        yield app
    finally:
        app.stop()


@pytest.fixture(scope="module")
def route(fleet: tuple[Path, str], web: WebApp) -> Iterator[Route]:
    """The module's fleet as :class:`tests.fleet.conftest.Route`: real cabinets joined to
    it (``route.cabinet``, closed at the module's end), its broker and ingest made (started
    by the tests, as ``running(route.broker, route.ingest)``)."""
    folder, database = fleet
    port = FleetConfig.load(folder).port
    made = Route(folder, database, port, Broker(folder, port), IngestProcess(folder), folder.parent)
    try:
        yield made
    finally:
        for cabinet in made.cabinets:
            cabinet.close()


@pytest.fixture(scope="module")
def accounts(web: WebApp) -> dict[str, Account]:
    """An account of each role, by role."""
    return {role: web.account(f"{role}1", role) for role in ("owner", "collector", "technician")}


@pytest.fixture(scope="module")
def site(fleet: tuple[Path, str], web: WebApp, accounts: dict[str, Account], browser: Any) -> Site:
    """The module's fleet, web process, accounts and Chromium together
    (:class:`tests.web.site.Site`)."""
    return Site(fleet[0], fleet[1], web, browser, accounts)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    made = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def page(context: Any) -> Any:
    return context.new_page()
