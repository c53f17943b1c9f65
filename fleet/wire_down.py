"""The fleet's wire format, down: what the fleet publishes for the cabinets, each
retained so that a cabinet connecting later still gets it (docs/fleet.md, "Topics and
payloads" and "What a cabinet takes from the fleet"):

- the acknowledgement (:class:`Ack`), on each cabinet's own topic: every sequence number
  of an epoch up to ``through`` is stored;
- the route's champions (:class:`Champions`), fleet-wide;
- the settings documents (:class:`SettingsDocument`), fleet-wide, one topic each;
- a release offered (:class:`ReleaseOffer`), on each cabinet's own topic: the rollout
  the cabinet is in, the release and where the fleet serves it (docs/releases.md).

Each is checked when read as :mod:`fleet.wire` checks what goes up (a
:class:`~fleet.wire_common.WireError` for anything else). Standard library only: the
cabinet's link reads these, ingest writes them.

>>> ack_topic("bar-1"), parse_ack(Ack("00ff00ff00ff00ff", 12).dumps())
('spit/down/bar-1/ack', Ack(epoch='00ff00ff00ff00ff', through=12))
>>> settings_topic("location-3")
'spit/down/all/settings/location-3'
>>> settings_topic("bar")
Traceback (most recent call last):
...
fleet.wire_common.WireError: 'bar' is not a settings document id
"""

from __future__ import annotations

import re
from dataclasses import dataclass
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


def ack_topic(cabinet: str) -> str:
    """Where the fleet publishes, retained, what it has stored of ``cabinet``."""
    return f"{ROOT}/down/{check_name(cabinet)}/ack"


def release_topic(cabinet: str) -> str:
    """Where the fleet offers ``cabinet`` a release, retained (cleared: none offered)."""
    return f"{ROOT}/down/{check_name(cabinet)}/release"


FLEET_DOWN = f"{ROOT}/down/all"
"""The fleet-wide down topics' prefix: every cabinet may read under it."""

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
        raise WireError(f"{document[:40]!r} is not a settings document id", Refusal.TOPIC)
    return f"{SETTINGS_PREFIX}/{document}"


@dataclass(frozen=True, slots=True)
class Ack:
    """The fleet has stored every sequence number of ``epoch`` up to ``through``."""

    epoch: str
    through: int

    def dumps(self) -> bytes:
        return encode({"v": WIRE_VERSION, "epoch": self.epoch, "through": self.through})


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
        return encode(
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
        return encode(
            {
                "v": WIRE_VERSION,
                "document": self.document,
                "version": self.version,
                "location": self.location,
                "text": self.text,
            }
        )


RELEASE_VERSION = re.compile(r"[0-9]+(\.[0-9]+){1,3}(\.post[0-9]+)?")
"""A release's version, as the cabinet's wheel names it (0.2.0, 0.2.0.post1)."""


@dataclass(frozen=True, slots=True)
class ReleaseOffer:
    """Release ``release`` offered to this cabinet by rollout ``rollout``, served at
    ``url`` (``https://HOST:PORT/releases/``): the cabinet downloads and checks it, and
    installs it at a safe moment."""

    rollout: int
    release: str
    url: str

    def dumps(self) -> bytes:
        return encode(
            {"v": WIRE_VERSION, "rollout": self.rollout, "release": self.release, "url": self.url}
        )


def parse_release_offer(payload: bytes) -> ReleaseOffer:
    """A release offer, checked; else :class:`WireError`."""
    value = decode(payload)
    if set(value) != {"v", "rollout", "release", "url"}:
        raise WireError("a release offer is not {v, rollout, release, url}")
    release = _short(value["release"], "an offer's release", 40)
    if RELEASE_VERSION.fullmatch(release) is None:
        raise WireError(f"{release!r} is not a release's version")
    url = _short(value["url"], "an offer's url", 300)
    if not url.startswith("https://") or not url.rstrip("/").endswith("/releases"):
        raise WireError("an offer's url is not the fleet's https://…/releases/")
    return ReleaseOffer(whole(value["rollout"], "rollout", 1), release, url)


def parse_ack(payload: bytes) -> Ack:
    """An acknowledgement, checked; else :class:`WireError`."""
    value = decode(payload)
    if set(value) != {"v", "epoch", "through"}:
        raise WireError("an ack is not {v, epoch, through}")
    return Ack(check_epoch(value["epoch"]), whole(value["through"], "through"))


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
    value = decode(payload)
    if set(value) != {"v", "version", "champions"}:
        raise WireError("champions are not {v, version, champions}")
    raw = value["champions"]
    if not isinstance(raw, list) or len(raw) > len(CHAMPION_CATEGORIES):
        raise WireError("champions is not a list of at most one per category")
    champions = tuple(_champion(item) for item in raw)
    if len({c.category for c in champions}) != len(champions):
        raise WireError("two champions of one category")
    return Champions(whole(value["version"], "version", 1), champions)


def parse_settings_document(topic: str, payload: bytes) -> SettingsDocument:
    """The settings document retained on ``topic``, checked (its id is the topic's);
    else :class:`WireError`. Its TOML is checked by the cabinet, as a file it imports."""
    prefix = SETTINGS_PREFIX + "/"
    if not topic.startswith(prefix) or DOCUMENT_PATTERN.fullmatch(topic[len(prefix) :]) is None:
        raise WireError(f"not a settings document topic: {topic[:80]!r}", Refusal.TOPIC)
    value = decode(payload)
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
    return SettingsDocument(
        value["document"], whole(value["version"], "version", 1), location, text
    )
