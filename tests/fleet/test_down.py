"""The fleet-wide documents, down: route champions and settings documents published,
retained, on the real broker as the fleet publishes them (with ingest's own credentials),
taken by real cabinets' links, shown in attract's turn (the renderer's display list) and
decided, the reports reaching PostgreSQL through the real ingest."""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from cabinet.link import membership
from cabinet.link.sender import Sender
from cabinet.storage import fleet_documents, outbox, settings_documents
from cabinet.storage.pricing_settings import MAX_CREDITS
from cabinet.storage.setting_table import BY_NAME, MISSING_SWITCH_GAMES, REMOTE_SETTINGS, SETTINGS
from cabinet.storage.settings_documents import Decided
from cabinet.storage.settings_file import SettingsFileError, read_text
from cabinet.storage.store import CabinetStore
from fleet.broker import INGEST_USER
from fleet.join_file import Join
from fleet.wire_down import CHAMPIONS_TOPIC, Champion, Champions, SettingsDocument, settings_topic
from tests.fleet.cabinets import Cabinet
from tests.fleet.conftest import Route
from tests.fleet.waiting import wait_for

V = 10**12
"""Versions far above any the fleet's own ingest would publish from an empty database."""


class Fleet:
    """The fleet's side of the broker: ingest's user, publishing retained documents."""

    def __init__(self, route: Route) -> None:
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id="test-publisher",
            protocol=MQTTProtocolVersion.MQTTv5,
        )
        password = (route.folder / "ingest.secret").read_text().strip()
        self.client.username_pw_set(INGEST_USER, password)
        self.client.tls_set_context(ssl.create_default_context(cafile=str(route.folder / "ca.pem")))
        self.client.connect("127.0.0.1", route.port)
        self.client.loop_start()

    def publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def fleet(route: Route) -> Iterator[Fleet]:
    route.broker.start()
    publisher = Fleet(route)
    yield publisher
    publisher.close()  # closing twice is harmless


def board(version: int, initials: str = "ANN") -> Champions:
    return Champions(
        version,
        (
            Champion("most_plays", initials, 61, "The Anchor", "bar-1", "2026-12-01"),
            Champion("closest_race_won", "FUK", 1_250_000, "Rovers Return", "bar-2", "2026-12-02"),
        ),
    )


def started(cabinet: Cabinet) -> Sender:
    sender = cabinet.sender()
    assert sender.start()
    return sender


def kept(store: CabinetStore) -> int:
    found = fleet_documents.champions(store.db.connection)
    return 0 if found is None else found.version


def test_champions_reach_the_attract_turn_newest_only_and_stay(route: Route, fleet: Fleet) -> None:
    cabinet = route.cabinet("bar-1")
    sender = started(cabinet)
    try:
        fleet.publish(CHAMPIONS_TOPIC, board(V + 2).dumps())
        wait_for("the champions", lambda: kept(cabinet.store) == V + 2, cabinet.changes)
        fleet.publish(CHAMPIONS_TOPIC, board(V + 1, "OLD").dumps())
        fleet.publish(CHAMPIONS_TOPIC, b"{not json")  # one log line, ignored
        # A settings document after them marks that the link has read them all.
        fleet.publish(
            settings_topic("route"), route_document(V, "[cabinet]\nvolume = 10\n").dumps()
        )
        wait_for(
            "the marker",
            lambda: bool(fleet_documents.held(cabinet.store.db.connection)),
            cabinet.changes,
        )
        assert kept(cabinet.store) == V + 2
        [volume] = settings_documents.take(cabinet.store)
        assert volume.applied and cabinet.store.settings["volume"] == 10
        # Newer only: the same version again is not held again (champions mark it read).
        fleet.publish(
            settings_topic("route"), route_document(V, "[cabinet]\nvolume = 20\n").dumps()
        )
        fleet.publish(CHAMPIONS_TOPIC, board(V + 3).dumps())
        wait_for("the champions after it", lambda: kept(cabinet.store) == V + 3, cabinet.changes)
        assert fleet_documents.held(cabinet.store.db.connection) == []
    finally:
        sender.stop()
    titles, drawn = cabinet.attract_champions()
    assert drawn == ["???  1.250 ms  Rovers Return", "ANN  61 plays  The Anchor"]
    assert titles == ["Closest race won", "Most plays in a game"]
    cabinet.store.close()
    cabinet.store = CabinetStore.open(cabinet.data_dir)  # a restart keeps the board
    assert kept(cabinet.store) == V + 3


def route_document(version: int, text: str) -> SettingsDocument:
    return SettingsDocument("route", version, None, text)


