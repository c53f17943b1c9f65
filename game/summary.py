"""A game's summary: its result and counters, as typed values, and who sat where.

:func:`summarize` reads them off a game, its referee and its events; the cabinet's game
over screen, its books (audits and stored games), ``spit-cabinet replay`` and
``simulate`` all read a :class:`GameSummary`. :meth:`GameSummary.to_json` gives the JSON
form (the replay summary of ``docs/match-record.md``; a match record's ``result`` is
:meth:`game.record_parts.RecordResult.of` it); :meth:`GameSummary.from_json` reads it
back.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.events import Event, GameOver, Played, Rejected, RejectReason, Selected, Termination, Tie
from game.summary_json import (
    SummaryError,
    is_pair,
    read_bool,
    read_int,
    read_int_pair,
    read_object,
    read_optional_int,
    read_optional_player,
    read_player,
    read_termination,
    read_value,
)
from game.values import is_int

if TYPE_CHECKING:
    from game.engine import Game
    from game.referee import Referee


class Seat(enum.Enum):
    """Who played in a seat: a person or the CPU. The values are what a match record's
    ``meta.players`` and the books' stored games hold."""

    HUMAN = "human"
    CPU = "cpu"

    @classmethod
    def of(cls, cpu_level: object) -> Seat:
        """The seat of a player whose CPU level is ``cpu_level`` (``None``: a person)."""
        return cls.HUMAN if cpu_level is None else cls.CPU


@dataclass(frozen=True, slots=True)
class ClosestRace:
    """The race won by the smallest margin: ``winner``'s play onto ``pile`` at ``t_ns``
    beat the other's by ``margin_ns``. An exact tie has margin 0, ``winner`` the player
    the tie rule gave priority and no ``pile``."""

    margin_ns: int
    winner: int
    t_ns: int
    pile: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "margin_ns": self.margin_ns,
            "winner": self.winner,
            "t_ns": self.t_ns,
            "pile": self.pile,
        }

    @classmethod
    def from_json(cls, data: object, field: str = "closest_race") -> ClosestRace:
        obj = read_object(data, field)
        return cls(
            margin_ns=read_int(obj, "margin_ns", field),
            winner=read_player(obj, "winner", field),
            t_ns=read_int(obj, "t_ns", field),
            pile=read_optional_int(obj, "pile", field),
        )


