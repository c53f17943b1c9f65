"""The money keeper: coins in, credits out, each coin committed before it is credited.

:class:`MoneyKeeper` sits in the display process's loop, beside the service menu. Each
frame it takes the coin lines' edges out of the table's batches (and the SERVICE button's
presses outside the menu: a service credit), decides which pulses are coins
(:mod:`.coins`), and for each coin writes the new :class:`~.ledger.Ledger` and the audits
in *one* transaction (:meth:`~cabinet.storage.store.CabinetStore.commit_money`). Only
when that has returned does the credit exist: the screen shows :attr:`MoneyKeeper.ledger`,
which the commit replaces (the store keeps the counts as plain rows, :attr:`CabinetStore.money`,
and knows nothing of what they mean). A cut before the commit loses the pulse as if the
coin had come during the cut; a cut after it loses nothing. The meter is owed the coin's
units in the same transaction, and a pulse is struck off only when it has been given
whole (:mod:`.meter`), so pulses owed at a cut are given after the restart.

While the service menu is open, coins are counted at once and credited when it closes
(at the prices it closes with). The lockout line lets coins in only when they can be
kept: not in free play, below the maximum credits, and while the data is being saved.

``checkpoint(step)`` is called at each :class:`MoneyStep` of a coin's way: the power-cut
test stops the process there; it does nothing on the cabinet.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from cabinet.inputs.controls import SERVICE
from cabinet.inputs.debounce import OperatorEdge, SwitchStuck
from cabinet.money.coins import Coin, CoinDetector, CoinError, CoinErrorKind, CoinEvent
from cabinet.money.ledger import Ledger, LedgerError
from cabinet.money.meter import MeterPulser
from cabinet.money.outputs import CoinLines, NoLines
from cabinet.money.pricing import PricePer, Pricing, credits_text
from cabinet.money.shown import CreditsShown
from cabinet.storage.audits import MoneyCounts
from cabinet.storage.pricing_settings import (
    BONUS_CREDITS,
    BONUS_UNITS,
    COIN1_CENTS,
    COIN1_UNITS,
    COIN2_CENTS,
    COIN2_UNITS,
    COIN_PULSE_MAX_MS,
    COIN_PULSE_MIN_MS,
    CPU_GAME_COSTS,
    CREDITS_PER_GAME,
    CURRENCY,
    FREE_PLAY,
    MAX_CREDITS,
    METER_OFF_MS,
    METER_ON_MS,
    PRICE_PER,
    UNITS_PER_CREDIT,
)
from cabinet.storage.problems import ProblemKind, StorageError, StorageProblem
from cabinet.storage.settings import Settings
from cabinet.storage.store import CabinetStore

log = logging.getLogger("spit-cabinet")

T = TypeVar("T")


class MoneyStep(enum.Enum):
    """The steps of a coin's way that :class:`MoneyKeeper` reports to its checkpoint."""

    COIN_SEEN = "coin-seen"
    COIN_COMMITTED = "coin-committed"
    METER_STARTED = "meter-started"
    METER_ENDED = "meter-ended"
    METER_COMMITTED = "meter-committed"
    PAID = "paid"


Checkpoint = Callable[[MoneyStep], None]


def _nothing(step: MoneyStep) -> None:
    return None


def settings_pricing(settings: Settings) -> Pricing:
    """The pricing settings as the money keeper takes them."""
    return Pricing(
        free_play=settings.get(FREE_PLAY),
        coin_units=(settings.get(COIN1_UNITS), settings.get(COIN2_UNITS)),
        coin_cents=(settings.get(COIN1_CENTS), settings.get(COIN2_CENTS)),
        currency=settings.get(CURRENCY),
        units_per_credit=settings.get(UNITS_PER_CREDIT),
        credits_per_game=settings.get(CREDITS_PER_GAME),
        price_per=PricePer(settings.get(PRICE_PER)),
        bonus_units=settings.get(BONUS_UNITS),
        bonus_credits=settings.get(BONUS_CREDITS),
        max_credits=settings.get(MAX_CREDITS),
        cpu_game_costs=settings.get(CPU_GAME_COSTS),
    )


def stored_ledger(counts: Mapping[str, int]) -> tuple[Ledger, list[StorageProblem]]:
    """The ledger of the stored ``counts`` (:attr:`CabinetStore.money`), and, when they
    break an invariant, the problem saying so: they are kept as they are all the same
    (money is never put right by guessing)."""
    ledger = Ledger.from_rows(dict(counts))
    try:
        ledger.check()
    except LedgerError as exc:
        problem = StorageProblem(
            ProblemKind.UNREADABLE_DATA,
            f"the database's money counts disagree ({exc}); they are kept as stored",
            subject="money counts",
        )
        logging.getLogger("cabinet.storage").warning("%s", problem.message)
        return ledger, [problem]
    return ledger, []


