"""The fleet's down documents through the real broker and ingest, read as a cabinet
reads them (its credentials, its subscription): a record set on a real cabinet is the
route's champion on another cabinet's topic within 5 s, and a settings document saved is
published, retained, as soon as it is saved."""

from __future__ import annotations

import time

from cabinet.halloffame.board import Candidate, Category
from fleet import documents, store
from fleet.wire_down import (
    CHAMPIONS_TOPIC,
    parse_champions,
    parse_settings_document,
    settings_topic,
)
from game.summary import Seat
from tests.fleet.cabinets import cpu_game
from tests.fleet.conftest import Route
from tests.fleet.downlink import Downlink
from tests.fleet.services import running
from tests.fleet.waiting import wait_for

ROUTE_TOML = "[game]\nrace_window_ms = 120\n"
LOCATION_TOML = "[operator]\nmissing_switch_games = 12\n"


def test_champions_and_settings_documents_reach_the_cabinets(route: Route) -> None:
    cabinet = route.cabinet("bar-1", "The Anchor")
    other = route.add_cabinet("bar-2", "Cinema Nova")
    with route.db() as conn:  # saved before ingest runs: published when it starts
        saved = documents.save_document(conn, None, ROUTE_TOML, "owner")
    with running(route.broker, route.ingest), Downlink(other, route.port) as down:
        sender = cabinet.sender()
        assert sender.start()
        try:
            wait_for(
                "the route's document",
                lambda: down.get(settings_topic("route")) is not None,
                down.changes,
            )
            got = parse_settings_document(
                settings_topic("route"), down.get(settings_topic("route")) or b""
            )
            assert got == saved
            game = cpu_game(1)
            game_id = cabinet.store.record_game(
                game.record,
                game.summary,
                (Seat.HUMAN, Seat.CPU),
                places=[Candidate(0, Category.MOST_PLAYS, 4242)],
            )
            (entry,) = cabinet.store.fame_entries_of(game_id)
            set_at = time.monotonic()
            cabinet.store.set_initials(entry.entry_id, "ACE")

            def champion() -> bool:
                payload = down.get(CHAMPIONS_TOPIC)
                return payload is not None and any(
                    c.initials == "ACE" for c in parse_champions(payload).champions
                )

            wait_for("the champion on the other cabinet", champion, down.changes, timeout_s=5)
            assert time.monotonic() - set_at < 5
            board = parse_champions(down.get(CHAMPIONS_TOPIC) or b"")
            assert [(c.category, c.figure, c.venue, c.cabinet) for c in board.champions] == [
                ("most_plays", 4242, "The Anchor", "bar-1")
            ]
            with route.db() as conn:
                location = documents.document_id(conn, "Cinema Nova")
                local = documents.save_document(conn, "Cinema Nova", LOCATION_TOML, "owner")
            topic = settings_topic(location)
            wait_for(
                "the location's document",
                lambda: down.get(topic) is not None,
                down.changes,
                timeout_s=5,
            )
            assert parse_settings_document(topic, down.get(topic) or b"") == local
        finally:
            sender.stop()
        with Downlink(other, route.port) as fresh:  # retained: a cabinet connecting later
            wait_for(
                "the retained documents",
                lambda: len(fresh.payloads) == 3,
                fresh.changes,
                timeout_s=5,
            )
            assert parse_champions(fresh.payloads[CHAMPIONS_TOPIC]) == board
    with route.db() as conn:
        (published,) = conn.execute(
            "SELECT array_agg(version = published) FROM settings_documents"
        ).fetchone() or ([],)
        assert published == [True, True]
        assert store.latest(conn, "bar-1", "fame") is not None
