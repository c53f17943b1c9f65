"""Match records: the whole truth of a game, as JSON, and their exact replay.

A record holds the rules, the seed, both decks and every edge with its delivery time;
replaying it feeds those edges through the same referee and engine the live cabinet used,
so a dispute replays to the same winner. The format is documented in
``docs/match-record.md``; :data:`FORMAT` and :data:`VERSION` name it.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from game.cards import Card, derived_rng
from game.edges import Edge
from game.engine import Game
from game.events import Event
from game.record_fields import edge_to_json as edge_to_json  # re-exported: it used to live here
from game.record_fields import read_decks, read_edges
from game.record_limits import MAX_DEPTH as MAX_DEPTH  # re-exported: it used to live here
from game.record_limits import MAX_INT_DIGITS as MAX_INT_DIGITS  # re-exported: it used to live here
from game.record_limits import MAX_NS as MAX_NS  # re-exported: it used to live here
from game.record_limits import RecordError as RecordError  # re-exported: it used to live here
from game.record_limits import check_tree, parse_int, read_ns
from game.record_parts import RESULT_KEYS as RESULT_KEYS  # re-exported: it used to live here
from game.record_parts import RecordMeta, RecordResult
from game.referee import Referee
from game.rules import Rules, RulesError, clipped_repr
from game.summary import GameSummary
from game.summary import summarize as summarize  # re-exported: it used to live here
from game.summary_json import SummaryError
from game.values import UnreadableFileError, is_int, read_bounded, unreadable_kind

T = TypeVar("T")

FORMAT = "spit-match"
VERSION = 1

# -- the size a reader takes (docs/match-record.md, "Limits"; the rest: game.record_limits) --

MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The largest record :meth:`MatchRecord.load` reads: 16 MiB. A simulated game's record
is about 30 KB, and an hour of both players pressing five times a second (ten edges each)
about 9 MB; the limit only stops a reader taking in something that is not a record (a
device such as ``/dev/zero``, a runaway pipe)."""


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One game's record. Times are ns from the start (R5 happens at ``t_ns`` 0)."""

    rules: Rules
    decks: tuple[tuple[Card, ...], tuple[Card, ...]]
    edges: tuple[Edge, ...]
    """In delivery order; ``delivered_ns`` always set."""
    seed: int | None = None
    end_ns: int | None = None
    """How far the clock runs after the last edge; ``None``: until every edge is released
    (:attr:`clock_end_ns`)."""
    result: RecordResult | None = None
    """The result the game had when it was recorded, if known."""
    meta: RecordMeta = dataclasses.field(default_factory=RecordMeta)
    """Who played (seats, CPU levels) and any other context; replay ignores it."""
    abandoned_ns: int | None = None
    """When the cabinet stopped the game (idle, service menu), if it did: a replay ends it
    there too, with no winner."""

    @property
    def clock_end_ns(self) -> int:
        """Where the referee's clock stops in a replay: ``end_ns``, or else the race
        window after the latest edge happened (the last delivery, if that is later), so
        that every edge is released and the horizon stops at the latest press.

        The default does not depend on when the edges were delivered. It once was the
        last delivery plus the window, and a spit falling due between the latest press and
        its delivery then fired or not by how late that press arrived: the same presses,
        delivered in another order, gave another game (tests/data/delivery-order/).
        """
        if self.end_ns is not None:
            return self.end_ns
        if not self.edges:
            return 0
        last = self.edges[-1].delivered_ns
        assert last is not None
        latest = max(edge.t_ns for edge in self.edges)
        return max(last, latest + self.rules.race_window_ns)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        data["rules"] = self.rules.to_dict()
        if self.seed is not None:
            data["seed"] = self.seed
        data["decks"] = [[c.notation() for c in deck] for deck in self.decks]
        data["edges"] = [edge_to_json(e) for e in self.edges]
        if self.end_ns is not None:
            data["end_ns"] = self.end_ns
        if self.result is not None:
            data["result"] = self.result.to_json()
        if not self.meta.empty:
            data["meta"] = self.meta.to_json()
        if self.abandoned_ns is not None:
            data["abandoned_ns"] = self.abandoned_ns
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    def with_result(self, result: RecordResult) -> MatchRecord:
        return dataclasses.replace(self, result=result)

    @classmethod
    def from_json(cls, data: object) -> MatchRecord:
        """Read a record; raises :class:`RecordError` naming the bad field."""
        if not isinstance(data, dict):
            raise RecordError("record", "must be a JSON object")
        check_tree(data, [], 0)
        if data.get("format") != FORMAT:
            raise RecordError(
                "format", f"must be {FORMAT!r}, got {clipped_repr(data.get('format'))}"
            )
        version = data.get("version")
        if not is_int(version) or version != VERSION:
            raise RecordError("version", f"must be {VERSION}, got {clipped_repr(version)}")
        try:
            rules = Rules.from_dict(data.get("rules", {}))
        except (RulesError, TypeError) as exc:
            raise RecordError("rules", str(exc)) from None
        seed = data.get("seed")
        if seed is not None and not is_int(seed):
            raise RecordError("seed", f"must be an integer, got {clipped_repr(seed)}")
        decks = read_decks(data.get("decks"), seed)
        edges = read_edges(data.get("edges"))
        end_ns = data.get("end_ns")
        if end_ns is not None:
            end_ns = read_ns("end_ns", end_ns, 0)
            last = edges[-1].delivered_ns if edges else 0
            assert last is not None
            if end_ns < last:
                raise RecordError("end_ns", f"{end_ns} is before the last delivery {last}")
        result = _read_part(RecordResult.from_json, data, "result")
        meta = _read_part(RecordMeta.from_json, data, "meta") or RecordMeta()
        abandoned_ns = data.get("abandoned_ns")
        if abandoned_ns is not None:
            abandoned_ns = read_ns("abandoned_ns", abandoned_ns, 0)
        return cls(rules, decks, edges, seed, end_ns, result, meta, abandoned_ns)

    @classmethod
    def loads(cls, text: str) -> MatchRecord:
        """Read a record from JSON text; raises :class:`RecordError` naming the bad field."""
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError("record", f"larger than the limit of {MAX_RECORD_BYTES} bytes")
        try:
            data = json.loads(text, parse_int=parse_int)
        except json.JSONDecodeError as exc:
            raise RecordError("record", f"not valid JSON: {exc}") from None
        except RecursionError:  # the parser's own limit, far deeper than MAX_DEPTH
            raise RecordError("record", f"nested deeper than {MAX_DEPTH} levels") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: Path) -> MatchRecord:
        """Read a record file: a regular file or a pipe, of at most
        :data:`MAX_RECORD_BYTES` (a file that is neither, such as a device, is refused
        before it is opened)."""
        try:
            kind = unreadable_kind(path.stat().st_mode)
            if kind is not None:
                raise RecordError(
                    "file", f"{path} is {kind}: a record is read from a regular file or a pipe"
                )
            raw = read_bounded(path, MAX_RECORD_BYTES)
        except OSError as exc:
            raise RecordError("file", f"cannot read {path}: {exc.strerror or exc}") from None
        except UnreadableFileError as exc:
            raise RecordError("file", str(exc)) from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("file", f"{path} is not UTF-8 text") from None
        return cls.loads(text)

    def save(self, path: Path) -> None:
        """Write the record atomically (a temporary file renamed into place)."""
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)