def _credits_bought(before: Ledger, after: Ledger) -> MoneyCounts:
    """The paid and bonus credits from ``before`` to ``after``, as audit counts."""
    return MoneyCounts(
        paid_credits=after.credits_paid - before.credits_paid,
        bonus_credits=after.credits_bonus - before.credits_bonus,
    )


class MoneyKeeper:
    """The cabinet's coins, credits, meter and lockout over ``store``."""

    def __init__(
        self,
        store: CabinetStore,
        *,
        lines: CoinLines | None = None,
        checkpoint: Checkpoint = _nothing,
    ) -> None:
        self.store = store
        ledger, problems = stored_ledger(store.money)
        store.problems.extend(problems)
        self._ledger = ledger
        self.lines = lines if lines is not None else NoLines()
        self.checkpoint = checkpoint
        self.in_service = False
        self.failed = False
        """A money commit failed: the counts live on in memory, coins are locked out."""
        self.meter = MeterPulser(
            self.lines.meter,
            on_ms=store.settings.get(METER_ON_MS),
            off_ms=store.settings.get(METER_OFF_MS),
        )
        self.meter.queue(ledger.meter_owed)  # owed before a restart: given now
        self._configure(store.settings)
        self._set_lockout()

    def _configure(self, settings: Settings) -> None:
        self.pricing: Pricing = settings_pricing(settings)
        self.detector = CoinDetector(
            min_ms=settings.get(COIN_PULSE_MIN_MS), max_ms=settings.get(COIN_PULSE_MAX_MS)
        )
        self.meter.retime(settings.get(METER_ON_MS), settings.get(METER_OFF_MS))

    # -- what is shown -----------------------------------------------------------------

    @property
    def ledger(self) -> Ledger:
        """The counts as last committed (or, when saving failed, as kept in memory)."""
        return self._ledger

    @property
    def credits(self) -> int:
        return self.ledger.credits

    def credits_text(self) -> str:
        """``3``, ``1/2``, ``3 1/2``: the credits as the screen shows them."""
        ledger = self.ledger
        return credits_text(ledger.credits, ledger.units_held, self.pricing.units_per_credit)

    def shown(self, *, cpu_allowed: bool) -> CreditsShown:
        """The screens' money line: free play, or the credits and the price."""
        pricing = self.pricing
        return CreditsShown(
            free_play=pricing.free_play,
            credits=self.credits_text(),
            price=pricing.credits_per_game,
            per_match=pricing.price_per is PricePer.MATCH,
            one_may_start=self.may_start(1, cpu_allowed),
            two_may_start=self.may_start(2, False),
        )

    @property
    def accepting(self) -> bool:
        """Whether the lockout lets coins in now."""
        return (
            self.pricing.accepts_coins(self.ledger.credits)
            and self.store.saving
            and not self.failed
        )

    # -- the loop ----------------------------------------------------------------------

    def take(self, batch: Sequence[T]) -> list[T]:
        """Take the coin lines' edges, and SERVICE presses while the menu is closed, out
        of a batch from the table; returns the rest, in order."""
        rest: list[T] = []
        for item in batch:
            if isinstance(item, OperatorEdge | SwitchStuck) and CoinDetector.is_coin_line(item):
                for event in self.detector.take(item):
                    self._coin_event(event)
                if isinstance(item, SwitchStuck):
                    rest.append(item)  # still counted as a stuck switch
            elif (
                isinstance(item, OperatorEdge)
                and item.control == SERVICE
                and item.pressed
                and not self.in_service
            ):
                self.service_credit()
            else:
                rest.append(item)
        return rest

    def tick(self, now_ns: int) -> None:
        """Time reached ``now_ns``: a held coin line, and the meter's pulses."""
        for event in self.detector.poll(now_ns):
            self._coin_event(event)
        was_busy = self.meter.busy
        if self.meter.tick(now_ns):
            self.checkpoint(MoneyStep.METER_ENDED)
            self._commit(self.ledger.meter_pulsed())
            self.checkpoint(MoneyStep.METER_COMMITTED)
        if self.meter.busy and not was_busy:
            self.checkpoint(MoneyStep.METER_STARTED)

    def next_due_ns(self) -> int | None:
        """When :meth:`tick` next has something to do, or ``None``."""
        due = [t for t in (self.meter.next_due_ns(), self.detector.next_due_ns()) if t]
        return min(due) if due else None

    # -- coins and credits -------------------------------------------------------------

    def _coin_event(self, event: CoinEvent) -> None:
        if isinstance(event, Coin):
            self._coin(event)
        else:
            self._coin_error(event)

    def _coin(self, coin: Coin) -> None:
        self.checkpoint(MoneyStep.COIN_SEEN)
        before = self.ledger
        units = self.pricing.units_of(coin.mech)
        after = before.insert(coin.mech, self.pricing, units=units, pending=self.in_service)
        self._commit(after, self._counted(coin.mech, units, before, after))
        self.checkpoint(MoneyStep.COIN_COMMITTED)
        self.meter.queue(units)
        log.info(
            "coin %d: %d unit(s), pulse %.1f ms; credits %s",
            coin.mech,
            units,
            coin.length_ns / 1e6,
            self.credits_text(),
        )

    def _counted(self, mech: int, units: int, before: Ledger, after: Ledger) -> MoneyCounts:
        """A coin's counts: the coin, its units and worth, and the credits it bought."""
        counted = _credits_bought(before, after)
        counted.coins1, counted.coins2 = int(mech == 1), int(mech == 2)
        counted.coin_units = units
        counted.earnings_cents = self.pricing.cents_of(mech)
        return counted

    def _coin_error(self, error: CoinError) -> None:
        counted = MoneyCounts(coin_errors1=int(error.mech == 1), coin_errors2=int(error.mech == 2))
        # A line held low is a fault the fleet is told of, in the same transaction.
        fault = None
        if error.kind is CoinErrorKind.HELD_LOW:
            fault = {"fault": "coin_line_held_low", "state": "raised", "mech": error.mech}
        self._commit(self.ledger.coin_error(), counted, fault)  # logged once committed
        length = "held low" if error.length_ns is None else f"{error.length_ns / 1e6:.1f} ms"
        log.warning("coin %d: no coin (%s, %s)", error.mech, error.kind.value, length)

    def service_credit(self) -> None:
        """The SERVICE button's free credit (no coin, no meter pulse, no earnings)."""
        self._commit(self.ledger.service_credit(), MoneyCounts(service_credits=1))
        log.info("service credit: credits %s", self.credits_text())

    def cost(self, humans: int, cpu: bool) -> int:
        """Credits a match of ``humans`` people (with the CPU: ``cpu``) costs now."""
        return self.pricing.cost(humans=humans, cpu=cpu)

    def may_start(self, humans: int, cpu: bool) -> bool:
        """Whether the credits pay for such a match."""
        return self.cost(humans, cpu) <= self.ledger.credits

    def pay(self, humans: int, cpu: bool) -> bool:
        """Start a match: spend its price (committed before the game starts). Returns
        ``False``, spending nothing, when the credits do not cover it."""
        price = self.cost(humans, cpu)
        if price > self.ledger.credits:
            return False
        counted = MoneyCounts(
            credits_spent=price, paid_games=int(price > 0), free_play_games=int(price == 0)
        )
        self._commit(self.ledger.spend(price), counted)
        self.checkpoint(MoneyStep.PAID)
        return True

    @property
    def needs_credit(self) -> bool:
        """Games cost credits (not free play)."""
        return not self.pricing.free_play

    # -- the service menu --------------------------------------------------------------

    def menu_opened(self) -> None:
        """Coins from now on are counted and wait for the menu to close."""
        self.in_service = True

    def menu_closed(self, settings: Settings) -> None:
        """The menu closed with ``settings``: the new prices, pulse and meter times; the
        coins taken meanwhile are credited at those prices."""
        self.in_service = False
        self._configure(settings)
        before = self.ledger
        after = before.release_pending(self.pricing)
        if after != before:
            self._commit(after, _credits_bought(before, after))
        else:
            self._set_lockout()

    def clear_credits(self) -> None:
        """The operator's *Clear credits*: credits, part credit and pending coins go."""
        cleared = self.ledger.credits
        self._commit(self.ledger.clear_credits(), MoneyCounts(credits_cleared=cleared))
        log.info("credits cleared (%d)", cleared)

    def meter_test(self) -> None:
        """Give the meter one pulse of its own (counted as a test pulse, not a coin)."""
        self._commit(self.ledger.meter_tested())
        self.meter.test()

    # -- internals ---------------------------------------------------------------------

    def _commit(
        self,
        ledger: Ledger,
        counted: MoneyCounts | None = None,
        fault: Mapping[str, object] | None = None,
    ) -> None:
        try:
            ledger.check()
        except LedgerError:  # a bug: say so loudly, and keep every coin all the same
            log.exception("the money counts disagree")
        try:
            self.store.commit_money(ledger.as_rows(), counted, fault=fault)
        except StorageError:
            # The coin was taken: it is credited all the same, kept in memory, and no
            # more coins are let in until the cabinet saves again.
            log.exception("the money counts could not be saved: coins are locked out")
            self.failed = True
            if counted is not None:
                self.store.audits.count_money(counted)
        self._ledger = ledger
        self._set_lockout()

    def _set_lockout(self) -> None:
        self.lines.accept_coins(self.accepting)
