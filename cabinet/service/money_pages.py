"""The operator's money pages: Pricing (every pricing setting, the credits now and
*Clear credits*) and the meter test (one pulse of the coin meter, and the lockout's
state).

Pricing settings change like every other setting (checked by their own declarations) and
take effect when the menu closes: the coins taken while it was open are credited then, at
the prices it closes with. *Clear credits* asks first (the cursor starts on *No*) and is
committed at once.
"""

from __future__ import annotations

from collections.abc import Callable

from cabinet.money.pricing import money_text
from cabinet.service.kit import ConfirmPage, Item, ListPage, Menu
from cabinet.service.screen import Tone
from cabinet.service.setting_pages import SettingsPage
from cabinet.storage.setting_types import SettingGroup


class PricingPage(SettingsPage):
    """The pricing settings, then the credits on the cabinet and *Clear credits*."""

    def __init__(self) -> None:
        super().__init__(SettingGroup.PRICING)

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        rows = super().items(menu, now_ns)
        money = menu.context.money
        if money is None:
            return rows
        tr = menu.tr
        rows.append(Item(tr.t("service.money.credits_now"), money.credits_text(), tone=Tone.HEAD))
        rows.append(
            Item(tr.t("service.money.clear_credits"), select=self._clear(menu), tone=Tone.WARN)
        )
        return rows

    def _clear(self, menu: Menu) -> Callable[[int], None]:
        def clear(now_ns: int) -> None:
            money = menu.context.money
            assert money is not None
            money.clear_credits()
            self.notice = menu.tr.t("service.money.cleared")

        question = menu.tr.t("service.confirm.clear_credits")
        return lambda now: menu.push(ConfirmPage(question, clear))

    def hint(self, menu: Menu, item: Item | None) -> str:
        if self.notice:
            return self.notice
        return super().hint(menu, item)


class MeterTestPage(ListPage):
    """The coin meter: pulses given and owed, *Pulse the meter once*, and whether the
    lockout lets coins in."""

    title_key = "service.tests.meter"

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        money = menu.context.money
        if money is None:
            return [Item(tr.t("service.money.none"), tone=Tone.HEAD)]
        ledger = money.ledger
        pricing = money.pricing
        accepting = tr.t(
            "service.money.accepting" if money.accepting else "service.money.locked_out"
        )
        return [
            Item(
                tr.t("service.money.meter_pulses"),
                tr.t(
                    "service.money.meter_counts",
                    value=str(ledger.meter_done + ledger.meter_tests),
                    count=ledger.meter_owed,
                ),
                tone=Tone.HEAD,
            ),
            Item(tr.t("service.money.meter_test"), select=self._pulse(menu)),
            Item(tr.t("service.money.lockout"), accepting, tone=Tone.HEAD),
            Item(
                tr.t("service.money.earnings"),
                money_text(menu.store.audits.money.lifetime.earnings_cents, pricing.currency),
                tone=Tone.HEAD,
            ),
        ]

    def _pulse(self, menu: Menu) -> Callable[[int], None]:
        def pulse(now_ns: int) -> None:
            money = menu.context.money
            assert money is not None
            money.meter_test()
            self.notice = menu.tr.t("service.money.meter_pulsed")

        return pulse
