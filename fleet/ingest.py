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
  count and a row in ``refused``; ingest goes on.
- When PostgreSQL goes away it retries, backing off, and stores nothing twice when it
  comes back.
"""

from __future__ import annotations

import logging
import socket
import ssl
import threading
import time
from collections import Counter
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import psycopg
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from fleet import store
from fleet.broker import INGEST_USER, FleetConfig
from fleet.store import CabinetState
from fleet.wire import (
    UP_FILTER,
    Ack,
    WireError,
    ack_topic,
    cabinet_of,
    parse_batch,
    parse_presence,
)

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
        """Messages refused, by the first words of their reason."""
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
        client.loop_start()
        try:
            self._stop.wait()
        finally:
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
        log.info("ingest: subscribed to %s", UP_FILTER)
        self.ready.set()

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
                raise WireError(f"from a cabinet that is {state.value}: {cabinet}")
            if leaf == "presence":
                _, presence, version, faults = parse_presence(topic, payload)
                store.record_presence(db, cabinet, presence, version, faults)
                return None
            batch = parse_batch(topic, payload)
        except WireError as exc:
            self._refuse(db, topic, len(payload), str(exc))
            return None
        stored = store.store_batch(db, batch)
        self.checkpoint(IngestStep.COMMITTED)
        self.stored += stored.new
        self.duplicates += len(batch.events) - stored.new
        ack = Ack(batch.epoch, stored.through)
        if self._client is not None:
            self._client.publish(ack_topic(cabinet), ack.dumps(), qos=1, retain=True)
            self.acks += 1
            self.checkpoint(IngestStep.ACKED)
        return ack

    def _refuse(self, db: psycopg.Connection[Any], topic: str, size: int, reason: str) -> None:
        log.warning("refused a message on %s (%d bytes): %s", topic[:80], size, reason)
        self.refused[reason.split(":")[0][:40]] += 1
        store.refuse(db, topic, size, reason)
