"""Which pulses on a coin line are coins: the length between the line going low and
coming back, by the edges' own timestamps.

A coin mechanism pulls its line low for one pulse per coin. :class:`CoinDetector` takes
the coin lines' debounced edges (``OperatorEdge`` of ``coin1``/``coin2``, kernel
timestamps on the cabinet) and decides, per pulse:

- a low pulse from ``min_ms`` to ``max_ms`` long (both included) is a :class:`Coin`;
- a shorter one is a :class:`CoinError` ``SHORT``, a longer one ``LONG`` (decided at its
  release, or at ``held_ms`` if it has not come back by then: ``HELD_LOW``, once, and its
  eventual release adds nothing);
- a coin line reported stuck (held low since the cabinet started) is ``HELD_LOW`` too.

It reads no clock: :meth:`CoinDetector.poll` takes ``now_ns``.

>>> from cabinet.inputs.controls import COIN1
>>> from cabinet.inputs.debounce import OperatorEdge
>>> d = CoinDetector(min_ms=20, max_ms=150)
>>> d.take(OperatorEdge(COIN1, True, 1_000_000_000))
[]
>>> d.take(OperatorEdge(COIN1, False, 1_060_000_000))
[Coin(mech=1, t_ns=1060000000, length_ns=60000000)]
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Final

from cabinet.inputs.controls import COIN1, COIN2, Control
from cabinet.inputs.debounce import OperatorEdge, SwitchStuck
from game.units import MS

DEFAULT_MIN_MS: Final = 20
DEFAULT_MAX_MS: Final = 150
HELD_LOW_MS: Final = 1_000
"""A line low this long is held low (a jammed coin, a broken wire, NC wiring), not a
long pulse."""

COIN_CONTROLS: Final[dict[Control, int]] = {COIN1: 1, COIN2: 2}
"""The coin lines, and the mechanism each belongs to."""


class CoinErrorKind(enum.Enum):
    SHORT = "short"
    LONG = "long"
    HELD_LOW = "held_low"


@dataclass(frozen=True, slots=True)
class Coin:
    """A coin in mechanism ``mech`` (1 or 2): its pulse ended at ``t_ns`` after
    ``length_ns`` low."""

    mech: int
    t_ns: int
    length_ns: int


@dataclass(frozen=True, slots=True)
class CoinError:
    """A pulse that is no coin: ``length_ns`` is ``None`` for a line held low."""

    mech: int
    kind: CoinErrorKind
    t_ns: int
    length_ns: int | None


CoinEvent = Coin | CoinError


@dataclass(slots=True)
class LineStatus:
    """One coin line, for the input test: is it low, the last pulse, the counts."""

    mech: int
    low: bool = False
    last_pulse_ns: int | None = None
    coins: int = 0
    errors: int = 0
    held_low: bool = False
    _down_since: int | None = field(default=None, repr=False)


class CoinDetector:
    """Coins and coin errors from the coin lines' edges (see the module docstring)."""

    def __init__(
        self,
        *,
        min_ms: int = DEFAULT_MIN_MS,
        max_ms: int = DEFAULT_MAX_MS,
        held_ms: int = HELD_LOW_MS,
    ) -> None:
        if not 0 < min_ms < max_ms < held_ms:
            raise ValueError(
                f"coin pulses need 0 < min_ms < max_ms < held_ms; got {min_ms}, {max_ms}, {held_ms}"
            )
        self.min_ns = min_ms * MS
        self.max_ns = max_ms * MS
        self.held_ns = held_ms * MS
        self.lines: dict[int, LineStatus] = {m: LineStatus(m) for m in COIN_CONTROLS.values()}

    @staticmethod
    def is_coin_line(item: object) -> bool:
        """Whether ``item`` is an edge or stuck notice of a coin line."""
        return isinstance(item, OperatorEdge | SwitchStuck) and item.control in COIN_CONTROLS

    def take(self, item: OperatorEdge | SwitchStuck) -> list[CoinEvent]:
        """One coin line's edge (or stuck notice); returns what it decided."""
        line = self.lines[COIN_CONTROLS[item.control]]
        if isinstance(item, SwitchStuck):
            line.low = True
            return self._held(line, item.t_ns)
        if item.pressed:
            line.low = True
            line._down_since = item.t_ns
            return []
        line.low = False
        since, line._down_since = line._down_since, None
        if line.held_low:
            line.held_low = False
            return []
        if since is None:  # low since before the cabinet started: not a whole pulse
            return []
        length = item.t_ns - since
        line.last_pulse_ns = length
        if length < self.min_ns:
            return [self._error(line, CoinErrorKind.SHORT, item.t_ns, length)]
        if length > self.max_ns:
            return [self._error(line, CoinErrorKind.LONG, item.t_ns, length)]
        line.coins += 1
        return [Coin(line.mech, item.t_ns, length)]

    def poll(self, now_ns: int) -> list[CoinEvent]:
        """Time has reached ``now_ns``: a line low for the held time is held low."""
        out: list[CoinEvent] = []
        for line in self.lines.values():
            since = line._down_since
            if since is not None and not line.held_low and now_ns - since >= self.held_ns:
                out.extend(self._held(line, since + self.held_ns))
        return out

    def next_due_ns(self) -> int | None:
        """When :meth:`poll` could next report a held line, or ``None``."""
        due = [
            line._down_since + self.held_ns
            for line in self.lines.values()
            if line._down_since is not None and not line.held_low
        ]
        return min(due) if due else None

    def _held(self, line: LineStatus, t_ns: int) -> list[CoinEvent]:
        if line.held_low:
            return []
        line.held_low = True
        return [self._error(line, CoinErrorKind.HELD_LOW, t_ns, None)]

    @staticmethod
    def _error(line: LineStatus, kind: CoinErrorKind, t_ns: int, length: int | None) -> CoinError:
        line.errors += 1
        return CoinError(line.mech, kind, t_ns, length)
