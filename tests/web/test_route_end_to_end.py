"""The operator's route end to end, every part real and shared by the module: PostgreSQL,
the broker, ingest, the web application and Chromium, with real cabinets (their store,
their link). A dead button's run raises a fault that reaches the alerts and route pages,
next to a low-earnings alert only money roles see, and the digest mails both to a real
SMTP server; a record set on one cabinet is the route's champion on another's attract
turn (blocked initials as ???); a location's settings document saved in the browser is
applied on the cabinet that allows remote pricing and refused on the one that does not,
the page showing both."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cabinet.halloffame.board import Category
from cabinet.link.sender import Sender
from cabinet.storage import fleet_documents
from cabinet.storage.pricing_settings import MAX_CREDITS
from cabinet.storage.setting_table import MISSING_SWITCH_GAMES, REMOTE_SETTINGS, VOLUME
from cabinet.storage.store import CabinetStore
from fleet import cli, documents
from game.edges import Button
from game.summary import Seat
from tests.fleet.cabinets import Cabinet
from tests.fleet.conftest import Route
from tests.fleet.events import weekday_earnings
from tests.fleet.services import mail_server, running
from tests.fleet.waiting import wait_for
from tests.web.harness import Account, WebApp
from tests.web.site import Site, cells


@pytest.fixture(scope="module")
def live(route: Route) -> Iterator[Route]:
    """The module's fleet with its broker and ingest running (one of each for the file)."""
    with running(route.broker, route.ingest):
        yield route


@pytest.fixture(scope="module")
def site(fleet: tuple[Path, str], web: WebApp, accounts: dict[str, Account], browser: Any) -> Site:
    return Site(fleet[0], fleet[1], web, browser, accounts)


@contextlib.contextmanager
def linked(*cabinets: Cabinet) -> Iterator[list[Sender]]:
    """The cabinets' real links, connected; stopped whatever happens."""
    senders = [c.sender() for c in cabinets]
    try:
        for sender in senders:
            assert sender.start()
        yield senders
    finally:
        for sender in senders:
            sender.stop()


def spit_fleet(site: Site, *args: str) -> int:
    """``spit-fleet`` on the module's fleet (its output kept out of the test's)."""
    with contextlib.redirect_stdout(io.StringIO()):
        return cli.main([*args, "--dir", str(site.folder)])


def block(text: str, heading: str) -> list[str]:
    """The lines of the digest under ``heading`` (a location), up to the next blank line."""
    lines = text.replace("\r\n", "\n").split("\n")
    start = lines.index(heading)
    assert lines[start + 1] == "-" * len(heading)
    end = lines.index("", start)
    return lines[start + 2 : end]


def test_a_dead_button_and_low_earnings_reach_the_pages_and_the_digest(
    live: Route, site: Site
) -> None:
    name, venue = "e2e-switch", "Harbour Inn"
    cabinet = live.cabinet(name, venue)
    cabinet.store.settings.set(MISSING_SWITCH_GAMES, 3)  # the setting's lowest
    cabinet.store.save_settings()
    now = datetime.now(UTC)
    with site.db() as conn:  # five weeks of history, from an earlier epoch of the cabinet
        conn.execute(
            "UPDATE cabinets SET added_at = %s WHERE name = %s", (now - timedelta(days=60), name)
        )
        conn.commit()
        yesterday = (now - timedelta(days=1)).replace(hour=12, minute=0, second=0, microsecond=0)
        weekday_earnings(conn, name, yesterday, [5000, 5000, 5000, 5000, 100])
    people = (Seat.HUMAN, Seat.HUMAN)
    for seed in range(3):  # player 1's slot 2 never closes; the buttons beside it do
        cabinet.play(seed, people, dead=(0, Button.SLOT2))
    assert cabinet.store.missing_switches == ["p1.slot2"]
    with linked(cabinet):
        wait_for("the fault in PostgreSQL", lambda: live.stored(name, "fault") == 1, live.ingested)
        wait_for("the outbox sent", lambda: cabinet.queued() == 0, cabinet.changes)
        seen = {}
        for role in ("owner", "technician"):
            page = site.page(role)
            page.goto(site.app.url("/alerts/"))
            seen[role] = page.locator("table.alerts tbody").inner_text()
            page.goto(site.app.url("/"))
            assert cells(page, name)["Open faults"] == "1: missing_switch"
            page.context.close()
    detail = "p1.slot2: not pressed in 3 games while the buttons beside it were"
    assert "Missing switch" in seen["owner"] and detail in seen["owner"]
    assert "Low earnings" in seen["owner"] and "earned 1.00" in seen["owner"]
    assert "Missing switch" in seen["technician"] and detail in seen["technician"]
    assert "Low earnings" not in seen["technician"] and "earned" not in seen["technician"]

    with mail_server() as (inbox, port):
        for key, value in [
            ("smtp_host", "127.0.0.1"),
            ("smtp_port", str(port)),
            ("smtp_starttls", "no"),
            ("digest_from", "fleet@example.com"),
            ("digest_to", "tech@example.com"),
            ("digest_money_to", "owner@example.com, collector@example.com"),
        ]:
            assert spit_fleet(site, "option", key, value) == 0
        assert spit_fleet(site, "digest") == 0
        wait_for("both mails", lambda: len(inbox.mails) == 2, inbox.changes, timeout_s=10)
    by_to = {tuple(to): message.get_content() for to, message in inbox.mails}
    owners = block(by_to[("owner@example.com", "collector@example.com")], venue)
    tech = block(by_to[("tech@example.com",)], venue)
    kinds = [line.split(" since ")[0] for line in owners if line.startswith("- ")]
    assert sorted(kinds) == [f"- {name}: low earnings", f"- {name}: missing switch"]
    assert any(detail in line for line in owners)
    assert any("earned 1.00" in line for line in owners)
    assert [line.split(" since ")[0] for line in tech if line.startswith("- ")] == [
        f"- {name}: missing switch"
    ]
    assert not any("earn" in line for line in tech)


