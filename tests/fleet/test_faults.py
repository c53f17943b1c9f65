"""Faults on the way: each ends with nothing lost and nothing counted twice, checked
against the cabinets' own books (the real broker, database, ingest and sender)."""

from __future__ import annotations

import contextlib
import random
import signal
import subprocess
import sys
from collections.abc import Iterator

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from cabinet.link.sender import Sender
from cabinet.link.status import read_status
from cabinet.storage.outbox import pending
from fleet.join_file import read_join
from fleet.wire import Batch, Event, batch_topic
from tests.fleet.cabinets import Cabinet
from tests.fleet.conftest import Route
from tests.fleet.services import ROOT, IngestProcess, Postgres, running
from tests.fleet.waiting import Pipe, wait_for


def assert_books_match(route: Route, cabinet: Cabinet, name: str) -> None:
    """The fleet holds every game and coin of the cabinet's books, once each."""
    wait_for(
        f"{name}'s outbox to empty", lambda: cabinet.queued() == 0, cabinet.changes, timeout_s=60
    )
    assert route.stored(name, "game") == cabinet.games
    assert route.stored(name, "money") == cabinet.coins
    with route.db() as conn:
        row = conn.execute(
            "SELECT coalesce(sum(earnings_cents), 0), coalesce(sum(games), 0) FROM rollups "
            "WHERE cabinet = %s AND period = 'week'",
            (name,),
        ).fetchone()
    assert row is not None
    earned, games = row
    assert (earned, games) == (cabinet.earnings_cents(), cabinet.games)  # none twice


@contextlib.contextmanager
def sending(cabinet: Cabinet, batch_events: int | None = None) -> Iterator[Sender]:
    """The cabinet's sender running (on its thread) for the block."""
    sender = cabinet.sender()
    if batch_events is not None:
        sender.batch_events = batch_events
    sender.start()
    try:
        yield sender
    finally:
        sender.stop()


def play_some(cabinet: Cabinet, rng: random.Random, n: int) -> None:
    for _ in range(n):
        if rng.random() < 0.3:
            cabinet.play(seed=rng.randrange(20))
        else:
            cabinet.coin(rng.choice((1, 2)))


def test_the_broker_killed_and_restarted_during_a_burst(route: Route) -> None:
    cabinet = route.cabinet("bar-1")
    rng = random.Random(1)
    with running(route.broker, route.ingest), sending(cabinet):
        play_some(cabinet, rng, 40)
        route.broker.kill()  # SIGKILL: what it held in memory is gone
        play_some(cabinet, rng, 40)
        route.broker.start()
        play_some(cabinet, rng, 20)
        assert_books_match(route, cabinet, "bar-1")


def test_the_broker_down_for_a_whole_day_of_play(route: Route) -> None:
    cabinet = route.cabinet("bar-1")
    with sending(cabinet):  # no broker: it backs off and keeps trying
        play_some(cabinet, random.Random(2), 300)  # a day: about 90 games and 210 coins
        status = lambda: read_status(cabinet.store.db.connection)  # noqa: E731
        wait_for("a failed attempt", lambda: "cannot reach" in status().error, cabinet.changes)
        assert not status().connected
        assert cabinet.queued() >= 300
        with running(route.broker, route.ingest):
            assert_books_match(route, cabinet, "bar-1")


def test_the_broker_stopped_silently_a_partition(route: Route) -> None:
    cabinet = route.cabinet("bar-1")
    rng = random.Random(3)
    with running(route.broker, route.ingest), sending(cabinet) as sender:
        play_some(cabinet, rng, 20)
        wait_for("the first events through", lambda: cabinet.queued() == 0, cabinet.changes)
        route.broker.signal(signal.SIGSTOP)  # no FIN, no RST: silence
        play_some(cabinet, rng, 30)
        wait_for("the sender to notice", lambda: not sender.connected, cabinet.changes)
        route.broker.signal(signal.SIGCONT)
        play_some(cabinet, rng, 10)
        assert_books_match(route, cabinet, "bar-1")


