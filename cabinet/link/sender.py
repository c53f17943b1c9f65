"""The sender: the cabinet's outbox to its fleet over MQTT v5 (paho-mqtt), on a thread of
the display process. No game, coin or frame waits on it: the outbox is written by the
store's own transactions, and this thread only reads it, sends it and deletes what the
fleet has acknowledged (docs/fleet.md, "What is guaranteed").

- One persistent session: ``clean_start`` false, the cabinet's id as client id, a session
  expiry of a week, QoS 1.
- Batches (:class:`fleet.wire.Batch`) of the outbox in order, at most :attr:`Sender.window`
  not yet acknowledged by the fleet; after a reconnection, or when the fleet has said
  nothing for :attr:`Sender.resend_after_s` while batches wait, everything not
  acknowledged is sent again (the fleet stores each event once, on its key).
- A row is deleted only when the fleet's acknowledgement covers it: the retained message
  on the cabinet's down topic, which ingest publishes after its database commit. The
  broker's PUBACK is not enough (a broker killed outright loses what it held).
- A retained ``online`` presence on connecting, a retained ``offline`` last will.
- On failure it backs off, doubling from :attr:`Sender.backoff_min_s` to
  :attr:`Sender.backoff_max_s`, with jitter from its seeded random.
- A heartbeat (a health event) every :attr:`Sender.heartbeat_s`.

The thread opens only outbound connections, and none at all while the cabinet is in no
fleet.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import logging
import os
import random
import select
import socket
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from cabinet.link import status as link_status
from cabinet.link.link_store import LinkStore
from cabinet.storage.database import utc_now
from cabinet.storage.outbox import Kind, Row, clock_synced
from fleet.join_file import Join
from fleet.wire import (
    MAX_BATCH_EVENTS,
    MAX_MESSAGE_BYTES,
    Batch,
    Event,
    Presence,
    WireError,
    ack_topic,
    batch_topic,
    parse_ack,
    presence_payload,
    presence_topic,
)

log = logging.getLogger("cabinet.link")

SESSION_EXPIRY_S = 7 * 24 * 3600
"""How long the broker keeps the cabinet's session while it is away."""


def database_writable(path: Path) -> bool:
    """Whether the database's file system takes writes (an SD card with errors is
    remounted read-only by the kernel)."""
    try:
        return not os.statvfs(path.parent).f_flag & os.ST_RDONLY and os.access(path, os.W_OK)
    except OSError:
        return False


def cabinet_version() -> str:
    """The installed cabinet's version (``unknown`` when run from a source tree)."""
    try:
        return importlib.metadata.version("spit-cabinet")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


Watch = Callable[[], Mapping[str, str]]
"""The display's parts the link watches, read from its thread: ``door`` (``open`` or
``closed``) and ``light_board`` (``connected``, ``lost`` or ``none``). A change is
queued (a ``door`` event; the light board lost or back, a ``fault``), and the heartbeat
carries the current states."""


@dataclass(slots=True)
class _Sent:
    last: int
    at_s: float


