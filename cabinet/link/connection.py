"""The link's MQTT v5 connection (paho-mqtt): one persistent session to the fleet's broker,
its presence, its back-off, and the wake-up the link's loop waits on beside the socket.
The outbox window that rides on it is :mod:`cabinet.link.sender`'s.

- One persistent session: ``clean_start`` false, the cabinet's id as client id, a session
  expiry of a week, QoS 1; every attempt on a client (and a socket) of its own.
- A retained ``online`` presence on connecting, a retained ``offline`` last will.
- On failure it backs off, doubling from :attr:`Connection.backoff_min_s` to
  :attr:`Connection.backoff_max_s`, with jitter from its seeded random.
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from cabinet.link import status as link_status
from cabinet.link.link_store import LinkStore
from cabinet.storage.database import utc_now
from fleet.join_file import Join
from fleet.wire import Presence, presence_payload, presence_topic

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


class Connection:
    """The connection half of the link to the fleet the database at ``path`` names.

    ``clock`` is monotonic seconds; ``rng`` draws the back-off's jitter; ``writable``
    says whether the database takes writes. A subclass says what to subscribe to
    (:meth:`_subscribe`), what to do with a message (:meth:`_on_message`) and what a new
    connection resets (:meth:`_connected_now`)."""

    backoff_min_s = 1.0
    backoff_max_s = 120.0
    keepalive_s = 60
    connack_timeout_s = 10.0

    def __init__(
        self,
        path: Path,
        *,
        version: str,
        clock: Callable[[], float],
        rng: random.Random | None,
        writable: Callable[[Path], bool] | None,
    ) -> None:
        self.path = path
        self.version = version
        self._clock = clock
        self._rng = rng or random.Random()
        self._writable = writable or database_writable
        self._faults: tuple[str, ...] = ()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._db: LinkStore | None = None
        self._client: mqtt.Client | None = None
        self.join: Join | None = None
        self._connected = False
        self._next_try_s = 0.0
        self._backoff_s = self.backoff_min_s
        self._error = ""
        self._refused = ""
        self.changed: list[Callable[[], None]] = []
        """Called, on the thread that runs the link, after each change it makes: each
        commit to the cabinet's database (a batch acknowledged, a document or an offer
        kept, an event queued, its state noted) and each time it connects or loses the
        connection. Whoever watches the link (the tests) waits on these rather than
        looking again and again."""

    # -- what a subclass says ------------------------------------------------------------

    def _subscribe(self, client: mqtt.Client, join: Join) -> None:
        """Subscribe to what the link reads (called on each connection)."""

    def _connected_now(self) -> None:
        """A connection is up: reset what a new connection resets."""

    def _on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        """A message from the broker."""

    def _woken(self) -> None:
        """The wake-up was rung (something was committed)."""

    # -- the network ---------------------------------------------------------------------

    def wake(self) -> None:
        """Look at the outbox now (any thread may call it: the store calls it after each
        commit, :attr:`cabinet.storage.database.Database.committed`)."""
        with contextlib.suppress(BlockingIOError, OSError):
            self._wake_w.send(b"\0")

    def _close_wake(self) -> None:
        self._wake_r.close()
        self._wake_w.close()

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
            self._woken()
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
        self._close_wake()

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
        while not self._connected and not self._stopping():
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

    def _stopping(self) -> bool:
        """Whether the link is being stopped (a subclass with a thread says)."""
        return False

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
        self._connected_now()
        self._subscribe(client, join)
        self._publish_presence(Presence.ONLINE, client)
        log.info("fleet link: connected to %s:%d", join.host, join.port)

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

    # -- presence ------------------------------------------------------------------------

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

    # -- the link's state, for fleet status ----------------------------------------------

    @property
    def connected(self) -> bool:
        return self._connected

    def _set_connected(self, connected: bool) -> None:
        self._connected = connected
        self._write(
            {
                link_status.CONNECTED: "yes" if connected else "no",
                link_status.SINCE: utc_now().strftime("%Y-%m-%dT%H:%M:%SZ"),
            }
        )
        self._changed()  # said even when the note could not be written

    def _changed(self) -> None:
        for call in self.changed:
            call()

    def _write(self, values: dict[str, str]) -> None:
        if self._db is not None:
            self._db.note(values)
