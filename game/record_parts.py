"""A match record's typed parts besides the game itself: what it pins of the game's
result (:class:`RecordResult`) and who played it (:class:`RecordMeta`).

>>> from game.summary import Seat
>>> meta = RecordMeta(seats=(Seat.HUMAN, Seat.CPU), levels=(None, 4))
>>> meta.to_json()
{'players': ['human', 'cpu'], 'levels': [None, 4]}
>>> RecordMeta.from_json(meta.to_json()) == meta
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from game.events import Termination
from game.summary import GameSummary, Seat
from game.summary_json import (
    SummaryError,
    read_bool,
    read_int,
    read_int_pair,
    read_object,
    read_optional_player,
    read_termination,
)
from game.values import is_int


@dataclass(frozen=True, slots=True)
class RecordResult:
    """The result a game had when it was recorded: the keys of its summary that a replay
    must reproduce (:meth:`mismatches`), each typed as in :class:`GameSummary`."""

    finished: bool
    winner: int | None
    draw: bool
    termination: Termination | None
    cards_left: tuple[int, int]
    plays: tuple[int, int]
    spits: int
    beaten: tuple[int, int]
    ties: int
    late_edges: int

    @classmethod
    def of(cls, summary: GameSummary) -> RecordResult:
        """What a record pins of ``summary``."""
        return cls(**{name: getattr(summary, name) for name in RESULT_KEYS})

    def to_json(self) -> dict[str, Any]:
        """The summary's JSON of these keys (:meth:`GameSummary.to_json`'s values: enums
        as their values, pairs as lists)."""
        return {name: _json_value(getattr(self, name)) for name in RESULT_KEYS}

    @classmethod
    def from_json(cls, data: object) -> RecordResult:
        """Read :meth:`to_json`'s form; raises :class:`~game.summary_json.SummaryError`
        naming the key (every key required, others refused)."""
        obj = read_object(data, "result")
        unknown = sorted(str(k) for k in obj if k not in RESULT_KEYS)
        if unknown:
            raise SummaryError(unknown[0][:40], "is not a key a result pins")
        return cls(
            finished=read_bool(obj, "finished"),
            winner=read_optional_player(obj, "winner"),
            draw=read_bool(obj, "draw"),
            termination=read_termination(obj),
            cards_left=read_int_pair(obj, "cards_left"),
            plays=read_int_pair(obj, "plays"),
            spits=read_int(obj, "spits"),
            beaten=read_int_pair(obj, "beaten"),
            ties=read_int(obj, "ties"),
            late_edges=read_int(obj, "late_edges"),
        )

    def mismatches(self, summary: GameSummary) -> list[str]:
        """Each key whose value the replay's ``summary`` did not reproduce, as
        ``"draw: recorded False, replayed True"``."""
        recorded, replayed = self.to_json(), RecordResult.of(summary).to_json()
        return [
            f"{k}: recorded {recorded[k]!r}, replayed {replayed[k]!r}"
            for k in RESULT_KEYS
            if recorded[k] != replayed[k]
        ]


RESULT_KEYS: tuple[str, ...] = tuple(f.name for f in fields(RecordResult))
"""The keys a record's ``result`` pins; a replay must reproduce each one."""


def _json_value(value: object) -> object:
    if isinstance(value, Termination):
        return value.value
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True, slots=True)
class RecordMeta:
    """Who played a recorded game, and any other context it carries (replay ignores all
    of it). In JSON: ``players`` (each seat's value, ``"human"``/``"cpu"``), ``levels``
    (each seat's CPU level or null), then the other keys as they were read."""

    seats: tuple[Seat, Seat] | None = None
    levels: tuple[int | None, int | None] | None = None
    other: Mapping[str, Any] = field(default_factory=dict)
    """Context other than the seats and levels (a golden file's ``expect``, say), as
    plain JSON values."""

    @property
    def empty(self) -> bool:
        return self.seats is None and self.levels is None and not self.other

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.seats is not None:
            data["players"] = [seat.value for seat in self.seats]
        if self.levels is not None:
            data["levels"] = list(self.levels)
        data.update(self.other)
        return data

    @classmethod
    def from_json(cls, data: object) -> RecordMeta:
        """Read :meth:`to_json`'s form; raises :class:`~game.summary_json.SummaryError`
        naming the key."""
        obj = read_object(data, "meta")
        seats = levels = None
        if "players" in obj:
            seats = _seats(obj["players"])
        if "levels" in obj:
            levels = _levels(obj["levels"])
        other = {k: v for k, v in obj.items() if k not in ("players", "levels")}
        return cls(seats, levels, other)


def _seats(value: object) -> tuple[Seat, Seat]:
    choices = [seat.value for seat in Seat]
    if not isinstance(value, list) or len(value) != 2 or any(v not in choices for v in value):
        raise SummaryError("players", f"must be two of {', '.join(choices)}, got {value!r:.80}")
    return (Seat(value[0]), Seat(value[1]))


def _levels(value: object) -> tuple[int | None, int | None]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(v is None or (is_int(v) and v >= 1) for v in value)
    ):
        raise SummaryError("levels", f"must be two CPU levels or nulls, got {value!r:.80}")
    return (value[0], value[1])
