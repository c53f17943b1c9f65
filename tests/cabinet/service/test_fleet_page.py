"""The service menu's Fleet page: the link's state as ``fleet status`` says it, and the
missing switches."""

from __future__ import annotations

from cabinet.link import membership
from cabinet.link.status import CONNECTED, ERROR
from cabinet.storage import outbox
from fleet.join_file import Join
from tests.cabinet.service.conftest import Cabinet


def _values(cab: Cabinet) -> dict[str, str]:
    return {row.label: row.value for row in cab.shown.rows if row.label != "Back"}


def test_a_cabinet_in_no_fleet_says_so(cabinet: Cabinet) -> None:
    cabinet.test()
    cabinet.choose("Fleet")
    assert cabinet.shown.title == "Fleet"
    assert _values(cabinet) == {"Fleet": "None (no connection)", "Missing switches": "None"}


def test_a_joined_cabinet_shows_its_link(cabinet: Cabinet) -> None:
    join = Join("Northside", "bar-7", "The Anchor", "fleet.example", 8883, "pw", "ca")
    with cabinet.store.db.transaction() as conn:
        membership.join(conn, join)
        outbox.set_fleet_values(conn, {CONNECTED: "no", ERROR: "cannot reach fleet.example"})
    cabinet.store.save_audits()  # queues the audits
    cabinet.store.silence["p2.pile1"] = 99
    cabinet.test()
    cabinet.choose("Fleet")
    values = _values(cabinet)
    assert values["Fleet"] == "Northside"
    assert values["Cabinet"] == "bar-7 · The Anchor"
    assert values["Connected"] == "Off"
    assert values["Queued"] == "1"
    assert values["Last error"] == "cannot reach fleet.example"
    assert values["Dropped"] == "0"
    assert values["Missing switches"] == "p2.pile1"
