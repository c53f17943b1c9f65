"""Who reaches the collections, alerts and settings pages (and the CSV); their forms
refused without the right CSRF token; any input to them never a server error
(hypothesis); each page at a phone's width with nothing to scroll sideways, and at a
desktop's (screenshots of both)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fleet.wire import Presence
from tests.fleet.events import presence, put
from tests.web.harness import Account, WebApp
from tests.web.site import DESKTOP, PHONE, Site, no_sideways_scroll, post


@pytest.fixture(scope="module")
def site(fleet: tuple[Path, str], web: WebApp, accounts: dict[str, Account], browser: Any) -> Site:
    made = Site(fleet[0], fleet[1], web, browser, accounts)
    made.cabinet("guard-1", "The Long Name Of A Venue With Many Words In It")
    with made.db() as conn:
        now = datetime.now(UTC)
        presence(conn, "guard-1", Presence.ONLINE, now - timedelta(hours=3))
        body = {"counts": {}, "counted": {"coins1": 1, "earnings_cents": 12345600}}
        put(conn, "guard-1", "money", body, at=now - timedelta(hours=2))
        conn.execute(
            "INSERT INTO collections (cabinet, at, counted_cents, entered_by, note) "
            "VALUES ('guard-1', %s, 12345500, 'collector', %s)",
            (now - timedelta(hours=1), "a long note " * 20),
        )
        conn.commit()
    return made


@pytest.fixture(scope="module")
def pages(site: Site) -> Any:
    """A page logged in for each role (one context each, for the module)."""
    made = {role: site.page(role) for role in ("owner", "collector", "technician")}
    yield made
    for page in made.values():
        page.context.close()


MONEY_PATHS = ("/collections/", "/collections/guard-1/", "/collections/export.csv")
OWNER_PATHS = ("/settings/", "/settings/route/", "/alerts/options/", "/rollouts/")


@pytest.mark.parametrize(
    ("role", "allowed"),
    [
        ("owner", (*MONEY_PATHS, *OWNER_PATHS, "/alerts/")),
        ("collector", (*MONEY_PATHS, "/alerts/")),
        ("technician", ("/alerts/",)),
    ],
)
def test_each_role_reaches_only_its_pages(pages: Any, site: Site, role: str, allowed: Any) -> None:
    page = pages[role]
    for path in (*MONEY_PATHS, *OWNER_PATHS, "/alerts/"):
        status = page.request.get(site.app.url(path), max_redirects=0).status
        assert status == (200 if path in allowed else 403), (role, path, status)
    page.goto(site.app.url("/"))
    nav = page.locator("nav").inner_text()
    assert ("Collections" in nav) == (role != "technician")
    assert ("Settings" in nav) == (role == "owner")


def test_nobody_signed_out_reaches_them(site: Site) -> None:
    context = site.browser.new_context()
    for path in (*MONEY_PATHS, *OWNER_PATHS, "/alerts/"):
        response = context.request.get(site.app.url(path), max_redirects=0)
        assert response.status == 302 and "/login/" in response.headers["location"], path
    context.close()


FORMS = [
    ("/collections/", {"cabinet": "guard-1", "amount": "1.00", "note": ""}),
    ("/settings/route/", {"body": "[game]\nbest_of = 3\n"}),
    ("/alerts/options/", {"action": "options", "offline_hours": "2"}),
    ("/alerts/options/", {"action": "hours", "location": "x", "opens": "10:00"}),
]


@pytest.mark.parametrize(("path", "form"), FORMS)
def test_the_forms_refuse_a_missing_or_wrong_csrf_token(
    pages: Any, site: Site, path: str, form: dict[str, str]
) -> None:
    page = pages["owner"]
    page.goto(site.app.url("/alerts/"))
    with site.db() as conn:
        before = conn.execute(
            "SELECT (SELECT count(*) FROM collections), (SELECT count(*) FROM settings_documents),"
            " (SELECT count(*) FROM fleet_options)"
        ).fetchone()
    assert post(page, path, form, token=None).status == 403
    assert post(page, path, form, token="x" * 64).status == 403
    with site.db() as conn:
        after = conn.execute(
            "SELECT (SELECT count(*) FROM collections), (SELECT count(*) FROM settings_documents),"
            " (SELECT count(*) FROM fleet_options)"
        ).fetchone()
    assert after == before
    assert post(page, path, form).status in (302, 400)  # the right token: through


texts = st.text(max_size=40) | st.sampled_from(["", "0", "-1", "1e9", "1.005", "NaN", "\x00"])
fuzz = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@fuzz
@given(cabinet=st.sampled_from(["guard-1", "nope", ""]) | texts, amount=texts, note=texts)
def test_any_collection_form_is_answered_never_a_server_error(
    pages: Any, cabinet: str, amount: str, note: str
) -> None:
    response = post(pages["collector"], "/collections/", {"cabinet": cabinet, "amount": amount,
                                                          "note": note})  # fmt: skip
    assert response.status in (302, 400), response.text()[:500]


@fuzz
@given(body=texts | st.sampled_from(["[game]\nbest_of = 3", "x = 1", "[[a]]\nb = 1", "[a]"]))
def test_any_settings_document_is_answered_never_a_server_error(pages: Any, body: str) -> None:
    response = post(pages["owner"], "/settings/route/", {"body": body})
    assert response.status in (302, 400), response.text()[:500]


@fuzz
@given(
    key=st.sampled_from(["offline_hours", "coin_errors", "smtp_port", "digest_to"]),
    value=texts,
    hours=st.tuples(texts, texts, texts | st.sampled_from(["UTC", "Europe/Rome"])),
)
def test_any_option_or_hours_is_answered_never_a_server_error(
    pages: Any, key: str, value: str, hours: tuple[str, str, str]
) -> None:
    page = pages["owner"]
    response = post(page, "/alerts/options/", {"action": "options", key: value})
    assert response.status in (302, 400), response.text()[:500]
    opens, closes, zone = hours
    form = {"action": "hours", "location": "The Anchor", "opens": opens, "closes": closes,
            "timezone": zone}  # fmt: skip
    response = post(page, "/alerts/options/", form)
    assert response.status in (302, 400), response.text()[:500]


PAGES = (
    "/collections/",
    "/collections/guard-1/",
    "/alerts/",
    "/alerts/options/",
    "/settings/",
    "/settings/route/",
)


def test_the_pages_fit_a_phone_and_a_desktop(site: Site, tmp_path: Path) -> None:
    for viewport, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = site.page("owner", viewport)
        for path in PAGES:
            page.goto(site.app.url(path))
            assert page.locator("h1").count() == 1, path
            name = path.strip("/").replace("/", "-")
            page.screenshot(path=str(tmp_path / f"{name}-{label}.png"), full_page=True)
            if label == "phone":
                assert no_sideways_scroll(page), path
        page.context.close()
