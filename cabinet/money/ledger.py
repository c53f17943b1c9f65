"""The money ledger: every count of coins, credits and meter pulses, and the invariants
that tie them together.

A :class:`Ledger` is a frozen value of whole numbers; each event makes a new one
(:meth:`Ledger.insert`, :meth:`Ledger.release_pending`, :meth:`Ledger.service_credit`,
:meth:`Ledger.spend`, :meth:`Ledger.clear_credits`, :meth:`Ledger.meter_pulsed`), and the
keeper stores the new one in the same transaction as the audits before anyone sees it.
The invariants (:meth:`Ledger.check`, and ``docs/pricing.md``):

1. coin units in = units turned into credits + units held (the fraction) + units pending
   (coins taken while the service menu was open) + units cleared;
2. credits granted (paid, bonus included, and service) = credits spent + credits cleared
   + credits on the cabinet, and no more credits were bought than units turned into
   credits (a credit costs at least one unit);
3. meter pulses done + meter pulses owed = coin units in.

>>> from cabinet.money.pricing import Pricing
>>> p = Pricing(free_play=False, units_per_credit=2)
>>> ledger = Ledger().insert(1, p, units=1).insert(1, p, units=1)
>>> ledger.credits, ledger.units_held, ledger.meter_owed
(1, 0, 2)
>>> ledger.check()
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Final

from cabinet.money.pricing import MECHANISMS, Pricing
from game.values import is_int


class LedgerError(ValueError):
    """An event the ledger cannot take (spending credits that are not there), or a
    ledger whose counts break an invariant."""


@dataclass(frozen=True, slots=True)
class Ledger:
    """The cabinet's money counts since it was first started (never reset)."""

    coins1: int = 0
    """Coins taken by mechanism 1."""
    coins2: int = 0
    """Coins taken by mechanism 2."""
    units_in: int = 0
    """Coin units of every coin taken."""
    units_converted: int = 0
    """Units turned into credits."""
    units_held: int = 0
    """Units towards the next credit (fewer than a credit's worth when last converted)."""
    units_pending: int = 0
    """Units of coins taken while the service menu was open, credited when it closes."""
    units_cleared: int = 0
    """Held and pending units the operator cleared with the credits."""
    bonus_progress: int = 0
    """Units counted towards the next bonus since the last game started."""
    credits: int = 0
    """Credits on the cabinet now."""
    credits_paid: int = 0
    """Credits bought with coins, bonus credits included."""
    credits_bonus: int = 0
    """Of :attr:`credits_paid`, those given as a bonus."""
    credits_service: int = 0
    """Credits given with the SERVICE button."""
    credits_spent: int = 0
    credits_cleared: int = 0
    meter_owed: int = 0
    """Meter pulses not given yet (one per coin unit)."""
    meter_done: int = 0
    meter_tests: int = 0
    """Pulses the service menu's meter test gave: the meter reads done + tests."""
    coin_errors: int = 0
    """Pulses of the wrong length, and coin lines held low: nothing credited."""

    # -- events --------------------------------------------------------------------

    def insert(self, mech: int, pricing: Pricing, *, units: int, pending: bool = False) -> Ledger:
        """A coin of mechanism ``mech`` worth ``units`` was taken. It is credited now,
        or when the service menu closes (``pending``)."""
        if mech not in MECHANISMS:
            raise LedgerError(f"the coin mechanisms are 1 and 2, got {mech!r}")
        if not is_int(units) or units < 1:
            raise LedgerError(f"a coin is worth at least one unit, got {units!r}")
        taken = dataclasses.replace(
            self,
            coins1=self.coins1 + (mech == 1),
            coins2=self.coins2 + (mech == 2),
            units_in=self.units_in + units,
            meter_owed=self.meter_owed + units,
        )
        if pending:
            return dataclasses.replace(taken, units_pending=taken.units_pending + units)
        return taken._convert(units, pricing)

    def release_pending(self, pricing: Pricing) -> Ledger:
        """The service menu closed: credit the coins taken meanwhile at the pricing now in
        force (and any held units a lower price now makes a credit)."""
        pending = self.units_pending
        return dataclasses.replace(self, units_pending=0)._convert(pending, pricing)

    def service_credit(self) -> Ledger:
        """The SERVICE button gave a credit."""
        return dataclasses.replace(
            self, credits=self.credits + 1, credits_service=self.credits_service + 1
        )

    def spend(self, credits: int) -> Ledger:
        """A match started for ``credits`` (0 in free play); the bonus count restarts."""
        if not is_int(credits) or credits < 0:
            raise LedgerError(f"a price is a whole number of credits, got {credits!r}")
        if credits > self.credits:
            raise LedgerError(f"{credits} credits spent with {self.credits} on the cabinet")
        return dataclasses.replace(
            self,
            credits=self.credits - credits,
            credits_spent=self.credits_spent + credits,
            bonus_progress=0,
        )

    def clear_credits(self) -> Ledger:
        """The operator cleared the credits: the credits, the held fraction and any
        pending units go (counted as cleared), the bonus count restarts."""
        return dataclasses.replace(
            self,
            credits=0,
            credits_cleared=self.credits_cleared + self.credits,
            units_held=0,
            units_pending=0,
            units_cleared=self.units_cleared + self.units_held + self.units_pending,
            bonus_progress=0,
        )

    def meter_pulsed(self) -> Ledger:
        """The meter was given one owed pulse."""
        if self.meter_owed < 1:
            raise LedgerError("a meter pulse was given with none owed")
        return dataclasses.replace(
            self, meter_owed=self.meter_owed - 1, meter_done=self.meter_done + 1
        )

    def meter_tested(self) -> Ledger:
        """The meter test gave the meter one pulse of its own (not a coin's)."""
        return dataclasses.replace(self, meter_tests=self.meter_tests + 1)

    def coin_error(self) -> Ledger:
        return dataclasses.replace(self, coin_errors=self.coin_errors + 1)

    def _convert(self, units: int, pricing: Pricing) -> Ledger:
        held = self.units_held + units
        credits, held = divmod(held, pricing.units_per_credit)
        progress = self.bonus_progress + units
        bonus = 0
        if pricing.bonus_units > 0 and pricing.bonus_credits > 0:
            times, progress = divmod(progress, pricing.bonus_units)
            bonus = times * pricing.bonus_credits
        granted = credits + bonus
        return dataclasses.replace(
            self,
            units_held=held,
            units_converted=self.units_converted + credits * pricing.units_per_credit,
            bonus_progress=progress,
            credits=self.credits + granted,
            credits_paid=self.credits_paid + granted,
            credits_bonus=self.credits_bonus + bonus,
        )

    # -- the invariants ------------------------------------------------------------

    def check(self) -> None:
        """Raise :class:`LedgerError` naming the first invariant that does not hold."""
        for f in fields(self):
            value = getattr(self, f.name)
            if not is_int(value) or value < 0:
                raise LedgerError(f"{f.name} is {value!r}: every count is a whole number >= 0")
        units = self.units_converted + self.units_held + self.units_pending + self.units_cleared
        if self.units_in != units:
            raise LedgerError(
                f"coin units in ({self.units_in}) != converted + held + pending + cleared ({units})"
            )
        granted = self.credits_paid + self.credits_service
        used = self.credits_spent + self.credits_cleared + self.credits
        if granted != used:
            raise LedgerError(
                f"credits granted ({granted}) != spent + cleared + on the cabinet ({used})"
            )
        if self.credits_bonus > self.credits_paid:
            raise LedgerError(f"bonus credits ({self.credits_bonus}) exceed paid credits")
        bought = self.credits_paid - self.credits_bonus
        if bought > self.units_converted:
            raise LedgerError(
                f"credits bought ({bought}) exceed the coin units turned into credits "
                f"({self.units_converted}): a credit without its coin"
            )
        if self.meter_done + self.meter_owed != self.units_in:
            raise LedgerError(
                f"meter pulses done + owed ({self.meter_done} + {self.meter_owed}) != coin "
                f"units in ({self.units_in})"
            )

    # -- storage -------------------------------------------------------------------

    def as_rows(self) -> dict[str, int]:
        """``{count name: value}``, as the database's ``money`` table holds them."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_rows(cls, rows: dict[str, int]) -> Ledger:
        """The ledger of stored counts (names it does not know are ignored, missing
        ones are 0); call :meth:`check` on it."""
        return cls(**{name: rows[name] for name in COUNT_NAMES if name in rows})


COUNT_NAMES: Final[tuple[str, ...]] = tuple(f.name for f in fields(Ledger))
"""The ledger's counts, in storage order."""
