"""Totals over many games: what ``spit-cabinet simulate`` reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.events import Termination
from game.summary import GameSummary


@dataclass(slots=True)
class Tally:
    """Running totals over game summaries (see :func:`game.summary.summarize`)."""

    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    unfinished: int = 0
    blocked_ends: int = 0
    plays: int = 0
    virtual_ns: int = 0
    spits: int = 0
    beaten: int = 0
    reordered_races: int = 0
    ties: int = 0
    late_edges: int = 0
    closest_race_ns: int | None = None

    def add(self, summary: GameSummary, duration_ns: int) -> None:
        self.games += 1
        if not summary.finished or summary.abandoned:
            self.unfinished += 1
        elif summary.draw:
            self.draws += 1
        else:
            assert summary.winner is not None  # finished, not abandoned, not drawn
            self.wins[summary.winner] += 1
        if summary.termination is Termination.BLOCKED:
            self.blocked_ends += 1
        self.plays += sum(summary.plays)
        self.virtual_ns += duration_ns
        self.spits += summary.spits
        self.beaten += sum(summary.beaten)
        self.reordered_races += summary.reordered_races
        self.ties += summary.ties
        self.late_edges += summary.late_edges
        closest = summary.closest_race
        if closest is not None and (
            self.closest_race_ns is None or closest.margin_ns < self.closest_race_ns
        ):
            self.closest_race_ns = closest.margin_ns

    def merge(self, other: Tally) -> None:
        for name in ("games", "draws", "unfinished", "blocked_ends", "plays", "virtual_ns"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("spits", "beaten", "reordered_races", "ties", "late_edges"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.wins = [self.wins[0] + other.wins[0], self.wins[1] + other.wins[1]]
        if other.closest_race_ns is not None and (
            self.closest_race_ns is None or other.closest_race_ns < self.closest_race_ns
        ):
            self.closest_race_ns = other.closest_race_ns

    @property
    def mean_plays(self) -> float:
        """Plays per game (0 before the first game)."""
        return self.plays / max(self.games, 1)

    @property
    def mean_virtual_s(self) -> float:
        """Virtual seconds per game (0 before the first game)."""
        return self.virtual_ns / max(self.games, 1) / 1e9

    @property
    def spits_per_game(self) -> float:
        """Spits per game (0 before the first game)."""
        return self.spits / max(self.games, 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": list(self.wins),
            "draws": self.draws,
            "unfinished": self.unfinished,
            "blocked_ends": self.blocked_ends,
            "mean_plays": self.mean_plays,
            "mean_virtual_s": self.mean_virtual_s,
            "spits_per_game": self.spits_per_game,
            "races": {
                "beaten": self.beaten,
                "decided_against_delivery_order": self.reordered_races,
                "ties": self.ties,
                "closest_ns": self.closest_race_ns,
            },
            "late_edges": self.late_edges,
        }


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """What ``spit-cabinet simulate`` reports: the totals over its games, and the names of
    the CPU levels that played them (player 1's first)."""

    tally: Tally
    levels: tuple[str, str]

    def to_json(self) -> dict[str, Any]:
        """:meth:`Tally.to_json` with the levels' names (``levels``)."""
        data = self.tally.to_json()
        data["levels"] = list(self.levels)
        return data