def _read_part(read: Callable[[object], T], data: Mapping[str, Any], key: str) -> T | None:
    """``data[key]`` read by ``read`` (``None`` when absent); a
    :class:`~game.summary_json.SummaryError` becomes a :class:`RecordError` for
    ``key.field``."""
    if data.get(key) is None:  # absent, or null: the record does not say
        return None
    try:
        return read(data[key])
    except SummaryError as exc:
        name = key if exc.field == key else f"{key}.{exc.field}"
        raise RecordError(name, exc.problem) from None


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as a JSON object: ``{"type": "played", "t_ns": …, …}``."""
    data: dict[str, Any] = {"type": _snake(type(event).__name__)}
    for f in dataclasses.fields(event):
        data[f.name] = _jsonable(getattr(event, f.name))
    return data


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def _jsonable(value: object) -> Any:
    if isinstance(value, Card):
        return value.notation()
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


# -- replay ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replay:
    """What a replay found; :meth:`summary` is the comparable part."""

    game: Game
    referee: Referee
    events: tuple[Event, ...]

    def summary(self) -> GameSummary:
        """The game's result and counters."""
        return summarize(self.game, self.referee, self.events)

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON (:meth:`GameSummary.to_json`) with every event in order
        (``events``): what ``spit-cabinet replay --json`` prints."""
        data = self.summary().to_json()
        data["events"] = [event_to_json(e) for e in self.events]
        return data


def start_match(rules: Rules, decks: Sequence[Sequence[Card]], seed: int | None) -> Referee:
    """A referee over a fresh game, with the tie coin drawn from the match's seed."""
    game = Game(decks, rules)
    return Referee(game, tie_rng=derived_rng(seed if seed is not None else 0, "ties"))


def replay(record: MatchRecord) -> Replay:
    """Feed the record's edges through a fresh referee and engine, exactly as live."""
    referee = start_match(record.rules, record.decks, record.seed)
    events: list[Event] = []
    for edge in record.edges:
        assert edge.delivered_ns is not None
        events.extend(referee.take(edge, edge.delivered_ns))
    events.extend(referee.tick(max(record.clock_end_ns, referee.now_ns)))
    if record.abandoned_ns is not None and referee.game.outcome is None:
        referee.game.abandon(max(record.abandoned_ns, referee.horizon_ns))
        events.extend(referee.game.take_events())
    return Replay(referee.game, referee, tuple(events))