class Sender:
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
    backoff_min_s = 1.0
    backoff_max_s = 120.0
    keepalive_s = 60
    heartbeat_s = 300.0
    poll_s = 1.0
    """How often the outbox is looked at for rows written by another process (one
    ``PRAGMA data_version``); a commit in this process wakes the link at once
    (:meth:`wake`)."""
    connack_timeout_s = 10.0
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
        self.path = path
        self.version = version
        self._clock = clock
        self._rng = rng or random.Random()
        self._watch = watch
        self._writable = writable or database_writable
        self._faults: tuple[str, ...] = ()
        self._watched: dict[str, str] = {}
        self._next_watch_s = 0.0
        self._synced = synced
        self._stop = threading.Event()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._thread: threading.Thread | None = None
        self._db: LinkStore | None = None
        self._client: mqtt.Client | None = None
        self.join: Join | None = None
        self._epoch = ""
        self._connected = False
        self._acked = 0
        self._sent_through = 0
        self._sent: list[_Sent] = []
        self._data_version = -1
        self._last_ack_s = 0.0
        self._next_try_s = 0.0
        self._backoff_s = self.backoff_min_s
        self._next_heartbeat_s = 0.0
        self._started_s = clock()
        self._error = ""
        self._refused = ""
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

    def wake(self) -> None:
        """Look at the outbox now (any thread may call it: the store calls it after each
        commit, :attr:`cabinet.storage.database.Database.committed`)."""
        with contextlib.suppress(BlockingIOError, OSError):
            self._wake_w.send(b"\0")

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
        db = LinkStore.open(self.path)
        if db is None:
            self._wake_r.close()
            self._wake_w.close()
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

    def _network(self, client: mqtt.Client, timeout: float) -> MQTTErrorCode:
        """paho's loop, with the link's own wake-up among what it waits for."""
        sock = client.socket()
        if sock is None:
            return MQTTErrorCode.MQTT_ERR_NO_CONN
        pending = sock.pending() if isinstance(sock, ssl.SSLSocket) else 0
        writing = [sock] if client.want_write() else []
        try:
            readable, _, _ = select.select(
                [sock, self._wake_r], writing, [], 0 if pending else timeout
            )
        except (OSError, ValueError):
            return MQTTErrorCode.MQTT_ERR_CONN_LOST
        if self._wake_r in readable:
            with contextlib.suppress(BlockingIOError, OSError):
                self._wake_r.recv(4096)
            self._data_version = -1
        if sock in readable or pending:
            code = client.loop_read()
            if code is not MQTTErrorCode.MQTT_ERR_SUCCESS:
                return code
        if client.want_write():
            code = client.loop_write()
            if code is not MQTTErrorCode.MQTT_ERR_SUCCESS:
                return code
        return client.loop_misc()

    def close(self) -> None:
        """Say ``offline`` (when connected), disconnect, close the database."""
        client, self._client = self._client, None
        if client is not None:
            if self._connected and self.join is not None:
                info = self._publish_presence(Presence.OFFLINE, client)
                deadline = self._clock() + 2.0
                while not info.is_published() and self._clock() < deadline:
                    if client.loop(timeout=0.05) is not MQTTErrorCode.MQTT_ERR_SUCCESS:
                        break
                client.disconnect()
            if client.socket() is not None:
                with contextlib.suppress(OSError):
                    client.loop(timeout=0)
        if self._connected:
            self._set_connected(False)
        if self._db is not None:
            self._db.close()
            self._db = None
        self._wake_r.close()
        self._wake_w.close()

    # -- connecting ----------------------------------------------------------------------

    def _new_client(self, join: Join) -> mqtt.Client:
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=join.cabinet,
            protocol=MQTTProtocolVersion.MQTTv5,
        )
        client.username_pw_set(join.cabinet, join.password)
        client.tls_set_context(join.tls_context())
        client.will_set(
            presence_topic(join.cabinet),
            presence_payload(Presence.OFFLINE, self.version),
            qos=1,
            retain=True,
        )
        client.connect_timeout = 10.0
        client.enable_logger(logging.getLogger("cabinet.link.mqtt"))
        client.on_connect = self._on_connect
        client.on_message = self._on_message
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        return client

    def _connect(self, now: float) -> None:
        join = self.join
        assert join is not None
        self._drop_client()  # every attempt on a client (and a socket) of its own
        client = self._client = self._new_client(join)
        properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        properties.SessionExpiryInterval = SESSION_EXPIRY_S
        try:
            client.connect(
                join.host,
                join.port,
                keepalive=self.keepalive_s,
                clean_start=False,
                properties=properties,
            )
        except (OSError, ValueError) as exc:
            self._failed(now, f"cannot reach {join.host}:{join.port}: {exc}")
            return
        # The CONNACK comes in the loop; wait for it here, a little at a time, counting from
        # when the connection (and TLS) is up.
        deadline = self._clock() + self.connack_timeout_s
        self._refused = ""
        while not self._connected and not self._stop.is_set():
            code = client.loop(timeout=0.05)
            if self._connected:
                return
            if self._refused:
                self._failed(self._clock(), self._refused)
                return
            if code is not MQTTErrorCode.MQTT_ERR_SUCCESS:
                why = (
                    f"the connection closed before the broker answered ({mqtt.error_string(code)})"
                )
                self._failed(self._clock(), why)
                return
            if self._clock() > deadline:
                self._failed(self._clock(), f"no answer from {join.host}:{join.port}")
                return

    def _drop_client(self) -> None:
        """Let the client go, its socket closed for good (a socket left open would hold the
        cabinet's session on the broker)."""
        client, self._client = self._client, None
        if client is None:
            return
        with contextlib.suppress(OSError):
            client.disconnect()
            if client.socket() is not None:
                client.loop(timeout=0)
        sock = client.socket()
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()

    def _failed(self, now: float, why: str) -> None:
        if why != self._error:
            log.warning("fleet link: %s", why)
        self._error = why
        self._write({link_status.ERROR: why})
        self._drop_client()
        jitter = self._rng.uniform(0.5, 1.0)
        self._next_try_s = now + self._backoff_s * jitter
        self._backoff_s = min(self.backoff_max_s, self._backoff_s * 2)

    def _lost(self, why: str) -> None:
        self._set_connected(False)
        self._failed(self._clock(), why)

    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: object,
        reason: Any,
        properties: object,
    ) -> None:
        join = self.join
        assert join is not None
        if reason.is_failure:
            self._refused = f"the broker refused the cabinet ({reason})"
            return
        sock = client.socket()
        if isinstance(sock, (socket.socket, ssl.SSLSocket)):
            # Small messages, one at a time: Nagle would hold each for the last one's ACK.
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._set_connected(True)
        self._error = ""
        self._write({link_status.ERROR: ""})
        self._backoff_s = self.backoff_min_s
        self._sent_through, self._sent = self._acked, []
        self._last_ack_s = self._clock()
        self._data_version = -1
        self._send_from_s = None
        client.on_subscribe = self._on_subscribe
        client.subscribe(ack_topic(join.cabinet), qos=1)
        self._publish_presence(Presence.ONLINE, client)
        log.info("fleet link: connected to %s:%d", join.host, join.port)

    def _on_subscribe(
        self, client: mqtt.Client, userdata: object, mid: int, reasons: Any, properties: object
    ) -> None:
        # The retained acknowledgement, if any, follows the SUBACK.
        self._send_from_s = self._clock() + self.ack_grace_s

    def _on_disconnect(
        self, client: mqtt.Client, userdata: object, flags: object, reason: Any, properties: object
    ) -> None:
        if self._connected:
            self._error = f"disconnected ({reason})"
            self._set_connected(False)
            self._next_try_s = self._clock() + self._backoff_s * self._rng.uniform(0.5, 1.0)

    def _on_publish(
        self, client: mqtt.Client, userdata: object, mid: int, reason: Any, properties: object
    ) -> None:
        if reason is not None and getattr(reason, "is_failure", False):
            # Refused by the broker (its ACL): never acknowledged, so it stays queued.
            self._error = f"the broker refused a message ({reason})"
            self._write({link_status.ERROR: self._error})

    def _on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
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

    def _check_database(self) -> None:
        """A database that has gone read-only takes no event, so the link says it in its
        presence (retained), the one thing it can still send."""
        faults = () if self._writable(self.path) else ("database_read_only",)
        if faults == self._faults:
            return
        self._faults = faults
        if faults:
            log.error("fleet link: the cabinet's database is read-only")
        if self._connected:
            self._publish_presence(Presence.ONLINE)

    def _publish_presence(
        self, state: Presence, client: mqtt.Client | None = None
    ) -> mqtt.MQTTMessageInfo:
        client, join = client or self._client, self.join
        assert client is not None and join is not None
        payload = presence_payload(state, self.version, self._faults)
        return client.publish(presence_topic(join.cabinet), payload, qos=1, retain=True)

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
    def connected(self) -> bool:
        return self._connected

    @property
    def acked(self) -> int:
        """The highest sequence number the fleet has acknowledged."""
        return self._acked

    def _set_connected(self, connected: bool) -> None:
        self._connected = connected
        self._write(
            {
                link_status.CONNECTED: "yes" if connected else "no",
                link_status.SINCE: utc_now().strftime("%Y-%m-%dT%H:%M:%SZ"),
            }
        )

    def _write(self, values: dict[str, str]) -> None:
        if self._db is not None:
            self._db.note(values)
