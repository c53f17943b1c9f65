"""The fleet's wire format: topics, the messages a cabinet sends up and the fleet sends
down, and the checks every message passes before it is believed. Standard library only:
the cabinet's link and the fleet's ingest both use this module (docs/fleet.md, "Topics
and payloads").

A cabinet sends its outbox in *batches*: each covers a run of sequence numbers
``first..last`` of one epoch, and carries the events of that run still in the outbox (a
sequence number with no event was compacted away on the cabinet, which counts what it
dropped). Each event is keyed ``(cabinet, epoch, seq)``, so a batch sent twice is stored
once.

>>> batch = Batch("bar-1", "00ff00ff00ff00ff", 1, 2,
...               (Event(1, "door", "2026-12-02T10:00:00Z", True, {"state": "open"}),
...                Event(2, "health", "2026-12-02T10:05:00Z", False, {"version": "0.1.0"})))
>>> parse_batch(batch_topic("bar-1"), batch.dumps()) == batch
True
>>> parse_batch(batch_topic("bar-2"), batch.dumps())
Traceback (most recent call last):
...
fleet.wire.WireError: addressed to bar-2's topic but says it is from bar-1
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

WIRE_VERSION = 1
"""The version of the messages below: a message of another version is refused."""

MAX_MESSAGE_BYTES = 256 * 1024
"""The largest message either side accepts (a batch is cut to fit well below it)."""

MAX_BATCH_EVENTS = 200
"""The most events a batch carries."""

ROOT = "spit"
"""Every topic of the fleet is under this one."""

NAME_PATTERN = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?")
"""A cabinet's id: lower-case letters, digits and inner hyphens, 1 to 40 characters (it is
a topic level, a broker user name and a client id, so nothing else is allowed)."""

EPOCH_PATTERN = re.compile(r"[0-9a-f]{16}")
"""An epoch: 16 hexadecimal digits, drawn at random when a cabinet's database is made."""

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
    }
)
"""What an event may report (the cabinet's outbox kinds, :class:`cabinet.storage.outbox.Kind`:
a test holds the two to each other)."""

MAX_FAIRNESS_CASES = 64
"""The most offsets a fairness certificate carries (the jig's schedule has five)."""


class WireError(ValueError):
    """A message that is not what the wire format says (refused, logged and counted)."""


class Presence(StrEnum):
    """A cabinet's retained presence: ``online`` when it connects, ``offline`` as its will."""

    ONLINE = "online"
    OFFLINE = "offline"


def check_name(name: str) -> str:
    """``name`` if it is a valid cabinet id, else :class:`WireError`."""
    if not isinstance(name, str) or NAME_PATTERN.fullmatch(name) is None:
        raise WireError(
            f"{str(name)[:50]!r} is not a cabinet id (lower-case letters, digits and inner "
            "hyphens, at most 40)"
        )
    return name


def batch_topic(cabinet: str) -> str:
    """Where cabinet ``cabinet`` publishes its batches (QoS 1)."""
    return f"{ROOT}/up/{check_name(cabinet)}/events"


def presence_topic(cabinet: str) -> str:
    """Where cabinet ``cabinet``'s retained presence (and its will) is."""
    return f"{ROOT}/up/{check_name(cabinet)}/presence"


def ack_topic(cabinet: str) -> str:
    """Where the fleet publishes, retained, what it has stored of ``cabinet``."""
    return f"{ROOT}/down/{check_name(cabinet)}/ack"


FLEET_DOWN = f"{ROOT}/down/all"
"""The fleet-wide down topics' prefix: every cabinet may read under it."""

UP_FILTER = f"{ROOT}/up/+/+"
"""What ingest subscribes to."""

DOWN_FILTER = f"{FLEET_DOWN}/#"
"""What a cabinet subscribes to besides its own acknowledgement: the fleet-wide
documents, each retained on its own topic."""

CHAMPIONS_TOPIC = f"{FLEET_DOWN}/champions"
"""Where the fleet publishes the route's champions (:class:`Champions`), retained."""

SETTINGS_PREFIX = f"{FLEET_DOWN}/settings"
"""Each settings document (:class:`SettingsDocument`) is retained on
``SETTINGS_PREFIX/<document id>``."""

DOCUMENT_PATTERN = re.compile(r"route|location-[1-9][0-9]{0,17}")
"""A settings document's id: ``route`` (the whole route) or ``location-<n>`` (one
location's, ``n`` its row in the fleet's database)."""


def settings_topic(document: str) -> str:
    """Where settings document ``document`` is retained."""
    if DOCUMENT_PATTERN.fullmatch(document) is None:
        raise WireError(f"{document[:40]!r} is not a settings document id")
    return f"{SETTINGS_PREFIX}/{document}"