def test_a_cabinet_killed_while_sending_at_seeded_moments(route: Route) -> None:
    cabinet = route.cabinet("bar-1")
    rng = random.Random(4)
    with running(route.broker, route.ingest):
        for _round in range(4):
            play_some(cabinet, rng, 40)
            link = subprocess.Popen(
                [sys.executable, "-m", "tests.fleet.sender_process", str(cabinet.path)],
                cwd=ROOT,
                stdout=subprocess.PIPE,
            )
            assert link.stdout is not None and link.stdout.readline() == b"sending\n"
            # The seeded moment it dies: once the fleet holds a seeded number more events
            # (or the link has sent everything: it says each change on its output).
            target = route.stored("bar-1") + rng.randrange(1, 40)
            wait_for(
                "the seeded moment",
                lambda t=target: route.stored("bar-1") >= t or not cabinet.queued(),
                route.ingested,
                Pipe(link.stdout),
            )
            link.kill()
            link.wait()
        with sending(cabinet):
            assert_books_match(route, cabinet, "bar-1")


def test_ingest_killed_between_its_commit_and_its_acknowledgement(route: Route) -> None:
    cabinet = route.cabinet("bar-1")
    play_some(cabinet, random.Random(5), 50)
    crashing = IngestProcess(route.folder, "tests.fleet.ingest_process", str(route.folder), "1")
    with running(route.broker, crashing), sending(cabinet, batch_events=10):
        crashing.wait(30)
        assert "killed between commit and ack" in crashing.log.read_text()
        assert route.stored("bar-1") > 0  # the fleet has it; the cabinet was not told
        assert cabinet.queued() > 0
        crashing.set_log_aside()
        with running(route.ingest):  # comes again, stored once, acknowledged
            assert_books_match(route, cabinet, "bar-1")


def test_postgresql_restarted(route: Route, postgres: Postgres) -> None:
    cabinet = route.cabinet("bar-1")
    rng = random.Random(6)
    with running(route.broker, route.ingest), sending(cabinet):
        play_some(cabinet, rng, 30)
        postgres.stop("fast")
        play_some(cabinet, rng, 30)
        postgres.start()
        play_some(cabinet, rng, 10)
        assert_books_match(route, cabinet, "bar-1")


def test_duplicate_deliveries_are_stored_once(route: Route) -> None:
    cabinet = route.cabinet("bar-1")
    play_some(cabinet, random.Random(7), 30)
    rows = pending(cabinet.store.db.connection, 0, 1000)
    epoch = cabinet.store.db.connection.execute(
        "SELECT value FROM fleet WHERE name = 'epoch'"
    ).fetchone()[0]
    join = read_join(route.root / "bar-1.join.json")
    events = tuple(Event(r.seq, r.kind, r.at, r.synced, r.body) for r in rows)
    whole = Batch("bar-1", epoch, 1, rows[-1].seq, events)
    half = Batch("bar-1", epoch, 1, events[14].seq, events[:15])
    with running(route.broker, route.ingest):
        duplicate = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id="bar-1", protocol=MQTTProtocolVersion.MQTTv5
        )
        duplicate.username_pw_set("bar-1", join.password)
        duplicate.tls_set_context(join.tls_context())
        duplicate.connect("localhost", route.port)
        duplicate.loop_start()
        try:
            for batch in (half, whole, half, whole, whole):
                duplicate.publish(batch_topic("bar-1"), batch.dumps(), qos=1).wait_for_publish(10)
            wait_for("all of it stored", lambda: route.stored("bar-1") == len(rows), route.ingested)
        finally:
            duplicate.loop_stop()
            duplicate.disconnect()
        with sending(cabinet) as sender:  # the retained acknowledgement empties the outbox
            wait_for("the outbox to empty", lambda: cabinet.queued() == 0, cabinet.changes)
            wait_for("its heartbeat", lambda: route.stored("bar-1", "health") == 1, route.ingested)
            assert sender.batches_sent == 1  # the heartbeat alone: nothing sent again
    assert_books_match(route, cabinet, "bar-1")