@dataclass(frozen=True, slots=True)
class Rejections:
    """Refused plays, by reason (:class:`~game.events.RejectReason`): one field each,
    named by the reason's value."""

    illegal: int = 0
    beaten: int = 0
    empty_slot: int = 0
    not_running: int = 0

    @classmethod
    def of(cls, counts: Mapping[RejectReason, int]) -> Rejections:
        """The counts given per reason (a reason left out: 0)."""
        return cls(
            illegal=counts.get(RejectReason.ILLEGAL, 0),
            beaten=counts.get(RejectReason.BEATEN, 0),
            empty_slot=counts.get(RejectReason.EMPTY_SLOT, 0),
            not_running=counts.get(RejectReason.NOT_RUNNING, 0),
        )

    def by_reason(self) -> dict[RejectReason, int]:
        """Each reason's count, in :class:`~game.events.RejectReason`'s order."""
        counts = {
            RejectReason.ILLEGAL: self.illegal,
            RejectReason.BEATEN: self.beaten,
            RejectReason.EMPTY_SLOT: self.empty_slot,
            RejectReason.NOT_RUNNING: self.not_running,
        }
        return {reason: counts[reason] for reason in RejectReason}

    def to_json(self) -> dict[str, int]:
        return {reason.value: n for reason, n in self.by_reason().items()}

    @classmethod
    def from_json(cls, data: object, field: str = "rejected") -> Rejections:
        obj = read_object(data, field)
        return cls.of({reason: read_int(obj, reason.value, field) for reason in RejectReason})


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game's result and counters (:func:`summarize`). Pairs are per player (player 1
    first); times are ns on the match clock. ``docs/match-record.md`` ("The replay
    summary") says what each field means; its JSON form has one key per field."""

    finished: bool
    """Whether the game reached its end (abandoned counts: it ended)."""
    winner: int | None
    """0, 1, or ``None`` (a draw, abandoned, or unfinished)."""
    draw: bool
    """A finished game drawn under R13 (an abandoned game is no draw)."""
    termination: Termination | None
    """How the game ended; ``None`` while it has not."""
    cards_left: tuple[int, int]
    plays: tuple[int, int]
    spits: int
    beaten: tuple[int, int]
    rejected: Rejections
    ties: int
    late_edges: int
    early_edges: int
    pile_without_selection: int
    reordered_races: int
    closest_race: ClosestRace | None
    race_margins_ns: tuple[int, ...]
    """The margin of every race lost to the opponent (each *beaten* rejection), in order:
    how long after the winning play the losing one arrived."""
    fastest_play_ns: tuple[int | None, int | None]
    """Each player's quickest play, from selecting the slot to the card landing (``None``
    before their first play)."""
    end_t_ns: int | None
    """When the game ended, or ``None``."""

    @property
    def abandoned(self) -> bool:
        """Whether the cabinet stopped the game (idle, service menu): no winner."""
        return self.termination is Termination.ABANDONED

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready values, one key per field in field order (enums as
        their values, pairs as lists); :meth:`from_json` reads it back."""
        return {
            "finished": self.finished,
            "winner": self.winner,
            "draw": self.draw,
            "termination": None if self.termination is None else self.termination.value,
            "cards_left": list(self.cards_left),
            "plays": list(self.plays),
            "spits": self.spits,
            "beaten": list(self.beaten),
            "rejected": self.rejected.to_json(),
            "ties": self.ties,
            "late_edges": self.late_edges,
            "early_edges": self.early_edges,
            "pile_without_selection": self.pile_without_selection,
            "reordered_races": self.reordered_races,
            "closest_race": None if self.closest_race is None else self.closest_race.to_json(),
            "race_margins_ns": list(self.race_margins_ns),
            "fastest_play_ns": list(self.fastest_play_ns),
            "end_t_ns": self.end_t_ns,
        }

    @classmethod
    def from_json(cls, data: object) -> GameSummary:
        """Read :meth:`to_json`'s form; raises :class:`SummaryError` naming the bad key.
        Every key is required; other keys (such as ``replay --json``'s ``events``) are
        ignored."""
        obj = read_object(data, "summary")
        termination = read_termination(obj)
        closest = read_value(obj, "closest_race")
        margins = read_value(obj, "race_margins_ns")
        if not isinstance(margins, list) or not all(is_int(m) for m in margins):
            raise SummaryError("race_margins_ns", "must be a list of integers")
        fastest = read_value(obj, "fastest_play_ns")
        if not is_pair(fastest, optional=True):
            raise SummaryError("fastest_play_ns", "must be a list of two integers or nulls")
        assert isinstance(fastest, list)
        return cls(
            finished=read_bool(obj, "finished"),
            winner=read_optional_player(obj, "winner"),
            draw=read_bool(obj, "draw"),
            termination=termination,
            cards_left=read_int_pair(obj, "cards_left"),
            plays=read_int_pair(obj, "plays"),
            spits=read_int(obj, "spits"),
            beaten=read_int_pair(obj, "beaten"),
            rejected=Rejections.from_json(read_value(obj, "rejected")),
            ties=read_int(obj, "ties"),
            late_edges=read_int(obj, "late_edges"),
            early_edges=read_int(obj, "early_edges"),
            pile_without_selection=read_int(obj, "pile_without_selection"),
            reordered_races=read_int(obj, "reordered_races"),
            closest_race=None if closest is None else ClosestRace.from_json(closest),
            race_margins_ns=tuple(margins),
            fastest_play_ns=(fastest[0], fastest[1]),
            end_t_ns=read_optional_int(obj, "end_t_ns"),
        )


def summarize(game: Game, referee: Referee, events: Sequence[Event]) -> GameSummary:
    """The game's result and counters, from the game, its referee and its events (every
    one, in order)."""
    outcome = game.outcome
    plays = [0, 0]
    beaten = [0, 0]
    rejected: dict[RejectReason, int] = {}
    closest: ClosestRace | None = None
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
            rejected[event.reason] = rejected.get(event.reason, 0) + 1
            if event.reason is RejectReason.BEATEN:
                beaten[event.player] += 1
                margin = event.margin_ns
                assert margin is not None
                margins.append(margin)
                if closest is None or margin < closest.margin_ns:
                    closest = ClosestRace(
                        margin_ns=margin,
                        winner=1 - event.player,
                        t_ns=event.t_ns - margin,
                        pile=event.pile,
                    )
        elif type(event) is Tie and (closest is None or closest.margin_ns > 0):
            closest = ClosestRace(margin_ns=0, winner=event.first, t_ns=event.t_ns, pile=None)
    last = next((e for e in reversed(events) if isinstance(e, GameOver)), None)
    stats = referee.stats
    return GameSummary(
        finished=outcome is not None,
        winner=outcome.winner if outcome else None,
        draw=bool(outcome and outcome.draw and outcome.termination is not Termination.ABANDONED),
        termination=outcome.termination if outcome else None,
        cards_left=(game.cards_left(0), game.cards_left(1)),
        plays=(plays[0], plays[1]),
        spits=game.spits,
        beaten=(beaten[0], beaten[1]),
        rejected=Rejections.of(rejected),
        ties=stats.ties,
        late_edges=stats.late_edges,
        early_edges=stats.early_edges,
        pile_without_selection=stats.pile_without_selection,
        reordered_races=stats.reordered_races,
        closest_race=closest,
        race_margins_ns=tuple(margins),
        fastest_play_ns=(fastest[0], fastest[1]),
        end_t_ns=last.t_ns if last else None,
    )