def cabinet_of(topic: str) -> tuple[str, str]:
    """``(cabinet, leaf)`` of an up topic, else :class:`WireError`."""
    parts = topic.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[1] != "up":
        raise WireError(f"not a fleet up topic: {topic[:80]!r}")
    return check_name(parts[2]), parts[3]


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
        return _dumps(
            {
                "v": WIRE_VERSION,
                "cabinet": self.cabinet,
                "epoch": self.epoch,
                "first": self.first,
                "last": self.last,
                "events": [event.to_json() for event in self.events],
            }
        )


@dataclass(frozen=True, slots=True)
class Ack:
    """The fleet has stored every sequence number of ``epoch`` up to ``through``."""

    epoch: str
    through: int

    def dumps(self) -> bytes:
        return _dumps({"v": WIRE_VERSION, "epoch": self.epoch, "through": self.through})


CHAMPION_CATEGORIES: dict[str, bool] = {
    "fastest_win_cpu_1": True,
    "fastest_win_cpu_2": True,
    "fastest_win_cpu_3": True,
    "fastest_win_cpu_4": True,
    "fastest_win_cpu_5": True,
    "fastest_two_player_win": True,
    "longest_streak": False,
    "closest_race_won": True,
    "most_plays": False,
}
"""The hall of fame's categories, each with whether the smaller figure is the better
(times and margins) or the larger (streaks, plays): the fleet works out each category's
champion across the route with it (a test holds it to the cabinet's own categories)."""

MAX_DOCUMENT_CHARS = 16 * 1024
"""The longest settings document (TOML, as ``settings export`` writes) sent down."""


@dataclass(frozen=True, slots=True)
class Champion:
    """The route's best of one category: who (initials as entered), the figure (in the
    category's unit), where (venue: the cabinet's location) and on which cabinet, when."""

    category: str
    initials: str
    figure: int
    venue: str
    cabinet: str
    date: str

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "initials": self.initials,
            "figure": self.figure,
            "venue": self.venue,
            "cabinet": self.cabinet,
            "date": self.date,
        }


@dataclass(frozen=True, slots=True)
class Champions:
    """The route's champions, one per category that has any; ``version`` rises with
    every board the fleet publishes (a cabinet keeps the newest it has seen)."""

    version: int
    champions: tuple[Champion, ...]

    def dumps(self) -> bytes:
        return _dumps(
            {
                "v": WIRE_VERSION,
                "version": self.version,
                "champions": [c.to_json() for c in self.champions],
            }
        )


