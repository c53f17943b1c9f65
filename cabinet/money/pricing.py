"""What coins buy and what a game costs: the operator's pricing, as one frozen value.

Money is counted in *coin units*: each coin mechanism's coin is worth a whole number of
units (``coin1_units``, ``coin2_units``), and ``units_per_credit`` units make a credit.
A bonus gives ``bonus_credits`` extra credits for every ``bonus_units`` units inserted
before the next game starts ("4 coins buy 5 credits" is 1 unit a coin, 1 unit a credit,
1 bonus credit every 4 units). A game costs ``credits_per_game`` per player, or once for
a match (``price_per``); a game against the CPU costs the same or nothing
(``cpu_game_costs``). With ``free_play`` on, nothing costs anything.

Every figure is an integer: nothing here rounds.

>>> p = Pricing(free_play=False, units_per_credit=2)
>>> p.cost(humans=2, cpu=False)
2
>>> credits_text(3, 1, 2)
'3 1/2'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from game.values import is_int


class PricePer(enum.Enum):
    """What ``credits_per_game`` buys."""

    PLAYER = "player"
    """Each player pays for their own seat."""
    MATCH = "match"
    """One price for the match, one player or two."""


class PricingError(ValueError):
    """A pricing figure out of range."""


MECHANISMS: Final = (1, 2)
"""The coin mechanisms, as the operator numbers them (coin 1 and coin 2)."""


@dataclass(frozen=True, slots=True)
class Pricing:
    """The operator's prices (see the module docstring). Defaults: free play."""

    free_play: bool = True
    coin_units: tuple[int, int] = (1, 1)
    """Units a coin of mechanism 1 and of mechanism 2 is worth."""
    coin_cents: tuple[int, int] = (100, 200)
    """What a coin of each mechanism is worth in hundredths of :attr:`currency`."""
    currency: str = "EUR"
    units_per_credit: int = 1
    credits_per_game: int = 1
    price_per: PricePer = PricePer.PLAYER
    bonus_units: int = 0
    """Every this many units inserted before a game starts earn the bonus; 0: no bonus."""
    bonus_credits: int = 0
    max_credits: int = 30
    """Past this many credits the lockout blocks the coin mechanisms."""
    cpu_game_costs: bool = True

    def __post_init__(self) -> None:
        for mech, units in zip(MECHANISMS, self.coin_units, strict=True):
            _at_least(f"coin{mech}_units", units, 1)
        for mech, cents in zip(MECHANISMS, self.coin_cents, strict=True):
            _at_least(f"coin{mech}_cents", cents, 0)
        _at_least("units_per_credit", self.units_per_credit, 1)
        _at_least("credits_per_game", self.credits_per_game, 1)
        _at_least("bonus_units", self.bonus_units, 0)
        _at_least("bonus_credits", self.bonus_credits, 0)
        _at_least("max_credits", self.max_credits, 1)
        if not isinstance(self.price_per, PricePer):
            raise PricingError(f"price_per must be a PricePer, got {self.price_per!r}")

    def units_of(self, mech: int) -> int:
        """The units a coin of mechanism ``mech`` (1 or 2) is worth."""
        return self.coin_units[_index(mech)]

    def cents_of(self, mech: int) -> int:
        """What a coin of mechanism ``mech`` (1 or 2) is worth, in hundredths."""
        return self.coin_cents[_index(mech)]

    def cost(self, *, humans: int, cpu: bool) -> int:
        """Credits a match of ``humans`` people (1 or 2; with the CPU when ``cpu``) costs."""
        if humans not in (1, 2):
            raise PricingError(f"a match has 1 or 2 people, got {humans!r}")
        if self.free_play or (cpu and not self.cpu_game_costs):
            return 0
        if self.price_per is PricePer.MATCH:
            return self.credits_per_game
        return self.credits_per_game * humans

    def accepts_coins(self, credits: int) -> bool:
        """Whether the coin mechanisms should take coins with ``credits`` on the
        cabinet: not in free play, and not at or past the maximum."""
        return not self.free_play and credits < self.max_credits


def _index(mech: int) -> int:
    if mech not in MECHANISMS:
        raise PricingError(f"the coin mechanisms are 1 and 2, got {mech!r}")
    return mech - 1


def _at_least(name: str, value: object, low: int) -> None:
    if not is_int(value) or value < low:
        raise PricingError(f"{name} must be a whole number of at least {low}, got {value!r}")


def credits_text(credits: int, units_held: int, units_per_credit: int) -> str:
    """Credits as the screen shows them: ``3``, ``1/2``, ``3 1/2`` (the fraction is the
    units held towards the next credit, in lowest terms)."""
    part = Fraction(units_held, units_per_credit) if units_held else Fraction(0)
    if not part:
        return str(credits)
    fraction = f"{part.numerator}/{part.denominator}"
    return fraction if credits == 0 else f"{credits} {fraction}"


CURRENCY_DECIMALS: Final[dict[str, int]] = {"JPY": 0, "HUF": 0, "ISK": 0, "KRW": 0}
"""Currencies shown without hundredths when an amount has none; others always show two."""


def money_text(cents: int, currency: str) -> str:
    """An amount in hundredths as the operator reads it: ``EUR 12.50``, ``HUF 1200``."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    if CURRENCY_DECIMALS.get(currency, 2) == 0 and part == 0:
        return f"{currency} {sign}{whole}"
    return f"{currency} {sign}{whole}.{part:02d}"
