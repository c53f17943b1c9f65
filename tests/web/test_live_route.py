"""The route page fills from three real cabinets playing through the real link (the
broker, ingest, PostgreSQL), and a cabinet whose link stops goes offline on it."""

from __future__ import annotations

from typing import Any

from tests.fleet.conftest import Route
from tests.fleet.services import running
from tests.fleet.waiting import wait_for
from tests.web.harness import Account, WebApp, log_in
from tests.web.site import cells


def test_three_cabinets_fill_the_route_and_one_goes_offline(
    route: Route, web: WebApp, accounts: dict[str, Account], page: Any
) -> None:
    cabinets = [route.cabinet(f"pub-{i}", f"Venue {i % 2}") for i in range(3)]
    for i, cabinet in enumerate(cabinets):
        for n in range(1 + i):
            cabinet.play(seed=20 + 10 * i + n)
            cabinet.coin(1 + n % 2)
    log_in(page, web, accounts["collector"])
    with running(route.broker, route.ingest):
        senders = [c.sender(version=f"9.{i}") for i, c in enumerate(cabinets)]
        for sender in senders:
            assert sender.start()
        try:
            for cabinet in cabinets:
                wait_for("the outbox to empty", lambda c=cabinet: c.queued() == 0, cabinet.changes)

            def shown(name: str, key: str, value: str) -> bool:
                """The route page loaded again (at each of ingest's writes) shows it."""
                page.goto(web.url("/"))
                return cells(page, name).get(key) == value

            for i, cabinet in enumerate(cabinets):
                name = f"pub-{i}"
                wait_for(
                    f"{name} online", lambda n=name: shown(n, "Online", "online"), route.ingested
                )
                row = cells(page, name)
                assert row["Games today"] == str(cabinet.games) == str(1 + i)
                assert row["Version"] == f"9.{i}"
                expected = f"{cabinet.earnings_cents() / 100:,.2f}"
                assert row["Today"] == row["Since collection"] == expected
            senders[1].stop()
            wait_for("pub-1 offline", lambda: shown("pub-1", "Online", "offline"), route.ingested)
            assert cells(page, "pub-0")["Online"] == "online"
            page.goto(web.url("/?location=Venue+1"))
            assert page.locator("#route tbody tr").count() == 1
            page.goto(web.url("/cabinets/pub-2/"))
            assert page.locator("#games tbody tr").count() == 3
            assert "online" in page.inner_text("#presence")
        finally:
            for sender in senders:
                sender.stop()
