"""Ingest: the fleet's one subscriber. It takes every cabinet's batches and presence from
the broker, checks each against the wire format (:mod:`fleet.wire`), stores it in
PostgreSQL insert-if-absent (:func:`fleet.store.store_batch`), and only after that commit
publishes the cabinet's acknowledgement, retained, on its down topic.

- Its own persistent session (client id ``ingest``, ``clean_start`` false), so what the
  cabinets send while it is down waits in the broker; and it acknowledges a message to
  the broker (PUBACK, manual) only after its commit, so a message it had not stored yet
  when it died comes again. Neither is relied on: cabinets resend what is not
  acknowledged, and the keys make a resend harmless.
- A message it cannot believe (malformed, oversized, of another wire version, from a
  revoked or unknown cabinet, or claiming another cabinet's name) gets one log line, a
  row in ``refused`` and a count in ``refused_counts`` (by cabinet and
  :class:`~fleet.wire_common.Refusal`, shown on the web application's pages); ingest goes
  on.
- When PostgreSQL goes away it retries, backing off, and stores nothing twice when it
  comes back.
- Each of its writes (a batch, a presence, a refusal, a rollout's step) says ``NOTIFY
  fleet_stored`` in its transaction (:data:`fleet.store.CHANNEL`): a reader that must know
  when the store changes waits on it (the tests do) instead of looking again and again.

It also publishes the fleet's down documents, retained, QoS 1 (docs/fleet.md):

- the route's champions (:mod:`fleet.champions`), worked out again right after the commit
  of a batch that stored a new ``fame`` event, published when they changed, and published
  again at every connection to the broker (a broker that lost its retained messages
  holds them again);
- the settings documents (:mod:`fleet.documents`): a thread of its own, on a database
  connection of its own, ``LISTEN``s on ``fleet_documents`` and publishes every document
  saved since it last published (all of them at every connection to the broker).
"""

from __future__ import annotations

import logging
import socket
import ssl
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import psycopg
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from fleet import champions, documents, rollouts, store
from fleet.broker import INGEST_USER, FleetConfig
from fleet.store import CabinetState
from fleet.wire import UP_FILTER, cabinet_of, parse_batch, parse_presence
from fleet.wire_common import Refusal, WireError
from fleet.wire_down import Ack, ack_topic, settings_topic

ROLLOUT_TICK_S = 1.0
"""How often the rollouts' controller looks (:func:`fleet.rollouts.tick`)."""

log = logging.getLogger("fleet.ingest")

SESSION_EXPIRY_S = 14 * 24 * 3600


class IngestStep(StrEnum):
    """Where ingest is with a batch, for a checkpoint (the fault tests stop it there)."""

    COMMITTED = "committed"
    """Stored in PostgreSQL; the acknowledgement not yet published."""
    ACKED = "acked"


def _nothing(step: IngestStep) -> None:
    pass


