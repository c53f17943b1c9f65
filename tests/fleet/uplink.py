"""A cabinet's raw link up, for the tests: an MQTT v5 client with a cabinet's credentials
(from its join file) that publishes whatever bytes a test gives it on the cabinet's own
events topic, as a cabinet with a broken or hostile program might."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from fleet.join_file import read_join
from fleet.wire import batch_topic


class Uplink:
    """Connected on entering (or :meth:`open`); :meth:`send` waits for the broker's
    PUBACK."""

    def __init__(self, join_file: Path, port: int) -> None:
        join = read_join(join_file)
        self.cabinet = join.cabinet
        self.topic = batch_topic(join.cabinet)
        self.port = port
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=join.cabinet, protocol=MQTTProtocolVersion.MQTTv5
        )
        self.client.username_pw_set(join.cabinet, join.password)
        self.client.tls_set_context(join.tls_context())

    def open(self) -> Uplink:
        self.client.connect("localhost", self.port)
        self.client.loop_start()
        return self

    def send(self, payload: bytes) -> None:
        """``payload`` on the cabinet's events topic, QoS 1."""
        self.client.publish(self.topic, payload, qos=1).wait_for_publish(10)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

    def __enter__(self) -> Uplink:
        return self.open()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
