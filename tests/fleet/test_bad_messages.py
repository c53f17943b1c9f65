"""Bad messages from an authenticated cabinet, through the real broker, to the real
ingest: each gets one log line, a row in ``refused`` and a count in ``refused_counts``
(by cabinet and refusal); ingest stays up and nothing is stored."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from fleet.wire import Batch, Event, batch_topic, parse_batch
from fleet.wire_common import MAX_MESSAGE_BYTES, WireError
from tests.fleet.conftest import Route
from tests.fleet.strategies import json_values
from tests.fleet.uplink import Uplink
from tests.fleet.waiting import wait_for

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


@pytest.fixture
def publisher(route: Route) -> Iterator[Uplink]:
    route.broker.start()
    route.ingest.start()
    with Uplink(route.add_cabinet("bar-1"), route.port) as uplink:
        yield uplink


def _refused(route: Route) -> int:
    with route.db() as conn:  # one statement: one snapshot of both tables
        row = conn.execute(
            "SELECT (SELECT count(*) FROM refused), "
            "(SELECT coalesce(sum(count), 0) FROM refused_counts)"
        ).fetchone()
    assert row is not None
    assert int(row[1]) == int(row[0]), "each refused message counted once"
    return int(row[0])


def _counts(route: Route) -> dict[tuple[str, str], tuple[int, str]]:
    with route.db() as conn:
        rows = conn.execute(
            "SELECT cabinet, refusal, count, last_reason FROM refused_counts"
        ).fetchall()
    return {(cabinet, refusal): (count, reason) for cabinet, refusal, count, reason in rows}


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
    route: Route, publisher: Uplink, payload: bytes
) -> None:
    try:
        parse_batch(TOPIC, payload)
    except WireError:
        pass
    else:
        assume(False)  # a valid batch, by chance: not this test's business
    before, lines = _refused(route), _log_lines(route)
    publisher.send(payload)
    wait_for("the refusal", lambda: _refused(route) == before + 1, route.ingested)
    assert route.ingest.output is not None
    wait_for("its log line", lambda: _log_lines(route) == lines + 1, route.ingest.output.changes)
    assert route.stored("bar-1") == 0
    assert route.ingest.process is not None and route.ingest.process.poll() is None


def test_after_the_bad_ones_a_good_one_is_stored(route: Route, publisher: Uplink) -> None:
    publisher.send(b"not json")
    publisher.send(GOOD.dumps())
    wait_for("the good one", lambda: route.stored("bar-1") == 1, route.ingested)
    assert _refused(route) == 1


def test_refused_messages_are_counted_by_cabinet_and_refusal(
    route: Route, publisher: Uplink
) -> None:
    """Each kind of refusal in a word, counted for the cabinet whose topic it came on,
    with the last one's reason in full."""
    claim = dataclasses.replace(GOOD, cabinet="bar-2")
    for payload in (
        b"not json",
        b"[1, 2]",
        b"x" * (MAX_MESSAGE_BYTES + 1),
        _mutated("v", 2),
        _mutated("event.kind", "jackpot"),
        _mutated("event.seq", 9),
        claim.dumps(),
    ):
        publisher.send(payload)
    wait_for("seven refusals", lambda: _refused(route) == 7, route.ingested)
    assert _counts(route) == {
        ("bar-1", "not_json"): (2, "not a JSON object"),
        ("bar-1", "oversized"): (1, f"oversized: {MAX_MESSAGE_BYTES + 1} bytes (at most 262144)"),
        ("bar-1", "wire_version"): (1, "wire version '2' (this fleet reads 1)"),
        ("bar-1", "malformed"): (2, "event 9 lies outside its batch 1..1"),
        ("bar-1", "wrong_cabinet"): (1, "addressed to bar-1's topic but says it is from bar-2"),
    }
    publisher.send(GOOD.dumps())
    wait_for("the good one", lambda: route.stored("bar-1") == 1, route.ingested)
    assert _refused(route) == 7
