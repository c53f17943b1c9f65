"""A cabinet's view of the fleet's down topics, for the tests: an MQTT v5 client with a
cabinet's credentials (from its join file), subscribed to what a cabinet subscribes to,
keeping the last payload retained or sent on each topic, each one a change."""

from __future__ import annotations

import threading
from pathlib import Path
from types import TracebackType
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from fleet.join_file import read_join
from fleet.wire_down import DOWN_FILTER
from tests.fleet.waiting import Changes, wait_for


class Downlink:
    """Connected and subscribed on entering; ``payloads`` by topic, each one (and the
    subscription) said on :attr:`changes`."""

    def __init__(self, join_file: Path, port: int) -> None:
        join = read_join(join_file)
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"{join.cabinet}",
            protocol=MQTTProtocolVersion.MQTTv5,
        )
        self.client.username_pw_set(join.cabinet, join.password)
        self.client.tls_set_context(join.tls_context())
        self.port = port
        self.payloads: dict[str, bytes] = {}
        self._lock = threading.Lock()
        self.changes = Changes()
        self._subscribed = False
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message

    def _on_connect(self, client: mqtt.Client, *args: Any) -> None:
        client.subscribe(DOWN_FILTER, qos=1)

    def _on_subscribe(self, *args: Any) -> None:
        self._subscribed = True
        self.changes.note()

    def _on_message(self, client: mqtt.Client, userdata: object, message: Any) -> None:
        with self._lock:
            self.payloads[message.topic] = bytes(message.payload)
        self.changes.note()

    def get(self, topic: str) -> bytes | None:
        with self._lock:
            return self.payloads.get(topic)

    def __enter__(self) -> Downlink:
        self.client.connect("localhost", self.port)
        self.client.loop_start()
        wait_for("the subscription", lambda: self._subscribed, self.changes, timeout_s=10)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.client.disconnect()
        self.client.loop_stop()
