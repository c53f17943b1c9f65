"""Settings documents on the fleet's side: checked, versioned from one sequence, said on
``fleet_documents`` in their transaction, and each cabinet's state of each document from
its ``settings`` events."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from fleet import documents, store
from fleet.documents import DocumentError
from fleet.wire import Presence
from fleet.wire_down import MAX_DOCUMENT_CHARS
from tests.fleet.events import empty, put

GOOD = "[game]\nrace_window_ms = 120\n\n[cabinet.keyboard_map]\np1_slot1 = 'q'\n"


@pytest.fixture
def route(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    empty(db)
    store.add_cabinet(db, "bar-1", "The Anchor")
    store.add_cabinet(db, "bar-2", "Cinema Nova")
    store.add_cabinet(db, "bar-3", "Cinema Nova")
    return db


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("[game\n", "not TOML"),
        ("", "holds no settings"),
        ("race_window_ms = 120\n", "'race_window_ms' is not a table of settings"),
        ("[[game]]\na = 1\n", "'game' is not a table of settings"),
        ("[game]\nx = [{a = 1}]\n", "game.x is an array of tables"),
        ("[game]\n#" + "x" * MAX_DOCUMENT_CHARS, "characters long"),
    ],
)
def test_a_bad_document_is_refused(route: psycopg.Connection[Any], body: str, said: str) -> None:
    with pytest.raises(DocumentError, match=said):
        documents.save_document(route, None, body, "owner")
    assert documents.documents(route) == []


def test_versions_rise_across_documents_and_each_save_is_notified(
    route: psycopg.Connection[Any],
) -> None:
    with pytest.raises(DocumentError, match="no location 'Nowhere'"):
        documents.save_document(route, "Nowhere", GOOD, "owner")
    conninfo = route.info.dsn
    with psycopg.connect(conninfo, autocommit=True) as listener:
        listener.execute("LISTEN " + documents.CHANNEL)
        first = documents.save_document(route, None, GOOD, "owner")
        nova = documents.save_document(route, "Cinema Nova", GOOD, "carla")
        again = documents.save_document(route, None, GOOD + "# again\n", "owner")
        said = [n.payload for n in listener.notifies(timeout=5, stop_after=3)]
    location = documents.document_id(route, "Cinema Nova")
    assert said == ["route", location, "route"]
    assert [first.version, nova.version, again.version] == [1, 2, 3]
    assert (nova.document, nova.location) == (location, "Cinema Nova")
    assert documents.documents(route) == [again, nova]
    assert documents.document(route, "route") == again
    assert documents.document(route, "location-99") is None
    assert documents.unpublished(route) == [nova, again]  # by id
    documents.mark_published(route, again)
    assert documents.unpublished(route) == [nova]
    assert len(documents.unpublished(route, everything=True)) == 2


def test_each_cabinet_s_state_of_a_document(route: psycopg.Connection[Any]) -> None:
    old = documents.save_document(route, None, GOOD, "owner")
    put(route, "bar-1", "settings", _report(old.version, "applied"))
    doc = documents.save_document(route, None, GOOD + "# v2\n", "owner")
    put(route, "bar-2", "settings", _report(doc.version, "refused", "pricing is locked"))
    put(route, "bar-3", "settings", _report(doc.version, "applied"))
    put(route, "bar-3", "settings", {**_report(9, "applied"), "document": "location-1"})
    states = {s.cabinet: s for s in documents.states(route, "route")}
    assert [s.pending for s in states.values()] == [True, False, False]
    assert (states["bar-1"].version, states["bar-1"].result) == (old.version, "applied")
    assert (states["bar-2"].result, states["bar-2"].reason) == ("refused", "pricing is locked")
    assert states["bar-3"].version == doc.version and states["bar-3"].at is not None
    nova = documents.save_document(route, "Cinema Nova", GOOD, "owner")
    local = documents.states(route, nova.document)
    assert [(s.cabinet, s.pending, s.version) for s in local] == [
        ("bar-2", True, None),
        ("bar-3", True, None),
    ]
    store.revoke(route, "bar-2")
    assert [s.cabinet for s in documents.states(route, "route")] == ["bar-1", "bar-3"]
    assert documents.states(route, "location-99") == []


def _report(version: int, result: str, reason: str = "") -> dict[str, Any]:
    return {"document": "route", "version": version, "result": result, "reason": reason}


def test_presence_is_logged_and_its_location_known(route: psycopg.Connection[Any]) -> None:
    route.execute("DELETE FROM locations")
    route.commit()
    store.record_presence(route, "bar-1", Presence.ONLINE, "1.0")
    store.record_presence(route, "bar-1", Presence.OFFLINE, "1.0")
    log = route.execute("SELECT state FROM presence_log ORDER BY id").fetchall()
    names = route.execute("SELECT name FROM locations").fetchall()
    route.commit()
    assert [s for (s,) in log] == ["online", "offline"] and names == [("The Anchor",)]
