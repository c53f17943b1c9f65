"""Screenshots of the operator's web pages, made from the real pages, for docs/fleet.md.

    python scripts/route_screenshots.py [OUT_DIR] [--only rollout]   # docs/screenshots

It starts what the pages need, on loopback and in a temporary folder: a PostgreSQL
cluster of its own, a fleet (``spit-fleet init``), ``spit-fleet web``, and Debian's
Chromium driven by Playwright. The route is 24 cabinets at 3 venues with 120 days of
made-up history (the web tests' fill, the same every time); the owner signs in, sets up
two-factor codes, looks at the route and a cabinet, enters a collection and sees it
reconciled (estimated until the cabinet's next heartbeat), the alerts, the settings
documents, the accounts, and a release rolled out to a venue and halted by its canary's
rollback. Each page is taken at a phone's width (375 px) and, for the
route and the cabinet, a desktop's.
"""

from __future__ import annotations

import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from fleet import collections, documents, rollouts  # noqa: E402
from fleet.web import fmt  # noqa: E402
from tests.fleet.events import put  # noqa: E402
from tests.fleet.services import Postgres, free_port, init_fleet  # noqa: E402
from tests.web.fill import fill_route  # noqa: E402
from tests.web.harness import WebApp, launch_chromium, log_in, set_up_two_factor  # noqa: E402
from tests.web.site import DESKTOP, PHONE  # noqa: E402

CABINET = "cab-0007"
"""The cabinet the guide follows (collections, its page)."""


def shoot(page: Any, out: Path, name: str, *, whole: bool = False) -> None:
    """The page as the screen shows it (``whole``: all of its length)."""
    page.screenshot(path=str(out / f"route-{name}.png"), full_page=whole)
    print(f"  {name}", flush=True)


DOCUMENT = """# Venue 1: a game costs two 1.00 coins; the CPU plays a little better.
[game]
cpu_level = 4

[pricing]
free_play = false
units_per_credit = 2
"""


def happenings(conn: psycopg.Connection[Any]) -> None:
    """What a week on the route brings, for the alerts and settings pages: a button that
    stopped working, a coin door opened with no collection, a cabinet offline since
    yesterday, and a settings document for Venue 1 taken by one cabinet and refused by
    another (its remote settings off)."""
    now = datetime.now(UTC)
    fault = {"fault": "missing_switch", "state": "raised", "button": "p2.slot3", "games": 10}
    put(conn, "cab-0003", "fault", fault, at=now - timedelta(hours=3))
    put(conn, "cab-0010", "door", {"state": "open"}, at=now - timedelta(hours=2))
    since = now - timedelta(hours=30)
    conn.execute(
        "UPDATE presence SET state = 'offline', at = %s WHERE cabinet = 'cab-0017'", (since,)
    )
    conn.execute(
        "INSERT INTO presence_log (cabinet, state, at) VALUES ('cab-0017', 'offline', %s)",
        (since,),
    )
    conn.commit()
    sent = documents.save_document(conn, "Venue 1", DOCUMENT, "olivia")
    reason = (
        "holds free_play, units_per_credit: pricing settings and the operator PIN are taken "
        "only with remote_settings on (the cabinet's service menu)"
    )
    for cabinet, result, why in (("cab-0001", "applied", ""), ("cab-0004", "refused", reason)):
        body = {"document": sent.document, "version": sent.version, "result": result}
        put(conn, cabinet, "settings", {**body, "reason": why}, at=now)


def rollout(app: WebApp, database: str, page: Any, out: Path) -> None:
    """A release rolled out to Venue 1 (docs/fleet.md, "Rolling out a release"), on the
    owner's desktop ``page``: the canary installing, then the rollout halted by its
    rollback. The steps are recorded as ingest records the cabinets' reports, the offers
    and the halt as its controller makes them."""
    page.goto(app.url("/rollouts/"))
    page.fill("#rollout-form input[name=release]", "0.2.0")
    page.fill("#rollout-form input[name=url]", "https://fleet.example.com:8443/releases/")
    page.select_option("#rollout-form select[name=group]", "location:Venue 1")
    page.fill("#rollout-form input[name=canary_share]", "25")
    page.click("#rollout-form button[type=submit]")
    page.wait_for_url("**/rollouts/")
    with psycopg.connect(database) as conn:
        [number] = [r.id for r in rollouts.rollouts(conn)][:1]
        canaries = [m.cabinet for m in rollouts.members(conn, number) if m.canary]
        rollouts.tick(conn, lambda topic, payload: None, datetime.now(UTC))
        steps = ("downloading", "verified", "waiting", "installing")
        for cabinet, done in zip(canaries, (steps, steps[:3]), strict=False):
            for state in done:
                body = {"rollout": number, "release": "0.2.0", "state": state, "reason": ""}
                rollouts.record_update(conn, cabinet, body)
        conn.commit()
    page.reload()
    shoot(page, out, "rollout-canary", whole=True)
    with psycopg.connect(database) as conn:
        why = "failed to start 3 times in a row"
        body = {"rollout": number, "release": "0.2.0", "state": "rolled_back", "reason": why}
        rollouts.record_update(conn, canaries[0], body)
        rollouts.tick(conn, lambda topic, payload: None, datetime.now(UTC))
        conn.commit()
    page.reload()
    shoot(page, out, "rollout-halted", whole=True)


