"""The fleet's wire format, up: the topics a cabinet publishes on, the batches of its
outbox and its presence, and the checks each message passes before it is believed. What
every message shares (version, size, JSON, cabinet ids, the error that refuses one) is
:mod:`fleet.wire_common`; what the fleet sends down (the acknowledgement, the route's
champions, settings documents) is :mod:`fleet.wire_down`. Standard library only: the
cabinet's link and the fleet's ingest both use these modules (docs/fleet.md, "Topics and
payloads").

A cabinet sends its outbox in *batches*: each covers a run of sequence numbers
``first..last`` of one epoch, and carries the events of that run still in the outbox (a
sequence number with no event was compacted away on the cabinet, which counts what it
dropped). Each event is keyed ``(cabinet, epoch, seq)``, so a batch sent twice is stored
once. A message refused says why in words, and in a word (its
:class:`~fleet.wire_common.Refusal`).

>>> batch = Batch("bar-1", "00ff00ff00ff00ff", 1, 2,
...               (Event(1, "door", "2026-12-02T10:00:00Z", True, {"state": "open"}),
...                Event(2, "health", "2026-12-02T10:05:00Z", False, {"version": "0.1.0"})))
>>> parse_batch(batch_topic("bar-1"), batch.dumps()) == batch
True
>>> parse_batch(batch_topic("bar-2"), batch.dumps())
Traceback (most recent call last):
...
fleet.wire_common.WireError: addressed to bar-2's topic but says it is from bar-1
>>> try:
...     parse_batch(batch_topic("bar-2"), batch.dumps())
... except WireError as exc:
...     exc.refusal
<Refusal.WRONG_CABINET: 'wrong_cabinet'>
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from fleet.wire_common import (
    ROOT,
    WIRE_VERSION,
    Refusal,
    WireError,
    check_epoch,
    check_name,
    decode,
    encode,
    whole,
)

MAX_BATCH_EVENTS = 200
"""The most events a batch carries."""

EVENT_KINDS = frozenset(
    {
        "game",
        "money",
        "audits",
        "fame",
        "health",
        "fault",
        "door",
        "doctor",
        "settings",
        "fairness",
        "update",
    }
)
"""What an event may report (the cabinet's outbox kinds, :class:`cabinet.storage.outbox.Kind`:
a test holds the two to each other)."""

MAX_FAIRNESS_CASES = 64
"""The most offsets a fairness certificate carries (the jig's schedule has five)."""


class Presence(StrEnum):
    """A cabinet's retained presence: ``online`` when it connects, ``offline`` as its will."""

    ONLINE = "online"
    OFFLINE = "offline"


def batch_topic(cabinet: str) -> str:
    """Where cabinet ``cabinet`` publishes its batches (QoS 1)."""
    return f"{ROOT}/up/{check_name(cabinet)}/events"


def presence_topic(cabinet: str) -> str:
    """Where cabinet ``cabinet``'s retained presence (and its will) is."""
    return f"{ROOT}/up/{check_name(cabinet)}/presence"


UP_FILTER = f"{ROOT}/up/+/+"
"""What ingest subscribes to."""


def cabinet_of(topic: str) -> tuple[str, str]:
    """``(cabinet, leaf)`` of an up topic, else :class:`WireError`."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[1] != "up":
        raise WireError(f"not a fleet up topic: {topic[:80]!r}", Refusal.TOPIC)
    try:
        return check_name(parts[2]), parts[3]
    except WireError as exc:  # the topic's, not the message's
        raise WireError(str(exc), Refusal.TOPIC) from None


@dataclass(frozen=True, slots=True)
class Event:
    """One outbox row: its sequence number, kind, the cabinet's wall time when it was
    written (ISO 8601 UTC), whether that clock was synchronised then, and its body."""

    seq: int
    kind: str
    at: str
    synced: bool
    body: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "at": self.at,
            "synced": self.synced,
            "body": self.body,
        }


@dataclass(frozen=True, slots=True)
class Batch:
    """A run ``first..last`` of one cabinet's outbox, in one epoch."""

    cabinet: str
    epoch: str
    first: int
    last: int
    events: tuple[Event, ...]

    def dumps(self) -> bytes:
        return encode(
            {
                "v": WIRE_VERSION,
                "cabinet": self.cabinet,
                "epoch": self.epoch,
                "first": self.first,
                "last": self.last,
                "events": [event.to_json() for event in self.events],
            }
        )


SETTINGS_RESULTS = frozenset({"applied", "refused"})
"""What a cabinet reports of a settings document (a ``settings`` event)."""


PRESENCE_FAULTS = frozenset({"database_read_only"})
"""Faults a presence message may carry: ones the cabinet cannot queue in its outbox."""


def presence_payload(state: Presence, version: str, faults: tuple[str, ...] = ()) -> bytes:
    """A presence message (``faults`` only when there are some)."""
    value: dict[str, Any] = {"v": WIRE_VERSION, "state": state.value, "version": version}
    if faults:
        value["faults"] = sorted(faults)
    return encode(value)


def _event(value: object, first: int, last: int) -> Event:
    if not isinstance(value, dict) or set(value) != {"seq", "kind", "at", "synced", "body"}:
        raise WireError("an event is not {seq, kind, at, synced, body}")
    seq = whole(value["seq"], "an event's seq", 1)
    if not first <= seq <= last:
        raise WireError(f"event {seq} lies outside its batch {first}..{last}")
    kind, at, synced, body = value["kind"], value["at"], value["synced"], value["body"]
    if not isinstance(kind, str) or kind not in EVENT_KINDS:
        raise WireError(f"unknown event kind {str(kind)[:20]!r}")
    if not isinstance(at, str) or len(at) > 40:
        raise WireError("an event's time is not a short text")
    if not isinstance(synced, bool):
        raise WireError("an event's synced is not true or false")
    if not isinstance(body, dict):
        raise WireError("an event's body is not an object")
    check_body(kind, body)
    return Event(seq, kind, at, synced, body)


def _counts(value: object, what: str) -> None:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and type(v) is int and 0 <= v < 2**63 for k, v in value.items()
    ):
        raise WireError(f"{what} is not an object of whole numbers from 0")


