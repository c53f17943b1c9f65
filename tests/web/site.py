"""What the money, alerts and settings pages' tests share, on the web tests' fixtures
(``tests/web/conftest.py``: PostgreSQL, the fleet folder, ``spit-fleet web`` as a
process, an account of each role, one Chromium): :class:`Site` puts them together with
the fleet's broker and ingest (made, started only by a test that drives real cabinets),
and the helpers below post forms as a browser would (with its CSRF token, a wrong one or
none) and look at a page at a phone's width."""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from fleet import cli, store
from fleet.broker import FleetConfig
from tests.fleet.services import Broker, IngestProcess
from tests.fleet.waiting import Listen
from tests.web.harness import Account, WebApp, csrf_token, log_in

#: The widths the pages are looked at in: a phone's, and a desktop's.
PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


@dataclass
class Site:
    folder: Path
    database: str
    app: WebApp
    browser: Any
    accounts: dict[str, Account]

    @property
    def port(self) -> int:
        return FleetConfig.load(self.folder).port

    @property
    def ingested(self) -> Listen:
        """What ingest writes to the database, as a wait's source."""
        return Listen(self.database)

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


def post(page: Any, path: str, form: dict[str, str], *, token: str | None = "") -> Any:
    """POST ``form`` to ``path`` with the page's cookies: the right CSRF token (``""``),
    none (``None``) or the one given; redirects not followed."""
    data = dict(form)
    if token == "":
        data["csrfmiddlewaretoken"] = csrf_token(page.context)
    elif token is not None:
        data["csrfmiddlewaretoken"] = token
    base = page.url.split("/", 3)
    origin = "/".join(base[:3])
    return page.request.post(
        origin + path, form=data, headers={"Referer": origin + path}, max_redirects=0
    )


def cells(page: Any, name: str) -> dict[str, str]:
    """The route page's row of cabinet ``name``, by column heading."""
    labels = [
        t.strip().rstrip("▲▼").strip() for t in page.locator("#route thead th").all_inner_texts()
    ]
    row = page.locator("#route tbody tr", has=page.locator(f"a:text-is('{name}')"))
    return dict(zip(labels, row.locator("td").all_inner_texts(), strict=True))


def no_sideways_scroll(page: Any) -> bool:
    """Whether the page fits a phone's width (nothing to scroll sideways)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= 375"))
