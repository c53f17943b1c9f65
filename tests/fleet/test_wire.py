"""The wire format alone: whatever arrives, the parsers answer with a value or a
WireError, never anything else; what a cabinet sends parses back to itself."""

from __future__ import annotations

import contextlib
import json

from hypothesis import given
from hypothesis import strategies as st

from fleet.wire import (
    Ack,
    Batch,
    Event,
    Presence,
    WireError,
    ack_topic,
    batch_topic,
    parse_ack,
    parse_batch,
    parse_presence,
    presence_payload,
    presence_topic,
)
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
