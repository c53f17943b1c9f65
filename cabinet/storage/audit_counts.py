"""The audit counters, as typed values: one dataclass per group of counters
(:class:`AuditGroup`), each field one count. :mod:`cabinet.storage.audits` keeps them
twice (current and lifetime), counts into them and stores them."""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cabinet.inputs.controls import ALL_CONTROLS, Control
from game.units import MS


class AuditGroup(enum.Enum):
    """The groups of counters the operator clears separately."""

    GAMES = "games"
    """Games played, wins, draws, game time."""
    PLAY = "play"
    """Plays, spits, races by margin, ties, late edges."""
    HARDWARE = "hardware"
    """Stuck switches and chatter per button, light link drops."""
    POWER = "power"
    """Power-ons and uptime."""
    MONEY = "money"
    """Coins, credits, earnings and coin errors."""


_MAX = {"merge": "max"}
"""Field metadata: the counter keeps the largest value seen, not a sum."""


@dataclass(slots=True)
class GameCounts:
    """Games played and how they ended. Times in milliseconds."""

    two_player: int = 0
    """Finished games between two people."""
    vs_cpu: int = 0
    """Finished games with a CPU in a seat."""
    abandoned: int = 0
    """Games stopped before their end (idle, the service menu opened)."""
    p1_wins: int = 0
    """Games won by a person in seat 1 (player 1)."""
    p2_wins: int = 0
    """Games won by a person in seat 2."""
    cpu_wins: int = 0
    """Games won by the CPU, in either seat."""
    draws: int = 0
    game_time_ms: int = 0
    """Total time of finished games, from the start's spit to the end."""
    longest_game_ms: int = field(default=0, metadata=_MAX)

    @property
    def finished(self) -> int:
        return self.two_player + self.vs_cpu

    @property
    def played(self) -> int:
        """Every game started: finished and abandoned."""
        return self.finished + self.abandoned

    @property
    def average_game_ms(self) -> float | None:
        """Mean time of a finished game (ms), or ``None`` before the first."""
        return self.game_time_ms / self.finished if self.finished else None


RACE_BUCKETS_MS: tuple[float, ...] = (1, 10, 100)
"""Race margins are counted under 1 ms, under 10 ms, under 100 ms, and 100 ms or more."""


@dataclass(slots=True)
class PlayCounts:
    """What happened during games (finished and abandoned)."""

    plays: int = 0
    """Cards played, both players."""
    spits: int = 0
    """Spits called after both players were stuck (R11)."""
    races_under_1ms: int = 0
    """Races (a play beaten by the opponent's, R10) won by less than 1 ms."""
    races_under_10ms: int = 0
    """… by 1 ms to under 10 ms."""
    races_under_100ms: int = 0
    """… by 10 ms to under 100 ms."""
    races_100ms_or_more: int = 0
    ties: int = 0
    """Presses at exactly the same time, decided by the tie rule."""
    late_edges: int = 0
    """Presses that reached the referee after the race window: the window's health; a
    steady rise means the race window is too short for this cabinet."""

    @property
    def races(self) -> int:
        return (
            self.races_under_1ms
            + self.races_under_10ms
            + self.races_under_100ms
            + self.races_100ms_or_more
        )

    def count_race(self, margin_ns: int) -> None:
        """Count one race won by ``margin_ns``."""
        if margin_ns < RACE_BUCKETS_MS[0] * MS:
            self.races_under_1ms += 1
        elif margin_ns < RACE_BUCKETS_MS[1] * MS:
            self.races_under_10ms += 1
        elif margin_ns < RACE_BUCKETS_MS[2] * MS:
            self.races_under_100ms += 1
        else:
            self.races_100ms_or_more += 1


class ButtonCounts:
    """A count per control (the twelve player buttons, TEST and SERVICE)."""

    __slots__ = ("_counts",)

    def __init__(self, counts: Mapping[Control, int] | None = None) -> None:
        self._counts: dict[Control, int] = {c: 0 for c in ALL_CONTROLS}
        for control, n in (counts or {}).items():
            self._counts[control] = n

    def __getitem__(self, control: Control) -> int:
        return self._counts[control]

    def add(self, control: Control, n: int = 1) -> None:
        if control not in self._counts:
            raise KeyError(f"no such control: {control!r}")
        self._counts[control] += n

    def items(self) -> Iterator[tuple[Control, int]]:
        """``(control, count)`` in :data:`~cabinet.inputs.controls.ALL_CONTROLS` order."""
        return iter(self._counts.items())

    @property
    def total(self) -> int:
        return sum(self._counts.values())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ButtonCounts) and self._counts == other._counts

    def __repr__(self) -> str:
        nonzero = {c.name: n for c, n in self._counts.items() if n}
        return f"ButtonCounts({nonzero!r})"


@dataclass(slots=True)
class HardwareCounts:
    """How the cabinet's parts behaved."""

    stuck: ButtonCounts = field(default_factory=ButtonCounts)
    """Times each button was reported stuck (held far longer than any press)."""
    chatter: ButtonCounts = field(default_factory=ButtonCounts)
    """Bounce edges per button, within the debounce time after a press or release."""
    led_link_drops: int = 0
    """Times the light board's link was lost and had to reconnect."""
    table_restarts: int = 0
    """Times the table process (the game's referee) died and was started again."""


@dataclass(slots=True)
class PowerCounts:
    power_ons: int = 0
    uptime_ms: int = 0
    """Time the cabinet program has run, summed over power-ons (ms)."""
    rollbacks: int = 0
    """Times the software went back to its previous version: a new version that failed
    to start three times in a row, or an operator's ``spit-cabinet-update --rollback``."""


@dataclass(slots=True)
class MoneyCounts:
    """The coins and what they bought (the ledger, :mod:`cabinet.money.ledger`, holds the
    same lifetime figures, written in the same transactions)."""

    coins1: int = 0
    """Coins taken by coin mechanism 1."""
    coins2: int = 0
    """Coins taken by coin mechanism 2."""
    coin_units: int = 0
    """Their worth in coin units (one meter pulse each)."""
    earnings_cents: int = 0
    """Their worth in hundredths of the operator's currency, at the coin values set when
    each was taken."""
    paid_credits: int = 0
    """Credits bought with coins, bonus credits included."""
    bonus_credits: int = 0
    service_credits: int = 0
    """Credits given with the SERVICE button."""
    credits_spent: int = 0
    credits_cleared: int = 0
    paid_games: int = 0
    """Matches started for credits."""
    free_play_games: int = 0
    """Matches started for nothing: free play, or a free game against the CPU."""
    coin_errors1: int = 0
    """Pulses on coin line 1 that were no coin: too short, too long, held low."""
    coin_errors2: int = 0


Counts = GameCounts | PlayCounts | HardwareCounts | PowerCounts | MoneyCounts
C = TypeVar("C", GameCounts, PlayCounts, HardwareCounts, PowerCounts, MoneyCounts)

COUNT_TYPES: dict[AuditGroup, type[Any]] = {
    AuditGroup.GAMES: GameCounts,
    AuditGroup.PLAY: PlayCounts,
    AuditGroup.HARDWARE: HardwareCounts,
    AuditGroup.POWER: PowerCounts,
    AuditGroup.MONEY: MoneyCounts,
}