def pages(app: WebApp, database: str, browser: Any, out: Path, only: str = "") -> None:
    owner = app.account("olivia", "owner", two_factor=True)
    if only == "rollout":  # the owner's two-factor codes first, as below
        context = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
        page = context.new_page()
        log_in(page, app, owner)
        set_up_two_factor(page, app, owner)
        rollout(app, database, page, out)
        context.close()
        return
    phone = browser.new_context(viewport=PHONE, device_scale_factor=1)
    page = phone.new_page()
    page.goto(app.url("/login/"))
    page.fill("input[name=username]", owner.name)
    page.fill("input[name=password]", owner.password)
    shoot(page, out, "login")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    shoot(page, out, "two-factor")  # required of an owner: set up before anything else
    set_up_two_factor(page, app, owner)
    page.goto(app.url("/"))
    shoot(page, out, "route-phone")
    page.goto(app.url(f"/cabinets/{CABINET}/"))
    page.wait_for_load_state("load")
    shoot(page, out, "cabinet-phone")
    with psycopg.connect(database) as conn:  # what the books say: the bag is a coin short
        books = collections.open_period(conn, CABINET, datetime.now(UTC)).books_cents
    page.goto(app.url("/collections/"))
    page.select_option("select[name=cabinet]", CABINET)
    page.fill("input[name=amount]", fmt.money(books - 100).replace(",", ""))
    page.fill("textarea[name=note]", "bag 12")
    shoot(page, out, "collection-enter")
    page.click("#collection-form button[type=submit]")
    page.wait_for_url(f"**/collections/{CABINET}/?entered=*")
    shoot(page, out, "collection-estimated")
    with psycopg.connect(database) as conn:  # the cabinet's next heartbeat comes in
        later = datetime.now(UTC) + timedelta(seconds=1)
        put(conn, CABINET, "health", {"version": "1.1"}, at=later)
    page.reload()
    shoot(page, out, "collection-reconciled")
    page.goto(app.url("/alerts/"))
    shoot(page, out, "alerts")
    page.goto(app.url("/settings/"))
    page.click("text=Venue 1")
    page.wait_for_load_state()
    shoot(page, out, "settings-venue", whole=True)
    page.goto(app.url("/accounts/"))
    shoot(page, out, "accounts")
    phone.close()

    desktop = browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    page = desktop.new_page()
    log_in(page, app, owner)
    page.goto(app.url("/"))
    shoot(page, out, "route-desktop", whole=True)
    page.goto(app.url(f"/cabinets/{CABINET}/"))
    page.wait_for_load_state("load")
    shoot(page, out, "cabinet-desktop", whole=True)
    rollout(app, database, page, out)
    desktop.close()


def main(argv: list[str]) -> int:
    only = ""
    if "--only" in argv:  # one scene: --only rollout
        at = argv.index("--only")
        only = argv[at + 1]
        argv = argv[:at] + argv[at + 2 :]
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    cluster = Postgres()
    app: WebApp | None = None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            database = cluster.new_database("route_screenshots")
            folder = Path(tmp) / "fleet"
            init_fleet(folder, database, free_port())
            with psycopg.connect(database) as conn:
                fill_route(conn, cabinets=24, days=120, money=4, games=6)
                happenings(conn)
            app = WebApp(folder)
            app.start()
            print(f"the route's pages, into {out}:", flush=True)
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                try:
                    pages(app, database, browser, out, only)
                finally:
                    browser.close()
            app.stop()
    finally:
        if app is not None:
            app.stop()
        cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