class Ingest:
    """Ingest for the fleet in ``folder`` (``host``/``port``: where to reach its broker,
    default the first host of its configuration)."""

    def __init__(
        self,
        folder: Path,
        *,
        host: str | None = None,
        port: int | None = None,
        database: str | None = None,
        client_id: str = INGEST_USER,
        checkpoint: Callable[[IngestStep], None] = _nothing,
    ) -> None:
        config = FleetConfig.load(folder)
        self.folder = folder
        self.host = host or config.hosts[0]
        self.port = port or config.port
        self.database = database or config.database
        self.client_id = client_id
        self.checkpoint = checkpoint
        self.refused: Counter[str] = Counter()
        """Messages refused, by :class:`~fleet.wire_common.Refusal` (and ``internal
        error``: a message ingest failed on, which is a bug); ``refused_counts`` keeps them
        per cabinet."""
        self.stored = 0
        """Events stored (new ones only)."""
        self.duplicates = 0
        """Events that came again and were already stored."""
        self.acks = 0
        self._db: psycopg.Connection[Any] | None = None
        self._client: mqtt.Client | None = None
        self._stop = threading.Event()
        self.ready = threading.Event()
        """Set once subscribed."""
        self._champions_due = False
        """The champions are to be worked out (and published) again."""
        self._republish = threading.Event()
        """Set at every connection: every down document is to be published again."""
        self._connected = threading.Event()

    # -- running -------------------------------------------------------------------------

    def run(self) -> None:
        """Run until :meth:`stop` (or SIGTERM through the command)."""
        self._db = self._connect_db()
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=self.client_id,
            protocol=MQTTProtocolVersion.MQTTv5,
            manual_ack=True,
        )
        password = (self.folder / "ingest.secret").read_text().strip()
        client.username_pw_set(INGEST_USER, password)
        context = ssl.create_default_context(cafile=str(self.folder / "ca.pem"))
        context.verify_flags |= ssl.VERIFY_X509_STRICT  # as Python 3.13's default
        client.tls_set_context(context)
        client.on_connect = self._on_connect
        client.on_message = self._on_message
        client.reconnect_delay_set(min_delay=1, max_delay=30)
        properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        properties.SessionExpiryInterval = SESSION_EXPIRY_S
        self._client = client
        client.connect_async(
            self.host, self.port, keepalive=30, clean_start=False, properties=properties
        )
        client.on_disconnect = self._on_disconnect
        client.loop_start()
        publisher = threading.Thread(
            target=self._publish_documents, name="fleet-documents", daemon=True
        )
        publisher.start()
        try:
            self._stop.wait()
        finally:
            publisher.join(5)
            client.disconnect()
            client.loop_stop()
            if self._db is not None:
                self._db.close()

    def stop(self) -> None:
        self._stop.set()

    def _connect_db(self) -> psycopg.Connection[Any]:
        delay = 0.5
        while True:
            try:
                return store.connect(self.database)
            except psycopg.OperationalError as exc:
                if self._stop.is_set():
                    raise
                log.warning("the fleet's database: %s; again in %.1f s", exc, delay)
                time.sleep(delay)
                delay = min(10.0, delay * 2)

    def _on_connect(
        self, client: mqtt.Client, userdata: object, flags: object, reason: Any, props: object
    ) -> None:
        if reason.is_failure:
            log.error("the broker refused ingest: %s", reason)
            return
        sock = client.socket()
        if isinstance(sock, (socket.socket, ssl.SSLSocket)):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no Nagle on acks
        client.subscribe(UP_FILTER, qos=1)
        self._connected.set()
        self._republish.set()
        self._champions_due = True
        try:
            self._champions(republish=True)
        except psycopg.Error as exc:  # the next batch tries again
            log.warning("the champions are not published yet: %s", exc)
        log.info("ingest: subscribed to %s", UP_FILTER)
        self.ready.set()

    def _on_disconnect(
        self, client: mqtt.Client, userdata: object, flags: object, reason: Any, props: object
    ) -> None:
        self._connected.clear()

    def _publish(self, topic: str, payload: bytes) -> None:
        if self._client is not None:
            self._client.publish(topic, payload, qos=1, retain=True)

    def _champions(self, *, republish: bool = False) -> None:
        """Work the champions out and publish them if they changed (``republish``: the
        newest board in any case)."""
        db = self._db
        assert db is not None
        made = champions.publish_if_changed(db, self._publish)
        if made is None and republish:
            champions.republish(db, self._publish)
        self._champions_due = False

    def _publish_documents(self) -> None:
        """The settings documents' thread: publish what was saved since the last time,
        whenever told (``NOTIFY fleet_documents``), everything at each connection."""
        delay = 0.5
        next_tick = 0.0
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.database, autocommit=True) as conn:
                    conn.execute("LISTEN " + documents.CHANNEL)
                    delay = 0.5
                    self._republish.set()
                    while not self._stop.is_set():
                        if self._connected.is_set():
                            everything = self._republish.is_set()
                            self._republish.clear()
                            for doc in documents.unpublished(conn, everything):
                                self._publish(settings_topic(doc.document), doc.dumps())
                                documents.mark_published(conn, doc)
                                log.info("published %s version %d", doc.document, doc.version)
                        if time.monotonic() >= next_tick:
                            next_tick = time.monotonic() + ROLLOUT_TICK_S
                            self._rollouts(conn)
                        for _ in conn.notifies(timeout=0.25, stop_after=1):
                            pass
            except psycopg.Error as exc:
                log.warning("the fleet's database (documents): %s; again in %.1f s", exc, delay)
                self._stop.wait(delay)
                delay = min(10.0, delay * 2)

    def _rollouts(self, conn: psycopg.Connection[Any]) -> None:
        """The rollouts' controller, once a second: offers, the rest after healthy
        canaries, a halt on the first rollback (docs/releases.md, "Rollouts")."""
        if not self._connected.is_set():
            return
        for line in rollouts.tick(conn, self._publish, datetime.now(UTC)):
            log.info("%s", line)

    def _on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        while not self._stop.is_set():
            try:
                self.handle(message.topic, bytes(message.payload))
                break
            except psycopg.OperationalError as exc:
                log.warning("the fleet's database: %s; retrying", exc)
                if self._db is not None:
                    self._db.close()
                self._db = self._connect_db()
            except Exception:  # a bug must not stop ingest: said, counted, and passed by
                log.exception("ingest failed on a message on %s", message.topic[:80])
                self.refused["internal error"] += 1
                break
        else:
            return  # stopping: not acknowledged, so it comes again
        client.ack(message.mid, message.qos)

    # -- one message ---------------------------------------------------------------------

    def handle(self, topic: str, payload: bytes) -> Ack | None:
        """Check and store one message; returns the acknowledgement it published."""
        db = self._db
        assert db is not None
        try:
            cabinet, leaf = cabinet_of(topic)
            state = store.cabinet_state(db, cabinet)
            if state is not CabinetState.ACTIVE:
                refusal = (
                    Refusal.REVOKED if state is CabinetState.REVOKED else Refusal.UNKNOWN_CABINET
                )
                raise WireError(f"from a cabinet that is {state.value}: {cabinet}", refusal)
            if leaf == "presence":
                _, presence, version, faults = parse_presence(topic, payload)
                store.record_presence(db, cabinet, presence, version, faults)
                return None
            batch = parse_batch(topic, payload)
        except WireError as exc:
            self._refuse(db, topic, len(payload), exc)
            return None
        stored = store.store_batch(db, batch)
        if "fame" in stored.kinds:
            self._champions_due = True
        if "update" in stored.kinds:  # a step of a rollout (docs/releases.md)
            with db.transaction():
                for event in batch.events:
                    if event.kind == "update":
                        rollouts.record_update(db, cabinet, event.body)
        self.checkpoint(IngestStep.COMMITTED)
        self.stored += stored.new
        self.duplicates += len(batch.events) - stored.new
        ack = Ack(batch.epoch, stored.through)
        if self._client is not None:
            self._client.publish(ack_topic(cabinet), ack.dumps(), qos=1, retain=True)
            self.acks += 1
            self.checkpoint(IngestStep.ACKED)
        if self._champions_due:
            self._champions()
        return ack

    def _refuse(self, db: psycopg.Connection[Any], topic: str, size: int, exc: WireError) -> None:
        log.warning("refused a message on %s (%d bytes): %s", topic[:80], size, exc)
        self.refused[exc.refusal.value] += 1
        store.refuse(db, topic, size, str(exc), exc.refusal)
