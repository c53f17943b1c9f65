"""Bad messages from an authenticated cabinet, through the real broker, to the real
ingest: each gets one log line, a count and a row in ``refused``; ingest stays up and
nothing is stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from fleet.join_file import read_join
from fleet.wire import MAX_MESSAGE_BYTES, Batch, Event, WireError, batch_topic, parse_batch
from tests.fleet.conftest import Route
from tests.fleet.services import wait_for
from tests.fleet.strategies import json_values

TOPIC = batch_topic("bar-1")
GOOD = Batch(
    "bar-1",
    "0123456789abcdef",
    1,
    1,
    (Event(1, "door", "2026-12-02T10:00:00Z", True, {"state": "open"}),),
)


def _mutated(field: str, value: Any) -> bytes:
    data = json.loads(GOOD.dumps())
    if field.startswith("event."):
        data["events"][0][field.removeprefix("event.")] = value
    else:
        data[field] = value
    return json.dumps(data).encode()


payloads = (
    st.binary(max_size=300)
    | json_values.map(lambda v: json.dumps(v).encode())
    | st.builds(
        _mutated,
        st.sampled_from(
            [
                "v",
                "cabinet",
                "epoch",
                "first",
                "events",
                "event.seq",
                "event.kind",
                "event.body",
                "event.synced",
                "event.at",
            ]
        ),
        json_values,
    )
)


class Publisher:
    def __init__(self, route: Route) -> None:
        join = read_join(route.add_cabinet("bar-1"))
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id="bar-1", protocol=MQTTProtocolVersion.MQTTv5
        )
        self.client.username_pw_set("bar-1", join.password)
        self.client.tls_set_context(join.tls_context())
        self.client.connect("localhost", route.port)
        self.client.loop_start()

    def send(self, payload: bytes) -> None:
        self.client.publish(TOPIC, payload, qos=1).wait_for_publish(10)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture
def publisher(route: Route) -> Iterator[Publisher]:
    route.broker.start()
    route.ingest.start()
    publisher = Publisher(route)
    yield publisher
    publisher.close()


def _refused(route: Route) -> int:
    with route.db() as conn:
        row = conn.execute("SELECT count(*) FROM refused").fetchone()
    assert row is not None
    return int(row[0])


def _log_lines(route: Route) -> int:
    return route.ingest.log.read_text().count("refused a message")


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(payload=payloads)
@example(payload=b"x" * (MAX_MESSAGE_BYTES + 1))  # oversized
@example(payload=_mutated("v", 2))  # a later wire version
@example(payload=_mutated("v", 0))
def test_each_bad_message_is_refused_once_and_nothing_is_stored(
    route: Route, publisher: Publisher, payload: bytes
) -> None:
    try:
        parse_batch(TOPIC, payload)
    except WireError:
        pass
    else:
        assume(False)  # a valid batch, by chance: not this test's business
    before, lines = _refused(route), _log_lines(route)
    publisher.send(payload)
    wait_for("the refusal", lambda: _refused(route) == before + 1)
    wait_for("its log line", lambda: _log_lines(route) == lines + 1)
    assert route.stored("bar-1") == 0
    assert route.ingest.process is not None and route.ingest.process.poll() is None


def test_after_the_bad_ones_a_good_one_is_stored(route: Route, publisher: Publisher) -> None:
    publisher.send(b"not json")
    publisher.send(GOOD.dumps())
    wait_for("the good one", lambda: route.stored("bar-1") == 1)
    assert _refused(route) == 1
