"""The settings of the rules an operator may change (docs/rules.md, its last section).

Times are in milliseconds in settings and records (``*_ms``); the engine converts them
to integer nanoseconds once, at construction.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from game.units import MS


class RulesError(ValueError):
    """A rules setting is missing, of the wrong type or out of range."""


class TieRule(enum.Enum):
    """How two presses with exactly the same timestamp are ordered (R10)."""

    ALTERNATE = "alternate"
    """Priority alternates between the players, starting from a seeded coin toss."""
    RANDOM = "random"
    """Each tie is a seeded coin toss."""


#: R10's race window (ms): why 2 ms is in docs/input.md, its measurements in bench/README.md.
DEFAULT_RACE_WINDOW_MS = 2.0


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules settings. Defaults are docs/rules.md's."""

    spit_delay_ms: int = 1500
    """R11: the "ready… spit!" countdown when both players are stuck."""
    race_window_ms: float = DEFAULT_RACE_WINDOW_MS
    """R10: how long the referee holds an edge before deciding it (docs/input.md)."""
    beaten_window_ms: int = 500
    """R10: a rejected play counts as *beaten* when the opponent's play that made it
    illegal landed on that pile at most this long before it."""
    ace_wraps: bool = True
    """R2: the ace is next to both king and two. Off: the ace is low only."""
    tie_rule: TieRule = TieRule.ALTERNATE
    """R10: how exact ties are decided."""
    best_of: int = 1
    """Match length: best of 1, 3 or 5 games."""

    def __post_init__(self) -> None:
        _check_number("spit_delay_ms", self.spit_delay_ms, 0, 10_000, integral=True)
        _check_number("race_window_ms", self.race_window_ms, 0, 100, integral=False)
        _check_number("beaten_window_ms", self.beaten_window_ms, 0, 5_000, integral=True)
        if not isinstance(self.ace_wraps, bool):
            raise RulesError(f"ace_wraps must be true or false, got {clipped_repr(self.ace_wraps)}")
        if not isinstance(self.tie_rule, TieRule):
            raise RulesError(f"tie_rule must be a TieRule, got {clipped_repr(self.tie_rule)}")
        _check_number("best_of", self.best_of, 1, 5, integral=True)  # refuses true and 3.0
        if self.best_of not in (1, 3, 5):
            raise RulesError(f"best_of must be 1, 3 or 5, got {self.best_of!r}")

    @property
    def spit_delay_ns(self) -> int:
        return self.spit_delay_ms * MS

    @property
    def race_window_ns(self) -> int:
        return round(self.race_window_ms * MS)

    @property
    def beaten_window_ns(self) -> int:
        return self.beaten_window_ms * MS

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values; :meth:`from_dict` reads them back."""
        data = asdict(self)
        data["tie_rule"] = self.tie_rule.value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Read settings; absent keys take their defaults, unknown keys are an error."""
        if not isinstance(data, Mapping):
            raise RulesError(f"rules must be an object, got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rules setting {clipped_repr(unknown[0])}")
        values = dict(data)
        if "tie_rule" in values:
            try:
                values["tie_rule"] = TieRule(values["tie_rule"])
            except ValueError:
                choices = ", ".join(t.value for t in TieRule)
                raise RulesError(
                    f"tie_rule must be one of {choices}, got {clipped_repr(values['tie_rule'])}"
                ) from None
        return cls(**values)


def _check_number(name: str, value: object, low: float, high: float, *, integral: bool) -> None:
    """``value`` is a number (an ``int`` when ``integral``; never a ``bool``, which Python
    counts as an ``int``) from ``low`` to ``high``."""
    allowed: tuple[type, ...] = (int,) if integral else (int, float)
    if isinstance(value, bool) or not isinstance(value, allowed):
        kind = "a whole number" if integral else "a number"
        raise RulesError(f"{name} must be {kind}, got {clipped_repr(value)}")
    if not low <= value <= high:  # type: ignore[operator]
        raise RulesError(f"{name} must be between {low:g} and {high:g}, got {clipped_repr(value)}")


def clipped_repr(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters: an error message quotes the value it
    refuses, and a value read from a file may be as long as the file."""
    cut = value[:limit] if isinstance(value, (str, bytes)) else value  # not 10 MB of repr
    text = repr(cut)
    return text if len(text) <= limit and cut is value else text[: limit - 3] + "..."
