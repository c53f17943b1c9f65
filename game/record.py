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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.cards import Card, DeckError, NotationError, derived_rng, shuffled_deck, validate_deck
from game.edges import Button, Edge, EdgeKind
from game.engine import Game
from game.events import (
    Event,
    GameOver,
    Played,
    Rejected,
    RejectReason,
    Selected,
    Termination,
    Tie,
)
from game.referee import Referee
from game.rules import Rules, RulesError

FORMAT = "spit-match"
VERSION = 1


class RecordError(ValueError):
    """A match record is malformed; the message names the field and the problem."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One game's record. Times are ns from the start (R5 happens at ``t_ns`` 0)."""

    rules: Rules
    decks: tuple[tuple[Card, ...], tuple[Card, ...]]
    edges: tuple[Edge, ...]
    """In delivery order; ``delivered_ns`` always set."""
    seed: int | None = None
    end_ns: int | None = None
    """How far the clock runs after the last edge; ``None``: until every edge is released."""
    result: Mapping[str, Any] | None = None
    """The result the game had when it was recorded, if known."""
    meta: Mapping[str, Any] | None = None
    """Free-form context (players, levels, cabinet); replay ignores it."""
    abandoned_ns: int | None = None
    """When the cabinet stopped the game (idle, service menu), if it did: a replay ends it
    there too, with no winner."""

    @property
    def clock_end_ns(self) -> int:
        """Where the referee's clock stops in a replay."""
        if self.end_ns is not None:
            return self.end_ns
        if not self.edges:
            return 0
        last = self.edges[-1].delivered_ns
        assert last is not None
        return last + self.rules.race_window_ns

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
            data["result"] = dict(self.result)
        if self.meta is not None:
            data["meta"] = dict(self.meta)
        if self.abandoned_ns is not None:
            data["abandoned_ns"] = self.abandoned_ns
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    def with_result(self, result: Mapping[str, Any]) -> MatchRecord:
        return dataclasses.replace(self, result=dict(result))

    @classmethod
    def from_json(cls, data: object) -> MatchRecord:
        """Read a record; raises :class:`RecordError` naming the bad field."""
        if not isinstance(data, dict):
            raise RecordError("record", "must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError("format", f"must be {FORMAT!r}, got {data.get('format')!r}")
        if data.get("version") != VERSION:
            raise RecordError("version", f"must be {VERSION}, got {data.get('version')!r}")
        try:
            rules = Rules.from_dict(data.get("rules", {}))
        except (RulesError, TypeError) as exc:
            raise RecordError("rules", str(exc)) from None
        seed = data.get("seed")
        if seed is not None and not _is_int(seed):
            raise RecordError("seed", f"must be an integer, got {seed!r}")
        decks = _read_decks(data.get("decks"), seed)
        edges = _read_edges(data.get("edges"))
        end_ns = data.get("end_ns")
        if end_ns is not None:
            if not _is_int(end_ns):
                raise RecordError("end_ns", f"must be an integer, got {end_ns!r}")
            last = edges[-1].delivered_ns if edges else 0
            assert last is not None
            if end_ns < last:
                raise RecordError("end_ns", f"{end_ns} is before the last delivery {last}")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("result", "must be an object")
        meta = data.get("meta")
        if meta is not None and not isinstance(meta, dict):
            raise RecordError("meta", "must be an object")
        abandoned_ns = data.get("abandoned_ns")
        if abandoned_ns is not None and not _is_int(abandoned_ns):
            raise RecordError("abandoned_ns", f"must be an integer, got {abandoned_ns!r}")
        return cls(rules, decks, edges, seed, end_ns, result, meta, abandoned_ns)

    @classmethod
    def loads(cls, text: str) -> MatchRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError("record", f"not valid JSON: {exc}") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: Path) -> MatchRecord:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError("file", f"cannot read {path}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise RecordError("file", f"{path} is not UTF-8 text") from None
        return cls.loads(text)

    def save(self, path: Path) -> None:
        """Write the record atomically (a temporary file renamed into place)."""
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_decks(value: object, seed: object) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    if value is None:
        base = seed if isinstance(seed, int) else None
        if base is None:
            raise RecordError("decks", "missing, and there is no seed to deal from")
        return (shuffled_deck(base, 0), shuffled_deck(base, 1))
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError("decks", "must be a list of two decks")
    decks: list[tuple[Card, ...]] = []
    for p, deck in enumerate(value):
        if not isinstance(deck, list):
            raise RecordError(f"decks[{p}]", "must be a list of cards")
        cards: list[Card] = []
        for i, text in enumerate(deck):
            try:
                cards.append(Card.parse(text))
            except NotationError as exc:
                raise RecordError(f"decks[{p}][{i}]", str(exc)) from None
        try:
            decks.append(validate_deck(cards))
        except DeckError as exc:
            raise RecordError(f"decks[{p}]", str(exc)) from None
    return (decks[0], decks[1])


_BUTTONS = {b.value: b for b in Button}
_KINDS = {k.value: k for k in EdgeKind}


def _read_edges(value: object) -> tuple[Edge, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise RecordError("edges", "must be a list")
    edges: list[Edge] = []
    last_delivered: int | None = None
    for i, item in enumerate(value):
        where = f"edges[{i}]"
        if not isinstance(item, dict):
            raise RecordError(where, "must be an object")
        player = item.get("player")
        if player not in (0, 1) or isinstance(player, bool):
            raise RecordError(f"{where}.player", f"must be 0 or 1, got {player!r}")
        button = _BUTTONS.get(item.get("button"))
        if button is None:
            choices = " ".join(_BUTTONS)
            raise RecordError(
                f"{where}.button", f"must be one of {choices}, got {item.get('button')!r}"
            )
        kind = _KINDS.get(item.get("edge"))  # type: ignore[arg-type]
        if kind is None:
            raise RecordError(
                f"{where}.edge", f"must be press or release, got {item.get('edge')!r}"
            )
        t_ns = item.get("t_ns")
        if not _is_int(t_ns):
            raise RecordError(f"{where}.t_ns", f"must be an integer, got {t_ns!r}")
        assert isinstance(t_ns, int)
        delivered = item.get("delivered_ns", t_ns)
        if not _is_int(delivered):
            raise RecordError(f"{where}.delivered_ns", f"must be an integer, got {delivered!r}")
        assert isinstance(delivered, int)
        if delivered < t_ns:
            raise RecordError(f"{where}.delivered_ns", f"{delivered} is before its t_ns {t_ns}")
        if last_delivered is not None and delivered < last_delivered:
            raise RecordError(
                f"{where}.delivered_ns",
                f"{delivered} runs backwards (the edge before was delivered at {last_delivered})",
            )
        last_delivered = delivered
        edges.append(Edge(player, button, kind, t_ns, delivered))
    return tuple(edges)


def edge_to_json(edge: Edge) -> dict[str, Any]:
    data: dict[str, Any] = {
        "t_ns": edge.t_ns,
        "delivered_ns": edge.delivered_ns if edge.delivered_ns is not None else edge.t_ns,
        "player": edge.player,
        "button": edge.button.value,
        "edge": edge.edge.value,
    }
    return data


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

    def summary(self) -> dict[str, Any]:
        """The game's result and counters as JSON-ready values."""
        return summarize(self.game, self.referee, self.events)


def summarize(game: Game, referee: Referee, events: Sequence[Event]) -> dict[str, Any]:
    """The game's result and counters as JSON-ready values. ``race_margins_ns`` lists, in
    order, the margin (ns) of every race lost to the opponent (each *beaten* rejection):
    how long after the winning play the losing one arrived. ``fastest_play_ns`` gives each
    player's quickest play, from selecting the slot to the card landing (``None`` before
    their first play)."""
    outcome = game.outcome
    plays = [0, 0]
    beaten = [0, 0]
    rejected: dict[str, int] = {r.value: 0 for r in RejectReason}
    closest: dict[str, Any] | None = None
    margins: list[int] = []
    selected_at: list[int | None] = [None, None]
    fastest: list[int | None] = [None, None]
    for event in events:
        if type(event) is Selected:
            selected_at[event.player] = event.t_ns
        elif type(event) is Played:
            plays[event.player] += 1
            since = selected_at[event.player]
            if since is not None:
                took = event.t_ns - since
                best = fastest[event.player]
                fastest[event.player] = took if best is None else min(best, took)
        elif type(event) is Rejected:
            rejected[event.reason.value] += 1
            if event.reason is RejectReason.BEATEN:
                beaten[event.player] += 1
                margin = event.margin_ns
                assert margin is not None
                margins.append(margin)
                if closest is None or margin < closest["margin_ns"]:
                    closest = {
                        "margin_ns": margin,
                        "winner": 1 - event.player,
                        "t_ns": event.t_ns - margin,
                        "pile": event.pile,
                    }
        elif type(event) is Tie and (closest is None or closest["margin_ns"] > 0):
            closest = {"margin_ns": 0, "winner": event.first, "t_ns": event.t_ns, "pile": None}
    finished = outcome is not None
    last = next((e for e in reversed(events) if isinstance(e, GameOver)), None)
    return {
        "finished": finished,
        "winner": outcome.winner if outcome else None,
        "draw": bool(outcome and outcome.draw and outcome.termination is not Termination.ABANDONED),
        "termination": outcome.termination.value if outcome else None,
        "cards_left": [game.cards_left(0), game.cards_left(1)],
        "plays": plays,
        "spits": game.spits,
        "beaten": beaten,
        "rejected": rejected,
        "ties": referee.stats.ties,
        "late_edges": referee.stats.late_edges,
        "early_edges": referee.stats.early_edges,
        "pile_without_selection": referee.stats.pile_without_selection,
        "reordered_races": referee.stats.reordered_races,
        "closest_race": closest,
        "race_margins_ns": margins,
        "fastest_play_ns": fastest,
        "end_t_ns": last.t_ns if last else None,
    }


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


RESULT_KEYS = (
    "finished",
    "winner",
    "draw",
    "termination",
    "cards_left",
    "plays",
    "spits",
    "beaten",
    "ties",
    "late_edges",
)
"""The keys a record's ``result`` pins; a replay must reproduce each one present."""


def result_of(summary: Mapping[str, Any]) -> dict[str, Any]:
    return {k: summary[k] for k in RESULT_KEYS}


def result_mismatches(expected: Mapping[str, Any], summary: Mapping[str, Any]) -> list[str]:
    """Each key of ``expected`` whose value the replay did not reproduce."""
    return [
        f"{k}: recorded {expected[k]!r}, replayed {summary.get(k)!r}"
        for k in expected
        if k in summary and summary[k] != expected[k]
    ]