@dataclass(frozen=True, slots=True)
class SettingsDocument:
    """A settings document for the whole route (``location`` ``None``) or for the cabinets
    of one location: ``text`` is TOML as ``settings export`` writes, checked on the
    cabinet exactly as ``settings import`` checks a file. ``version`` rises with every
    edit of any document."""

    document: str
    version: int
    location: str | None
    text: str

    def dumps(self) -> bytes:
        return _dumps(
            {
                "v": WIRE_VERSION,
                "document": self.document,
                "version": self.version,
                "location": self.location,
                "text": self.text,
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
    return _dumps(value)


def _dumps(value: dict[str, Any]) -> bytes:
    return json.dumps(value, separators=(",", ":"), sort_keys=True).encode()


def _load(payload: bytes) -> dict[str, Any]:
    if len(payload) > MAX_MESSAGE_BYTES:
        raise WireError(f"oversized: {len(payload)} bytes (at most {MAX_MESSAGE_BYTES})")
    try:
        value = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise WireError(f"not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise WireError("not a JSON object")
    if value.get("v") != WIRE_VERSION:
        raise WireError(
            f"wire version {str(value.get('v'))[:20]!r} (this fleet reads {WIRE_VERSION})"
        )
    return value


def _int(value: object, what: str, minimum: int = 0) -> int:
    if type(value) is not int or value < minimum or value >= 2**63:
        raise WireError(f"{what} is not a whole number from {minimum}")
    return value


def _epoch(value: object) -> str:
    if not isinstance(value, str) or EPOCH_PATTERN.fullmatch(value) is None:
        raise WireError("epoch is not 16 hexadecimal digits")
    return value


def _event(value: object, first: int, last: int) -> Event:
    if not isinstance(value, dict) or set(value) != {"seq", "kind", "at", "synced", "body"}:
        raise WireError("an event is not {seq, kind, at, synced, body}")
    seq = _int(value["seq"], "an event's seq", 1)
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
    elif kind == "door" and body.get("state") not in ("open", "closed"):
        raise WireError("a door event's state is neither open nor closed")


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
        raise WireError(f"not an events topic: {topic[:80]!r}")
    value = _load(payload)
    if set(value) != {"v", "cabinet", "epoch", "first", "last", "events"}:
        raise WireError("a batch is not {v, cabinet, epoch, first, last, events}")
    sender = value["cabinet"]
    if sender != cabinet:
        raise WireError(f"addressed to {cabinet}'s topic but says it is from {str(sender)[:40]}")
    epoch = _epoch(value["epoch"])
    first = _int(value["first"], "first", 1)
    last = _int(value["last"], "last", first)
    raw = value["events"]
    if not isinstance(raw, list) or len(raw) > MAX_BATCH_EVENTS:
        raise WireError(f"events is not a list of at most {MAX_BATCH_EVENTS}")
    events = tuple(_event(item, first, last) for item in raw)
    seqs = [event.seq for event in events]
    if seqs != sorted(set(seqs)):
        raise WireError("a batch's events are not in strictly rising order")
    return Batch(cabinet, epoch, first, last, events)


def parse_ack(payload: bytes) -> Ack:
    """An acknowledgement, checked; else :class:`WireError`."""
    value = _load(payload)
    if set(value) != {"v", "epoch", "through"}:
        raise WireError("an ack is not {v, epoch, through}")
    return Ack(_epoch(value["epoch"]), _int(value["through"], "through"))


def parse_presence(topic: str, payload: bytes) -> tuple[str, Presence, str, tuple[str, ...]]:
    """``(cabinet, state, version, faults)`` of a presence message; else
    :class:`WireError`."""
    cabinet, leaf = cabinet_of(topic)
    if leaf != "presence":
        raise WireError(f"not a presence topic: {topic[:80]!r}")
    value = _load(payload)
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


def _short(value: object, what: str, limit: int = 200) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise WireError(f"{what} is not a short text")
    return value


def _champion(value: object) -> Champion:
    keys = {"category", "initials", "figure", "venue", "cabinet", "date"}
    if not isinstance(value, dict) or set(value) != keys:
        raise WireError("a champion is not {category, initials, figure, venue, cabinet, date}")
    category = _short(value["category"], "a champion's category", 40)
    if category not in CHAMPION_CATEGORIES:
        raise WireError(f"unknown hall-of-fame category {category!r}")
    figure = value["figure"]
    if type(figure) is not int or not 0 <= figure < 2**63:
        raise WireError("a champion's figure is not a whole number from 0")
    return Champion(
        category,
        _short(value["initials"], "a champion's initials", 8),
        figure,
        _short(value["venue"], "a champion's venue"),
        check_name(value["cabinet"]),
        _short(value["date"], "a champion's date", 40),
    )


def parse_champions(payload: bytes) -> Champions:
    """The route's champions, checked (at most one per category); else
    :class:`WireError`."""
    value = _load(payload)
    if set(value) != {"v", "version", "champions"}:
        raise WireError("champions are not {v, version, champions}")
    raw = value["champions"]
    if not isinstance(raw, list) or len(raw) > len(CHAMPION_CATEGORIES):
        raise WireError("champions is not a list of at most one per category")
    champions = tuple(_champion(item) for item in raw)
    if len({c.category for c in champions}) != len(champions):
        raise WireError("two champions of one category")
    return Champions(_int(value["version"], "version", 1), champions)


def parse_settings_document(topic: str, payload: bytes) -> SettingsDocument:
    """The settings document retained on ``topic``, checked (its id is the topic's);
    else :class:`WireError`. Its TOML is checked by the cabinet, as a file it imports."""
    prefix = SETTINGS_PREFIX + "/"
    if not topic.startswith(prefix) or DOCUMENT_PATTERN.fullmatch(topic[len(prefix) :]) is None:
        raise WireError(f"not a settings document topic: {topic[:80]!r}")
    value = _load(payload)
    if set(value) != {"v", "document", "version", "location", "text"}:
        raise WireError("a settings document is not {v, document, version, location, text}")
    if value["document"] != topic[len(prefix) :]:
        raise WireError("a settings document's id is not its topic's")
    location = value["location"]
    if (location is None) != (value["document"] == "route"):
        raise WireError("a location's settings document names no location, or the route's does")
    if location is not None:
        _short(location, "a settings document's location")
    text = value["text"]
    if not isinstance(text, str) or len(text) > MAX_DOCUMENT_CHARS:
        raise WireError(f"a settings document's text is not TOML of at most {MAX_DOCUMENT_CHARS}")
    return SettingsDocument(value["document"], _int(value["version"], "version", 1), location, text)