def _texts(body: dict[str, Any], kind: str, keys: tuple[str, ...]) -> None:
    for key in keys:
        if not isinstance(body.get(key), str) or len(body[key]) > 200:
            raise WireError(f"a {kind} event's {key} is not a short text")


def check_body(kind: str, body: dict[str, Any]) -> None:
    """Raise :class:`WireError` unless ``body`` has what a ``kind`` event carries (what
    ingest reads of it; more is allowed, for later versions of the cabinet)."""
    if kind == "game":
        if type(body.get("game")) is not int or not isinstance(body.get("summary"), dict):
            raise WireError("a game event has no game id or summary")
        seats = body.get("seats")
        if (
            not isinstance(seats, list)
            or len(seats) != 2
            or not all(s in ("human", "cpu") for s in seats)
        ):
            raise WireError("a game event's seats are not two of human or cpu")
        digest = body.get("record_sha256")
        if not isinstance(digest, str) or re.fullmatch(r"[0-9a-f]{64}", digest) is None:
            raise WireError("a game event's record_sha256 is not a SHA-256")
    elif kind == "money":
        _counts(body.get("counts"), "a money event's counts")
        _counts(body.get("counted"), "a money event's counted")
    elif kind == "audits":
        counters = body.get("counters")
        if not isinstance(counters, dict) or not all(
            isinstance(pair, list) and len(pair) == 2 and all(type(n) is int for n in pair)
            for pair in counters.values()
        ):
            raise WireError("an audits event's counters are not [current, lifetime] pairs")
    elif kind == "fame":
        if "cleared" in body:
            _texts(body, kind, ("cleared",))
        else:
            _texts(body, kind, ("category", "initials", "date"))
            if type(body.get("entry")) is not int or type(body.get("figure")) is not int:
                raise WireError("a fame event's entry or figure is not a whole number")
    elif kind == "health":
        _texts(body, kind, ("version",))
    elif kind == "fault":
        _texts(body, kind, ("fault", "state"))
        if body["state"] not in ("raised", "cleared"):
            raise WireError("a fault event's state is neither raised nor cleared")
    elif kind == "doctor":
        findings = body.get("findings")
        if not isinstance(findings, list) or not all(
            isinstance(f, dict) and all(isinstance(f.get(k), str) for k in ("check", "severity"))
            for f in findings
        ):
            raise WireError("a doctor event's findings are not a list of {check, severity}")
    elif kind == "settings":
        _texts(body, kind, ("document", "result", "reason"))
        if type(body.get("version")) is not int or body["result"] not in SETTINGS_RESULTS:
            raise WireError("a settings event's version or result is not what it reports")
    elif kind == "fairness":
        _fairness(body)
    elif kind == "update":
        _texts(body, kind, ("release", "state", "reason"))
        if type(body.get("rollout")) is not int or body["state"] not in UPDATE_STATES:
            raise WireError("an update event's rollout or state is not what it reports")
    elif kind == "door" and body.get("state") not in ("open", "closed"):
        raise WireError("a door event's state is neither open nor closed")