def test_route_champions_reach_another_cabinet_s_attract_turn(live: Route) -> None:
    a = live.cabinet("e2e-champ-a", "Rovers Return")
    b = live.cabinet("e2e-champ-b", "Cinema Nova")
    with linked(a, b):
        a.set_record(5, Category.MOST_PLAYS, 77, "ZED")
        a.set_record(6, Category.LONGEST_STREAK, 9, "A55")  # blocked: A55 reads ASS

        def board() -> list[tuple[str, str, int, str, str]]:
            kept = fleet_documents.champions(b.store.db.connection)
            if kept is None:
                return []
            return [(c.category, c.initials, c.figure, c.venue, c.cabinet) for c in kept.champions]

        wait_for("both champions on B", lambda: len(board()) == 2, b.changes)
    assert board() == [
        ("longest_streak", "A55", 9, "Rovers Return", "e2e-champ-a"),
        ("most_plays", "ZED", 77, "Rovers Return", "e2e-champ-a"),
    ]
    titles, rows = b.attract_champions()
    assert titles == ["Longest winning streak", "Most plays in a game"]
    assert rows == ["???  9 wins  Rovers Return", "ZED  77 plays  Rovers Return"]


def test_a_settings_push_applied_on_one_cabinet_and_refused_on_another(
    live: Route, site: Site
) -> None:
    venue = "The Oak"
    on, off = live.cabinet("e2e-remote", venue), live.cabinet("e2e-local", venue)
    on.store.settings.set(REMOTE_SETTINGS, True)  # at the cabinet, its service menu
    on.store.save_settings()
    with site.db() as conn:
        document = documents.document_id(conn, venue)
    text = "[cabinet]\nvolume = 30\n\n[pricing]\nmax_credits = 42\n"
    with linked(on, off):
        page = site.page("owner")
        page.goto(site.app.url("/settings/"))
        page.click(f"#document-{document} a")
        page.fill("textarea[name=body]", text)
        page.click("#document-form button[type=submit]")
        page.wait_for_url(f"**/settings/{document}/")
        version = int(page.locator("#version strong").inner_text())
        [applied] = on.decide(1)  # as the display decides them, once a second
        [refused] = off.decide(1)
        assert (applied.document, applied.version, applied.applied) == (document, version, True)
        assert sorted(applied.changed) == ["max_credits", "volume"]
        assert (refused.document, refused.version, refused.applied) == (document, version, False)
        assert "remote_settings" in refused.reason

        def shown() -> bool:
            """The page loaded again (at each of ingest's writes) shows both."""
            page.reload()
            rows = ("#state-e2e-remote", "#state-e2e-local")
            classes = [page.locator(row).get_attribute("class") for row in rows]
            return classes == ["applied", "refused"]

        wait_for("both reports on the page", shown, live.ingested)
        assert f"applied version {version}" in page.locator("#state-e2e-remote").inner_text()
        row = page.locator("#state-e2e-local")
        assert "refused" in row.locator("td.state").inner_text()
        assert row.locator("td[data-label=Reason]").inner_text() == refused.reason
        page.context.close()
    for cabinet in (on, off):  # what each stored, as its next start reads it
        cabinet.store.close()
        cabinet.store = CabinetStore.open(cabinet.data_dir)
    assert on.store.settings.get(MAX_CREDITS) == 42 and on.store.settings.get(VOLUME) == 30
    assert off.store.settings.get(MAX_CREDITS) == MAX_CREDITS.default
    assert off.store.settings.get(VOLUME) == VOLUME.default
