"""The pages that list pages: the main page (the menu's first) and the tests page.

Only these import the other pages; the pages themselves import the kit
(:mod:`.kit`), never this module, so no import goes round in a circle.
"""

from __future__ import annotations

from collections.abc import Callable

from cabinet.service.bookkeeping import BookkeepingPage
from cabinet.service.fairness_page import FairnessPage
from cabinet.service.fame_page import HallOfFamePage
from cabinet.service.fleet_page import FleetPage
from cabinet.service.input_page import InputTestPage, RaceTestPage
from cabinet.service.kit import ConfirmPage, Item, ListPage, Menu, Page
from cabinet.service.last_games import LastGamesPage
from cabinet.service.money_pages import MeterTestPage, PricingPage
from cabinet.service.monitor_page import MonitorTestPage
from cabinet.service.output_page import OutputTestPage
from cabinet.service.screen import Tone
from cabinet.service.setting_pages import SettingsPage
from cabinet.service.sound_page import SoundTestPage
from cabinet.storage.setting_types import SettingGroup


def _opener(menu: Menu, make: Callable[[], Page]) -> Callable[[int], None]:
    return lambda now: menu.push(make())


class MainPage(ListPage):
    """The first page: the menu's items, and *Save and exit*."""

    back_key = "service.main.exit"

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        return [
            Item(
                tr.t("service.main.game"),
                select=_opener(menu, lambda: SettingsPage(SettingGroup.GAME)),
            ),
            Item(
                tr.t("service.main.cabinet"),
                select=_opener(menu, lambda: SettingsPage(SettingGroup.CABINET)),
            ),
            Item(tr.t("service.main.pricing"), select=_opener(menu, PricingPage)),
            Item(tr.t("service.main.tests"), select=_opener(menu, TestsPage)),
            Item(tr.t("service.main.bookkeeping"), select=_opener(menu, BookkeepingPage)),
            Item(tr.t("service.main.last_games"), select=_opener(menu, LastGamesPage)),
            Item(tr.t("service.main.hall_of_fame"), select=_opener(menu, HallOfFamePage)),
            Item(tr.t("service.main.fleet"), select=_opener(menu, FleetPage)),
            Item(
                tr.t("service.main.factory_reset"),
                select=self._factory_reset(menu),
                tone=Tone.WARN,
            ),
        ]

    def _factory_reset(self, menu: Menu) -> Callable[[int], None]:
        def reset(now_ns: int) -> None:
            menu.store.factory_reset()
            self.notice = menu.tr.t("service.factory_reset.done")

        def ask(now_ns: int) -> None:
            menu.push(ConfirmPage(menu.tr.t("service.confirm.factory_reset"), reset))

        return ask

    def hint(self, menu: Menu, item: Item | None) -> str:
        if self.notice:
            return self.notice
        if menu.restart_needed():
            return menu.tr.t("service.restart_note")
        return ""

    def back(self, menu: Menu, now_ns: int) -> None:
        menu.leave(now_ns)


class TestsPage(ListPage):
    """The hardware tests: input, race, fairness (with the jig), output, monitor, sound,
    coin meter."""

    title_key = "service.main.tests"

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        return [
            Item(tr.t("service.tests.input"), select=_opener(menu, InputTestPage)),
            Item(tr.t("service.tests.race"), select=_opener(menu, RaceTestPage)),
            Item(tr.t("service.tests.fairness"), select=_opener(menu, FairnessPage)),
            Item(tr.t("service.tests.output"), select=_opener(menu, OutputTestPage)),
            Item(tr.t("service.tests.monitor"), select=_opener(menu, MonitorTestPage)),
            Item(tr.t("service.tests.sound"), select=_opener(menu, SoundTestPage)),
            Item(tr.t("service.tests.meter"), select=_opener(menu, MeterTestPage)),
        ]
