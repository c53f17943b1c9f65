"""The menu's page kinds: a list of rows to move through, a confirm prompt, and the main
page and the tests page built from them.

A page answers :meth:`Page.screen` (what it shows) and :meth:`Page.key` (a menu key); a
page that tests the players' buttons sets :attr:`Page.captures_players`, so their presses
come to :meth:`Page.feed` instead of moving the cursor (TEST and SERVICE still do).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cabinet.inputs.feed import FeedEvent
from cabinet.service.keys import MenuKey
from cabinet.service.screen import MenuScreen, Row
from firmware_bridge.lights import LightState

if TYPE_CHECKING:
    from cabinet.service.menu import ServiceMenu


class Page:
    """One screen of the menu."""

    captures_players = False
    """Player presses go to :meth:`feed` (the input test) rather than moving the cursor."""
    wants_keys = False
    """Raw keyboard keys go to :meth:`raw_key` (the key map editor)."""

    def screen(self, menu: ServiceMenu, now_ns: int) -> MenuScreen:
        raise NotImplementedError

    def key(self, menu: ServiceMenu, key: MenuKey, now_ns: int) -> None:
        if key is MenuKey.BACK:
            menu.pop(now_ns)

    def feed(self, menu: ServiceMenu, item: FeedEvent, now_ns: int) -> None:
        """A feed event (player presses, operator edges, stuck switches), before it is
        read as a menu key."""

    def raw_key(self, menu: ServiceMenu, code: int, now_ns: int) -> None:
        """A keyboard key went down (pygame key code), when :attr:`wants_keys`."""

    def lights(self, menu: ServiceMenu, now_ns: int) -> LightState | None:
        """The lights this page shows; ``None``: the menu's own pattern."""
        return None


@dataclass(frozen=True, slots=True)
class Item:
    """A row of a :class:`ListPage`: ``select`` runs on SELECT/TEST, ``step(direction)``
    on LEFT/RIGHT (and SELECT when there is no ``select``)."""

    label: str
    value: str = ""
    select: Callable[[int], None] | None = None
    step: Callable[[int], None] | None = None
    tone: str = "normal"

    @property
    def selectable(self) -> bool:
        return self.tone != "head"


class ListPage(Page):
    """Rows to move through; the last row is always *Back* (or the main page's *Save and
    exit*), so TEST and SERVICE alone can leave any page."""

    title_key = "service.title"
    back_key = "service.back"

    def __init__(self) -> None:
        self.cursor = 0
        self.notice = ""

    def title(self, menu: ServiceMenu) -> str:
        return menu.tr.t(self.title_key)

    def items(self, menu: ServiceMenu, now_ns: int) -> list[Item]:
        raise NotImplementedError

    def hint(self, menu: ServiceMenu, item: Item | None) -> str:
        """The notice under the rows for the row at the cursor."""
        return self.notice

    def all_items(self, menu: ServiceMenu, now_ns: int) -> list[Item]:
        back = Item(menu.tr.t(self.back_key), select=lambda now: self.back(menu, now))
        return [*self.items(menu, now_ns), back]

    def back(self, menu: ServiceMenu, now_ns: int) -> None:
        menu.pop(now_ns)

    def screen(self, menu: ServiceMenu, now_ns: int) -> MenuScreen:
        items = self.all_items(menu, now_ns)
        self.cursor = self._selectable(items, min(self.cursor, len(items) - 1), 1)
        rows = tuple(Row(i.label, i.value, i.tone) for i in items)
        return MenuScreen(
            self.title(menu),
            rows,
            self.cursor,
            menu.tr.t("service.help.list"),
            self.hint(menu, items[self.cursor]),
        )

    def key(self, menu: ServiceMenu, key: MenuKey, now_ns: int) -> None:
        items = self.all_items(menu, now_ns)
        self.cursor = self._selectable(items, min(self.cursor, len(items) - 1), 1)
        item = items[self.cursor]
        if key in (MenuKey.UP, MenuKey.DOWN, MenuKey.NEXT):
            direction = -1 if key is MenuKey.UP else 1
            self.notice = ""
            self.cursor = self._selectable(items, (self.cursor + direction) % len(items), direction)
        elif key in (MenuKey.LEFT, MenuKey.RIGHT):
            if item.step is not None:
                item.step(-1 if key is MenuKey.LEFT else 1)
        elif key is MenuKey.SELECT:
            if item.select is not None:
                item.select(now_ns)
            elif item.step is not None:
                item.step(1)
        elif key is MenuKey.BACK:
            self.back(menu, now_ns)

    @staticmethod
    def _selectable(items: list[Item], start: int, direction: int) -> int:
        i = start
        for _ in range(len(items)):
            if items[i].selectable:
                return i
            i = (i + direction) % len(items)
        return start


