"""The sender: the cabinet's outbox to its fleet over MQTT v5, on a thread of the display
process. No game, coin or frame waits on it: the outbox is written by the store's own
transactions, and this thread only reads it, sends it and deletes what the fleet has
acknowledged (docs/fleet.md, "What is guaranteed"). Its connection (the session, presence,
back-off) is :mod:`cabinet.link.connection`'s; the fleet-wide documents it takes,
:mod:`cabinet.link.down`'s.

- Batches (:class:`fleet.wire.Batch`) of the outbox in order, at most :attr:`Sender.window`
  not yet acknowledged by the fleet; after a reconnection, or when the fleet has said
  nothing for :attr:`Sender.resend_after_s` while batches wait, everything not
  acknowledged is sent again (the fleet stores each event once, on its key).
- A row is deleted only when the fleet's acknowledgement covers it: the retained message
  on the cabinet's down topic, which ingest publishes after its database commit. The
  broker's PUBACK is not enough (a broker killed outright loses what it held).
- A heartbeat (a health event) every :attr:`Sender.heartbeat_s`.

The thread opens only outbound connections, and none at all while the cabinet is in no
fleet.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import MQTTErrorCode

from cabinet.link import down
from cabinet.link.connection import Connection
from cabinet.link.link_store import LinkStore
from cabinet.storage.outbox import Kind, Row, clock_synced
from fleet.join_file import Join
from fleet.wire import MAX_BATCH_EVENTS, Batch, Event, batch_topic
from fleet.wire_common import MAX_MESSAGE_BYTES, WireError
from fleet.wire_down import DOWN_FILTER, ack_topic, parse_ack, release_topic

log = logging.getLogger("cabinet.link")


Watch = Callable[[], Mapping[str, str]]
"""The display's parts the link watches, read from its thread: ``door`` (``open`` or
``closed``) and ``light_board`` (``connected``, ``lost`` or ``none``). A change is
queued (a ``door`` event; the light board lost or back, a ``fault``), and the heartbeat
carries the current states."""


@dataclass(slots=True)
class _Sent:
    last: int
    at_s: float


class Sender(Connection):
    """Sends the outbox of the database at ``path`` to the fleet it names.

    ``clock`` is monotonic seconds; ``rng`` draws the back-off's jitter; ``watch`` reads
    the door and the light board (:data:`Watch`). :meth:`start` runs it on a daemon thread,
    :meth:`stop` ends it (the will says ``offline`` only when the link is lost, so a clean
    stop publishes ``offline`` itself)."""

    window = 8
    """Batches sent and not yet acknowledged by the fleet."""
    batch_events = 100
    """Events per batch (at most :data:`fleet.wire.MAX_BATCH_EVENTS`)."""
    resend_after_s = 60.0
    heartbeat_s = 300.0
    poll_s = 1.0
    """How often the outbox is looked at for rows written by another process (one
    ``PRAGMA data_version``); a commit in this process wakes the link at once
    (:meth:`wake`)."""
    ack_grace_s = 0.5
    """After subscribing, how long to wait for the retained acknowledgement before sending
    (so a reconnection does not resend what the fleet already has)."""

    def __init__(
        self,
        path: Path,
        *,
        version: str,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        watch: Watch | None = None,
        synced: Callable[[], bool] = clock_synced,
        writable: Callable[[Path], bool] | None = None,
    ) -> None:
        super().__init__(path, version=version, clock=clock, rng=rng, writable=writable)
        self._watch = watch
        self._watched: dict[str, str] = {}
        self._next_watch_s = 0.0
        self._synced = synced
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._epoch = ""
        self._acked = 0
        self._sent_through = 0
        self._sent: list[_Sent] = []
        self._data_version = -1
        self._last_ack_s = 0.0
        self._next_heartbeat_s = 0.0
        self._started_s = clock()
        self._send_from_s: float | None = None
        self.batches_sent = 0
        """Batches published since the start (resends included)."""

    # -- the thread ----------------------------------------------------------------------

    def start(self) -> bool:
        """Start the thread, if the cabinet is in a fleet; ``False`` (and no thread, no
        connection) when it is not."""
        if not self.open():
            return False
        self._thread = threading.Thread(target=self._run, name="fleet-link", daemon=True)
        self._thread.start()
        return True

    def stop(self, timeout_s: float = 5.0) -> None:
        """Say ``offline``, disconnect and end the thread."""
        self._stop.set()
        self.wake()
        if self._thread is not None:
            self._thread.join(timeout_s)
            self._thread = None
        else:
            self.close()

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self.step()
        except Exception:  # the link must never take the cabinet down with it
            log.exception("the fleet link stopped")
        finally:
            self.close()

    # -- one step at a time (the tests drive these) --------------------------------------

    def open(self) -> bool:
        """Open the database and read the join; ``False`` when in no fleet."""
        db = LinkStore.open(self.path, committed=self._changed)
        if db is None:
            self._close_wake()
            return False
        self._db, self.join, self._epoch = db, db.join, db.epoch
        self._acked = self._sent_through = db.acked
        return True

    def step(self) -> None:
        """Connect if due, move the network, send what waits, beat the heart."""
        now = self._clock()
        if now >= self._next_watch_s:
            self._next_watch_s = now + 1.0
            self._check_database()
            if self._watch is not None and not self._faults:
                self._observe(self._watch())
        client = self._client
        if client is None or not self._connected:
            if now >= self._next_try_s:
                self._connect(now)
            if not self._connected:
                self._stop.wait(min(self.poll_s, max(0.0, self._next_try_s - self._clock())))
                return
            client = self._client
        assert client is not None
        code = self._network(client, self.poll_s)
        if code is not MQTTErrorCode.MQTT_ERR_SUCCESS and self._connected:
            self._lost(f"the connection dropped ({mqtt.error_string(code)})")
            return
        if self._connected:
            self._send(now)
            if now >= self._next_heartbeat_s:
                self._next_heartbeat_s = now + self.heartbeat_s
                self._heartbeat(now)

    # -- what the connection reads -------------------------------------------------------

    def _stopping(self) -> bool:
        return self._stop.is_set()

    def _woken(self) -> None:
        self._data_version = -1

    def _connected_now(self) -> None:
        self._sent_through, self._sent = self._acked, []
        self._last_ack_s = self._clock()
        self._data_version = -1
        self._send_from_s = None

    def _subscribe(self, client: mqtt.Client, join: Join) -> None:
        client.on_subscribe = self._on_subscribe
        client.subscribe(
            [(ack_topic(join.cabinet), 1), (DOWN_FILTER, 1), (release_topic(join.cabinet), 1)]
        )

    def _on_subscribe(
        self, client: mqtt.Client, userdata: object, mid: int, reasons: Any, properties: object
    ) -> None:
        # The retained acknowledgement, if any, follows the SUBACK.
        self._send_from_s = self._clock() + self.ack_grace_s

    def _on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        if down.is_down(message.topic):
            assert self._db is not None
            down.take(self._db, message.topic, bytes(message.payload))
            return
        try:
            ack = parse_ack(bytes(message.payload))
        except WireError as exc:
            log.warning("fleet link: an acknowledgement it cannot read: %s", exc)
            return
        if ack.epoch != self._epoch:
            return
        if self._send_from_s is not None:
            self._send_from_s = min(self._send_from_s, self._clock())
        if ack.through <= self._acked:
            return
        self._acked = ack.through
        self._last_ack_s = self._clock()
        self._sent = [s for s in self._sent if s.last > ack.through]
        self._sent_through = max(self._sent_through, ack.through)
        self._data_version = -1  # room in the window: look again
        assert self._db is not None
        self._db.forget_through(ack.through)

    # -- sending -------------------------------------------------------------------------

    def _send(self, now: float) -> None:
        db, client, join = self._db, self._client, self.join
        assert db is not None and client is not None and join is not None
        if self._send_from_s is None or now < self._send_from_s:
            return
        if self._sent and now - self._last_ack_s > self.resend_after_s:
            log.info(
                "fleet link: no acknowledgement for %.0f s; sending again", self.resend_after_s
            )
            self._sent_through, self._sent = self._acked, []
            self._last_ack_s = now
            self._data_version = -1
        if len(self._sent) >= self.window:
            return
        version = db.data_version()
        if version == self._data_version:
            return
        self._data_version = version
        while len(self._sent) < self.window:
            rows = db.pending(self._sent_through, min(self.batch_events, MAX_BATCH_EVENTS))
            if not rows:
                return
            payload = self._batch(join, rows)
            client.publish(batch_topic(join.cabinet), payload, qos=1)
            self._sent_through = rows[-1].seq if len(rows) else self._sent_through
            self._sent.append(_Sent(self._sent_through, now))
            self.batches_sent += 1

    def _batch(self, join: Join, rows: list[Row]) -> bytes:
        """The next batch from ``rows``, cut until it fits a message."""
        while True:
            events = tuple(Event(r.seq, r.kind, r.at, r.synced, r.body) for r in rows)
            batch = Batch(join.cabinet, self._epoch, self._sent_through + 1, rows[-1].seq, events)
            payload = batch.dumps()
            if len(payload) <= MAX_MESSAGE_BYTES // 2 or len(rows) == 1:
                return payload
            rows = rows[: len(rows) // 2]

    def _heartbeat(self, now: float) -> None:
        assert self._db is not None
        counters = self._db.lifetime(
            ("hardware.table_restarts", "power.rollbacks", "hardware.led_link_drops")
        )
        body: dict[str, Any] = {
            "version": self.version,
            "uptime_s": round(now - self._started_s),
            "table_restarts": counters["hardware.table_restarts"],
            "rollbacks": counters["power.rollbacks"],
            "led_link_drops": counters["hardware.led_link_drops"],
        }
        body.update(self._watched)
        self._queue(Kind.HEALTH, body)

    def _observe(self, seen: Mapping[str, str]) -> None:
        """Queue what changed since the last look (the first look sets the baseline)."""
        for name, state in seen.items():
            was = self._watched.get(name)
            self._watched[name] = state
            if was is None or was == state:
                continue
            if name == "door":
                self._queue(Kind.DOOR, {"state": state})
            elif name == "light_board" and "lost" in (was, state):
                fault = "raised" if state == "lost" else "cleared"
                self._queue(Kind.FAULT, {"fault": "light_board_lost", "state": fault})

    def _queue(self, kind: Kind, body: Mapping[str, Any]) -> None:
        assert self._db is not None
        self._db.queue(kind, body, self._synced())
        self._data_version = -1  # its own commit does not move data_version

    # -- the link's state, for fleet status ----------------------------------------------

    @property
    def acked(self) -> int:
        """The highest sequence number the fleet has acknowledged."""
        return self._acked
