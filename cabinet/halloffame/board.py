"""The hall of fame's categories and their ranking, as plain values: no clock, no I/O.

A game that ended gives *candidates* (:func:`candidates`): a figure per category for
each person who played it. A :class:`FameBoard` keeps each category's best ``size`` entries;
:meth:`FameBoard.place` says where a figure would rank (``None``: not good enough), and an
equal figure ranks *after* the entries already there, so the earlier entry keeps its
place.

>>> board = FameBoard(size=2)
>>> board.place(Category.MOST_PLAYS, 40)
0
>>> board = board.with_entry(Entry(Category.MOST_PLAYS, "ABC", 40, "2026-12-01", 1))
>>> board.place(Category.MOST_PLAYS, 40)
1
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from cabinet.halloffame.names import BLANK
from game.summary import GameSummary, Seat
from game.units import MS
from game.values import is_int

DEFAULT_SIZE = 5
"""Entries kept per category unless the operator says otherwise."""


class Category(enum.Enum):
    """What a record is of. Values are the stored names."""

    FASTEST_WIN_CPU_1 = "fastest_win_cpu_1"
    FASTEST_WIN_CPU_2 = "fastest_win_cpu_2"
    FASTEST_WIN_CPU_3 = "fastest_win_cpu_3"
    FASTEST_WIN_CPU_4 = "fastest_win_cpu_4"
    FASTEST_WIN_CPU_5 = "fastest_win_cpu_5"
    FASTEST_TWO_PLAYER_WIN = "fastest_two_player_win"
    LONGEST_STREAK = "longest_streak"
    CLOSEST_RACE_WON = "closest_race_won"
    MOST_PLAYS = "most_plays"

    @property
    def lower_is_better(self) -> bool:
        """Times and margins: the smaller the better; streaks and plays: the larger."""
        return self not in (Category.LONGEST_STREAK, Category.MOST_PLAYS)

    @property
    def unit(self) -> str:
        """``ms`` for game times, ``ns`` for race margins, ``count`` otherwise."""
        if self is Category.CLOSEST_RACE_WON:
            return "ns"
        return "count" if not self.lower_is_better else "ms"

    @property
    def cpu_level(self) -> int | None:
        """The CPU level (1-5) a fastest win against the CPU was set against, else
        ``None``."""
        return _CPU_LEVELS.get(self)

    @classmethod
    def fastest_win_against(cls, cpu_level: int) -> Category:
        """The fastest-win category for CPU level ``cpu_level`` (1-5)."""
        if not 1 <= cpu_level <= len(_AGAINST_CPU):
            raise ValueError(f"no CPU level {cpu_level}: the levels are 1 to 5")
        return _AGAINST_CPU[cpu_level - 1]


_AGAINST_CPU = (
    Category.FASTEST_WIN_CPU_1,
    Category.FASTEST_WIN_CPU_2,
    Category.FASTEST_WIN_CPU_3,
    Category.FASTEST_WIN_CPU_4,
    Category.FASTEST_WIN_CPU_5,
)
_CPU_LEVELS = {category: level for level, category in enumerate(_AGAINST_CPU, 1)}


class BoardError(ValueError):
    """An entry that cannot be on the board."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One place on the board: ``initials`` (3 characters), ``figure`` (ms, ns or a count,
    :attr:`Category.unit`), ``date`` (ISO, the day it was set) and ``order`` (a number
    that grows with every entry: the earlier of two equal figures ranks first)."""

    category: Category
    initials: str
    figure: int
    date: str
    order: int

    def __post_init__(self) -> None:
        if not isinstance(self.category, Category):
            raise BoardError(f"category must be a Category, got {self.category!r}")
        if not isinstance(self.initials, str) or len(self.initials) != 3:
            raise BoardError(f"initials are 3 characters, got {self.initials!r}")
        if not is_int(self.figure) or self.figure < 0:
            raise BoardError(f"a figure is a whole number >= 0, got {self.figure!r}")

    def beats(self, other: Entry) -> bool:
        """Whether this entry ranks above ``other`` (same category)."""
        if self.figure != other.figure:
            better = self.figure < other.figure
            return better if self.category.lower_is_better else not better
        return self.order < other.order


@dataclass(frozen=True, slots=True)
class FameBoard:
    """Every category's best ``size`` entries, best first."""

    size: int = DEFAULT_SIZE
    entries: Mapping[Category, tuple[Entry, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not is_int(self.size) or self.size < 1:
            raise BoardError(f"a board keeps at least 1 entry a category, got {self.size!r}")

    def top(self, category: Category) -> tuple[Entry, ...]:
        return self.entries.get(category, ())

    def place(self, category: Category, figure: int) -> int | None:
        """Where ``figure`` would rank now (0: first), after every equal figure; ``None``
        when it would not be kept."""
        probe = Entry(category, "???", figure, "", order=2**63)
        rank = sum(1 for e in self.top(category) if e.beats(probe))
        return rank if rank < self.size else None

    def with_entry(self, entry: Entry) -> FameBoard:
        """The board with ``entry`` in its place (and the category cut to ``size``)."""
        kept = sorted((*self.top(entry.category), entry), key=_rank_key)
        entries = dict(self.entries)
        entries[entry.category] = tuple(kept[: self.size])
        return FameBoard(self.size, entries)

    def resized(self, size: int) -> FameBoard:
        return FameBoard(size, {c: e[:size] for c, e in self.entries.items()})

    @classmethod
    def of(cls, entries: Iterable[Entry], size: int = DEFAULT_SIZE) -> FameBoard:
        """The board of stored entries (each category ranked and cut to ``size``)."""
        board = cls(size)
        for entry in sorted(entries, key=lambda e: e.order):
            board = board.with_entry(entry)
        return board


def _rank_key(entry: Entry) -> tuple[int, int]:
    figure = entry.figure if entry.category.lower_is_better else -entry.figure
    return (figure, entry.order)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A figure a person set in one game, for one category (``player``: their seat)."""

    player: int
    category: Category
    figure: int


def candidates(
    summary: GameSummary,
    seats: Sequence[Seat],
    cpu_levels: Sequence[int | None],
    streaks: Sequence[int] = (0, 0),
) -> list[Candidate]:
    """The figures each person set in a game that ended (``streaks``: each seat's winning
    streak, this game included). Abandoned games set none."""
    if summary.termination is None or not summary.finished:
        return []
    out: list[Candidate] = []
    winner = summary.winner
    end_ms = (summary.end_t_ns or 0) // MS
    for p in (0, 1):
        if seats[p] is not Seat.HUMAN:
            continue
        other = 1 - p
        if winner == p:
            if seats[other] is Seat.CPU:
                cpu = cpu_levels[other]
                if cpu is not None:
                    out.append(Candidate(p, Category.fastest_win_against(cpu), end_ms))
            else:
                out.append(Candidate(p, Category.FASTEST_TWO_PLAYER_WIN, end_ms))
            if streaks[p] > 0:
                out.append(Candidate(p, Category.LONGEST_STREAK, streaks[p]))
        closest = summary.closest_race
        if closest is not None and closest.winner == p and closest.margin_ns > 0:
            out.append(Candidate(p, Category.CLOSEST_RACE_WON, closest.margin_ns))
        if summary.plays[p] > 0:
            out.append(Candidate(p, Category.MOST_PLAYS, summary.plays[p]))
    return out


class Streaks:
    """Each seat's run of games won in a row in one visit to the cabinet: a loss, a draw
    or the cabinet going back to attract (the players left: :meth:`player_left`) ends
    it. A visit is one match (best of 1, 3 or 5), since attract follows every match."""

    def __init__(self) -> None:
        self.current = [0, 0]

    def game_ended(self, winner: int | None, seats: Sequence[Seat]) -> tuple[int, int]:
        """Count a finished game; returns each seat's streak with it."""
        for p in (0, 1):
            if seats[p] is Seat.HUMAN and winner == p:
                self.current[p] += 1
            else:
                self.current[p] = 0
        return (self.current[0], self.current[1])

    def player_left(self) -> None:
        self.current = [0, 0]


def kept_places(board: FameBoard, found: Sequence[Candidate]) -> list[Candidate]:
    """The candidates that make the board, as if entered one after another in order (a
    later one may push an earlier one of the same game off a full category)."""
    next_order = 1 + max((e.order for c in board.entries.values() for e in c), default=0)
    trial = board
    orders: dict[int, Candidate] = {}
    for k, candidate in enumerate(found):
        if trial.place(candidate.category, candidate.figure) is None:
            continue
        order = next_order + k
        orders[order] = candidate
        trial = trial.with_entry(Entry(candidate.category, BLANK, candidate.figure, "", order))
    kept = {e.order for c in trial.entries.values() for e in c}
    return [c for order, c in orders.items() if order in kept]