class ConfirmPage(ListPage):
    """ "Are you sure?" with *No* and *Yes*; the cursor starts on *No*, and *Back* is no."""

    def __init__(self, question: str, action: Callable[[int], None]) -> None:
        super().__init__()
        self.question = question
        self.action = action

    def title(self, menu: ServiceMenu) -> str:
        return menu.tr.t("service.confirm.title")

    def all_items(self, menu: ServiceMenu, now_ns: int) -> list[Item]:
        return [
            Item(menu.tr.t("service.confirm.no"), select=lambda now: menu.pop(now)),
            Item(menu.tr.t("service.confirm.yes"), select=self._yes(menu), tone="warn"),
        ]

    def _yes(self, menu: ServiceMenu) -> Callable[[int], None]:
        def yes(now_ns: int) -> None:
            menu.pop(now_ns)
            self.action(now_ns)

        return yes

    def hint(self, menu: ServiceMenu, item: Item | None) -> str:
        return self.question


class MainPage(ListPage):
    """The first page: the menu's items, and *Save and exit*."""

    back_key = "service.main.exit"

    def items(self, menu: ServiceMenu, now_ns: int) -> list[Item]:
        from cabinet.service.bookkeeping import BookkeepingPage
        from cabinet.service.last_games import LastGamesPage
        from cabinet.service.setting_pages import SettingsPage
        from cabinet.storage.setting_types import SettingGroup

        tr = menu.tr

        def opener(make: Callable[[], Page]) -> Callable[[int], None]:
            return lambda now: menu.push(make())

        return [
            Item(tr.t("service.main.game"), select=opener(lambda: SettingsPage(SettingGroup.GAME))),
            Item(
                tr.t("service.main.cabinet"),
                select=opener(lambda: SettingsPage(SettingGroup.CABINET)),
            ),
            Item(tr.t("service.main.tests"), select=opener(TestsPage)),
            Item(tr.t("service.main.bookkeeping"), select=opener(BookkeepingPage)),
            Item(tr.t("service.main.last_games"), select=opener(LastGamesPage)),
            Item(tr.t("service.main.factory_reset"), select=self._factory_reset(menu), tone="warn"),
        ]

    def _factory_reset(self, menu: ServiceMenu) -> Callable[[int], None]:
        def reset(now_ns: int) -> None:
            menu.store.factory_reset()
            self.notice = menu.tr.t("service.factory_reset.done")

        def ask(now_ns: int) -> None:
            menu.push(ConfirmPage(menu.tr.t("service.confirm.factory_reset"), reset))

        return ask

    def hint(self, menu: ServiceMenu, item: Item | None) -> str:
        if self.notice:
            return self.notice
        if menu.restart_needed():
            return menu.tr.t("service.restart_note")
        return ""

    def back(self, menu: ServiceMenu, now_ns: int) -> None:
        menu.leave(now_ns)


class TestsPage(ListPage):
    title_key = "service.main.tests"

    def items(self, menu: ServiceMenu, now_ns: int) -> list[Item]:
        from cabinet.service.input_test import InputTestPage, RaceTestPage
        from cabinet.service.monitor_test import MonitorTestPage
        from cabinet.service.output_test import OutputTestPage
        from cabinet.service.sound_test import SoundTestPage

        tr = menu.tr

        def opener(make: Callable[[], Page]) -> Callable[[int], None]:
            return lambda now: menu.push(make())

        return [
            Item(tr.t("service.tests.input"), select=opener(InputTestPage)),
            Item(tr.t("service.tests.race"), select=opener(RaceTestPage)),
            Item(tr.t("service.tests.output"), select=opener(OutputTestPage)),
            Item(tr.t("service.tests.monitor"), select=opener(MonitorTestPage)),
            Item(tr.t("service.tests.sound"), select=opener(SoundTestPage)),
        ]