UPDATE_STATES = (
    "offered",
    "downloading",
    "verified",
    "waiting",
    "installing",
    "installed",
    "rolled_back",
    "refused",
)
"""Where a cabinet is with a release it was offered (docs/releases.md), in order: an
``update`` event reports each step, with the reason for the last two."""

FAIRNESS_CASE_KEYS = ("offset_us", "pairs", "right", "missed", "late")
"""What the fleet reads of each offset of a fairness certificate."""


def _fairness(body: dict[str, Any]) -> None:
    """A fairness certificate (docs/fairness.md): who pressed, by which version, when, its
    verdict, its race window, and per offset whole counts."""
    _texts(body, "fairness", ("source", "version", "taken_at"))
    window = body.get("window_ms")
    if type(body.get("passed")) is not bool or type(window) not in (int, float):
        raise WireError("a fairness event's passed or window_ms is not what it reports")
    cases = body.get("cases")
    if (
        not isinstance(cases, list)
        or len(cases) > MAX_FAIRNESS_CASES
        or not all(
            isinstance(case, dict)
            and all(type(case.get(k)) is int and 0 <= case[k] < 2**63 for k in FAIRNESS_CASE_KEYS)
            for case in cases
        )
    ):
        raise WireError(f"a fairness event's cases are not up to {MAX_FAIRNESS_CASES} of counts")


def parse_batch(topic: str, payload: bytes) -> Batch:
    """The batch on ``topic``, checked: version, size, addressing (the topic's cabinet is
    the payload's), keys and every event's shape; else :class:`WireError`."""
    cabinet, leaf = cabinet_of(topic)
    if leaf != "events":
        raise WireError(f"not an events topic: {topic[:80]!r}", Refusal.TOPIC)
    value = decode(payload)
    if set(value) != {"v", "cabinet", "epoch", "first", "last", "events"}:
        raise WireError("a batch is not {v, cabinet, epoch, first, last, events}")
    sender = value["cabinet"]
    if sender != cabinet:
        raise WireError(
            f"addressed to {cabinet}'s topic but says it is from {str(sender)[:40]}",
            Refusal.WRONG_CABINET,
        )
    epoch = check_epoch(value["epoch"])
    first = whole(value["first"], "first", 1)
    last = whole(value["last"], "last", first)
    raw = value["events"]
    if not isinstance(raw, list) or len(raw) > MAX_BATCH_EVENTS:
        raise WireError(f"events is not a list of at most {MAX_BATCH_EVENTS}")
    events = tuple(_event(item, first, last) for item in raw)
    seqs = [event.seq for event in events]
    if seqs != sorted(set(seqs)):
        raise WireError("a batch's events are not in strictly rising order")
    return Batch(cabinet, epoch, first, last, events)


def parse_presence(topic: str, payload: bytes) -> tuple[str, Presence, str, tuple[str, ...]]:
    """``(cabinet, state, version, faults)`` of a presence message; else
    :class:`WireError`."""
    cabinet, leaf = cabinet_of(topic)
    if leaf != "presence":
        raise WireError(f"not a presence topic: {topic[:80]!r}", Refusal.TOPIC)
    value = decode(payload)
    if not {"v", "state", "version"} <= set(value) <= {"v", "state", "version", "faults"}:
        raise WireError("a presence is not {v, state, version[, faults]}")
    faults = value.get("faults", [])
    known = isinstance(faults, list) and all(
        isinstance(f, str) and f in PRESENCE_FAULTS for f in faults
    )
    if not known:
        raise WireError("a presence's faults are not a list of known faults")
    try:
        state = Presence(value["state"])
    except ValueError:
        raise WireError("presence state is neither online nor offline") from None
    version = value["version"]
    if not isinstance(version, str) or len(version) > 40:
        raise WireError("presence version is not a short text")
    return cabinet, state, version, tuple(faults)