def test_settings_documents_applied_refused_and_reported(route: Route, fleet: Fleet) -> None:
    on, off = route.cabinet("bar-1"), route.cabinet("bar-2", "Rovers Return")
    on.store.settings.set(REMOTE_SETTINGS, True)
    on.store.save_settings()
    bad = "[game]\nrace_window_ms = 250\n"
    with pytest.raises(SettingsFileError) as why:
        read_text(bad)
    fleet.publish(
        settings_topic("route"), route_document(V + 5, "[pricing]\nmax_credits = 42\n").dumps()
    )
    location = SettingsDocument("location-1", V + 6, "The Anchor", bad)  # bar-1's location's
    fleet.publish(settings_topic("location-1"), location.dumps())
    fleet.close()  # ingest's own user: the broker takes one connection of it at a time
    route.ingest.start()
    senders = [started(on), started(off)]
    try:
        decided = {d.document: d for d in on.decide(2)}
        refused_bad, applied = decided["location-1"], decided["route"]
        [refused] = off.decide(1)
        assert applied == Decided("route", V + 5, True, "", ("max_credits",))
        assert on.store.settings.get(MAX_CREDITS) == 42
        assert refused_bad == Decided("location-1", V + 6, False, str(why.value))
        assert not refused.applied and "remote_settings" in refused.reason
        assert off.store.settings.get(MAX_CREDITS) == MAX_CREDITS.default
        with route.db() as conn:

            def reports() -> list[tuple[str, str, str, str]]:
                rows = conn.execute(
                    "SELECT cabinet, body FROM events WHERE kind = 'settings' ORDER BY cabinet, seq"
                ).fetchall()
                return [(c, b["document"], b["result"], b["reason"]) for c, b in rows]

            wait_for("three reports in PostgreSQL", lambda: len(reports()) == 3, route.ingested)
            assert sorted(reports()) == [
                ("bar-1", "location-1", "refused", str(why.value)),
                ("bar-1", "route", "applied", ""),
                ("bar-2", "route", "refused", refused.reason),
            ]
    finally:
        for sender in senders:
            sender.stop()


def test_the_route_leaves_what_the_location_sets(route: Route) -> None:
    cabinet = Cabinet(route.root / "solo", route.add_cabinet("solo"))
    route.cabinets.append(cabinet)
    store, conn = cabinet.store, cabinet.store.db.connection
    for document in (
        SettingsDocument("location-3", 1, "The Anchor", "[cabinet]\nvolume = 30\n"),
        SettingsDocument("route", 2, None, "[cabinet]\nvolume = 90\nlight_brightness = 40\n"),
        SettingsDocument("location-4", 3, "Elsewhere", "[cabinet]\nvolume = 5\n"),
    ):
        with store.db.transaction() as held:
            fleet_documents.hold(held, document)
    assert [d.document for d in settings_documents.take(store)] == ["location-3", "route"]
    assert store.settings["volume"] == 30 and store.settings["light_brightness"] == 40
    assert fleet_documents.held(conn) == []


_values = st.one_of(
    st.integers(-5, 2000), st.booleans(), st.text(max_size=6), st.sampled_from(["auto", "EUR"])
)
_names = st.sampled_from([s.name for s in SETTINGS] + ["nonsense"])
_tables = st.sampled_from(["game", "cabinet", "operator", "pricing", "other"])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    entries=st.lists(st.tuples(_tables, _names, _values), max_size=5),
    garbage=st.text(max_size=20),
)
def test_any_document_is_decided_once_and_reported_once(
    tmp_path_factory: pytest.TempPathFactory, entries: list[tuple[str, str, object]], garbage: str
) -> None:
    store = CabinetStore.open(tmp_path_factory.mktemp("cabinet"))
    try:
        join = Join("f", "c-1", "The Anchor", "localhost", 8883, "pw", "")
        with store.db.transaction() as conn:
            membership.join(conn, join)
        lines = [f"[{t}]\n{n} = {_toml(v)}" for t, n, v in entries]
        text = "\n".join(lines) + ("\n" + garbage if garbage.strip() else "")
        for version in (1, 2):
            document = SettingsDocument("route", version, None, text)
            with store.db.transaction() as conn:
                fleet_documents.hold(conn, document)
            [decided] = settings_documents.take(store)
            assert decided.version == version
            rows = outbox.pending(store.db.connection, 0, 100)
            assert [r.body["version"] for r in rows if r.kind == "settings"] == [1, 2][:version]
    finally:
        store.close()


@pytest.mark.parametrize("switch", ["remote_settings", "unsigned_updates"])
def test_a_document_that_sets_a_switch_of_the_cabinet_s_own_is_refused_whole(
    tmp_path: Path, switch: str
) -> None:
    store = CabinetStore.open(tmp_path / "cabinet")
    try:
        with store.db.transaction() as conn:
            membership.join(conn, Join("f", "c-1", "The Anchor", "localhost", 8883, "pw", ""))
            text = f"[operator]\n{switch} = true\nmissing_switch_games = 12\n"
            fleet_documents.hold(conn, SettingsDocument("route", 1, None, text))
        [decided] = settings_documents.take(store)
        assert not decided.applied
        assert decided.reason == f"{switch}: set only at the cabinet, never by a settings document"
        assert store.settings.get(BY_NAME[switch]) is False
        assert store.settings.get(MISSING_SWITCH_GAMES) == 10  # nothing of it applied
    finally:
        store.close()


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)
