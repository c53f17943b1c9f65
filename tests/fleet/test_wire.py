"""The wire format alone: whatever arrives, the parsers answer with a value or a
WireError, never anything else; what a cabinet sends parses back to itself."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.fairness.certificate import CaseResult, Certificate, Source
from cabinet.storage.outbox import Kind
from fleet.wire import (
    EVENT_KINDS,
    MAX_FAIRNESS_CASES,
    Batch,
    Event,
    Presence,
    batch_topic,
    parse_batch,
    parse_presence,
    presence_payload,
    presence_topic,
)
from fleet.wire_common import MAX_MESSAGE_BYTES, Refusal, WireError
from fleet.wire_down import Ack, ack_topic, parse_ack, parse_settings_document
from tests.fleet.strategies import json_values

anything = st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode())


@given(anything, st.sampled_from([batch_topic("bar-1"), presence_topic("bar-1"), "spit/up/x"]))
def test_the_parsers_raise_nothing_but_wire_errors(payload: bytes, topic: str) -> None:
    for parse in (
        lambda: parse_batch(topic, payload),
        lambda: parse_ack(payload),
        lambda: parse_presence(topic, payload),
    ):
        with contextlib.suppress(WireError):
            parse()


events = st.lists(
    st.builds(
        lambda kind, synced: (kind, synced),
        st.sampled_from(["door", "health"]),
        st.booleans(),
    ),
    min_size=1,
    max_size=20,
)


@given(events, st.integers(1, 10**9), st.integers(0, 5))
def test_a_batch_parses_back_to_itself(kinds: list[tuple[str, bool]], first: int, gap: int) -> None:
    made = tuple(
        Event(
            first + gap + i,
            kind,
            "2026-12-02T10:00:00.000000Z",
            synced,
            {"state": "closed"} if kind == "door" else {"version": "0.1.0"},
        )
        for i, (kind, synced) in enumerate(kinds)
    )
    batch = Batch("bar-9", "fedcba9876543210", first, made[-1].seq, made)
    assert parse_batch(batch_topic("bar-9"), batch.dumps()) == batch


def test_acks_and_presence_parse_back() -> None:
    ack = Ack("fedcba9876543210", 42)
    assert parse_ack(ack.dumps()) == ack
    payload = presence_payload(Presence.OFFLINE, "1.2.3")
    assert parse_presence(presence_topic("bar-1"), payload) == (
        "bar-1",
        Presence.OFFLINE,
        "1.2.3",
        (),
    )
    faulty = presence_payload(Presence.ONLINE, "1.2.3", ("database_read_only",))
    assert parse_presence(presence_topic("bar-1"), faulty)[3] == ("database_read_only",)
    assert ack_topic("bar-1") == "spit/down/bar-1/ack"


def test_every_kind_a_cabinet_queues_is_one_the_fleet_takes() -> None:
    """A kind the wire did not know would have its whole batch refused, again and again:
    the cabinet's outbox would never empty."""
    assert {kind.value for kind in Kind} == EVENT_KINDS


CERTIFICATE = Certificate(
    Source.JIG,
    2.0,
    31,
    150,
    (CaseResult(50, 100, 97, 3), CaseResult(100, 100, 100, late=1)),
    "1.2.3",
    "2026-12-05T10:00:00+00:00",
).body()


def fairness_batch(body: dict[str, Any]) -> bytes:
    event = Event(7, "fairness", "2026-12-05T10:00:01Z", True, body)
    return Batch("bar-1", "fedcba9876543210", 7, 7, (event,)).dumps()


def test_a_fairness_certificate_parses_back_and_a_malformed_one_is_refused() -> None:
    (event,) = parse_batch(batch_topic("bar-1"), fairness_batch(CERTIFICATE)).events
    assert event.kind == "fairness" and event.body == CERTIFICATE
    case = CERTIFICATE["cases"][0]
    for bad in (
        {**CERTIFICATE, "passed": "yes"},
        {**CERTIFICATE, "window_ms": "2"},
        {**CERTIFICATE, "taken_at": None},
        {**CERTIFICATE, "cases": {"50": case}},
        {**CERTIFICATE, "cases": [{**case, "late": -1}]},
        {**CERTIFICATE, "cases": [{k: v for k, v in case.items() if k != "missed"}]},
        {**CERTIFICATE, "cases": [case] * (MAX_FAIRNESS_CASES + 1)},
    ):
        with pytest.raises(WireError, match="a fairness event's"):
            parse_batch(batch_topic("bar-1"), fairness_batch(bad))


DOOR = fairness_batch({"state": "open"}).replace(b'"fairness"', b'"door"')


@pytest.mark.parametrize(
    ("topic", "payload", "refusal"),
    [
        (batch_topic("bar-1"), b"x" * (MAX_MESSAGE_BYTES + 1), Refusal.OVERSIZED),
        (batch_topic("bar-1"), b"\xff\xfe", Refusal.NOT_JSON),
        (batch_topic("bar-1"), b"[1]", Refusal.NOT_JSON),
        (batch_topic("bar-1"), b'{"v": 2}', Refusal.WIRE_VERSION),
        (batch_topic("bar-1"), b'{"v": 1}', Refusal.MALFORMED),
        (batch_topic("bar-1"), DOOR.replace(b'"open"', b'"ajar"'), Refusal.MALFORMED),
        ("spit/up/Bar 1/events", DOOR, Refusal.TOPIC),
        ("spit/down/bar-1/events", DOOR, Refusal.TOPIC),
        (presence_topic("bar-1"), DOOR, Refusal.TOPIC),
        (batch_topic("bar-2"), DOOR, Refusal.WRONG_CABINET),
    ],
)
def test_a_refused_message_says_why_in_a_word(topic: str, payload: bytes, refusal: Refusal) -> None:
    """What the fleet counts refusals by (``refused_counts``): the kind, not the words."""
    assert parse_batch(batch_topic("bar-1"), DOOR).events[0].kind == "door"
    with pytest.raises(WireError) as refused:
        parse_batch(topic, payload)
    assert refused.value.refusal is refusal


def test_a_down_document_on_the_wrong_topic_is_refused_as_such() -> None:
    with pytest.raises(WireError) as refused:
        parse_settings_document("spit/down/all/settings/bar", b"{}")
    assert refused.value.refusal is Refusal.TOPIC
    with pytest.raises(WireError) as refused:
        parse_ack(b'{"v": 1, "epoch": "x", "through": 1}')
    assert refused.value.refusal is Refusal.MALFORMED
