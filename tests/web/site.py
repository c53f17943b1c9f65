"""One fleet with the web application in front of it, for a test module of the money,
alerts and settings pages: a PostgreSQL cluster of its own, a fleet folder
(``init_fleet``), ``spit-fleet web`` as a process (:class:`tests.web.harness.WebApp`), an
account of each role and one headless Chromium; the broker and ingest made, started only
by the test that drives real cabinets."""

from __future__ import annotations

import contextlib
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from fleet import cli, store
from tests.fleet.services import Broker, IngestProcess, Postgres, free_port, init_fleet
from tests.web.harness import Account, WebApp, launch_chromium, log_in, unique

#: The widths the pages are looked at in: a phone's, and a desktop's.
PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@dataclass
class Site:
    folder: Path
    database: str
    port: int
    app: WebApp
    browser: Any
    accounts: dict[str, Account] = field(default_factory=dict)

    def db(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.database)

    def cabinet(self, name: str, location: str = "The Anchor") -> None:
        """A cabinet added to the fleet (its row only: events come from the test)."""
        with self.db() as conn:
            store.add_cabinet(conn, name, location)
            store.ensure_location(conn, location)
            conn.commit()

    def join_file(self, name: str, location: str = "The Anchor") -> Path:
        """A real cabinet's join file (``spit-fleet add-cabinet``)."""
        out = self.folder.parent / f"{name}.join.json"
        with contextlib.redirect_stdout(sys.stderr):
            args = ["add-cabinet", name, "--location", location, "--dir", str(self.folder)]
            assert cli.main([*args, "--out", str(out)]) == 0
        return out

    def broker(self) -> Broker:
        return Broker(self.folder, self.port)

    def ingest(self) -> IngestProcess:
        return IngestProcess(self.folder)

    def page(self, role: str, viewport: dict[str, int] = DESKTOP) -> Any:
        """A new browser page logged in as the ``role`` account."""
        context = self.browser.new_context(viewport=viewport)
        page = context.new_page()
        log_in(page, self.app, self.accounts[role])
        return page


@contextlib.contextmanager
def site() -> Iterator[Site]:
    """The module's site, stopped whatever happens."""
    from playwright.sync_api import sync_playwright

    cluster = Postgres()
    work = Path(tempfile.mkdtemp(prefix="spit-web-pages-"))
    app: WebApp | None = None
    try:
        database = cluster.new_database("fleet_pages")
        folder, port = work / "fleet", free_port()
        with contextlib.redirect_stdout(sys.stderr):
            init_fleet(folder, database, port)
        app = WebApp(folder)
        app.start()
        accounts = {role: app.account(unique(role), role) for role in ROLES}
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            try:
                yield Site(folder, database, port, app, browser, accounts)
            finally:
                browser.close()
    finally:
        if app is not None:
            app.stop()
        cluster.close()


ROLES = ("owner", "collector", "technician")


def csrf_token(page: Any) -> str:
    """The page's CSRF secret, as its cookie holds it (Django takes it as a token)."""
    cookies = page.context.cookies()
    return str(next(c["value"] for c in cookies if c["name"] == "csrftoken"))


def post(page: Any, path: str, form: dict[str, str], *, token: str | None = "") -> Any:
    """POST ``form`` to ``path`` with the page's cookies: the right CSRF token (``""``),
    none (``None``) or the one given; redirects not followed."""
    data = dict(form)
    if token == "":
        data["csrfmiddlewaretoken"] = csrf_token(page)
    elif token is not None:
        data["csrfmiddlewaretoken"] = token
    base = page.url.split("/", 3)
    origin = "/".join(base[:3])
    return page.request.post(
        origin + path, form=data, headers={"Referer": origin + path}, max_redirects=0
    )


def no_sideways_scroll(page: Any) -> bool:
    """Whether the page fits a phone's width (nothing to scroll sideways)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= 375"))
