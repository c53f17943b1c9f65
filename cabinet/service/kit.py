"""What every page of the menu is made from: the page kinds, a list's rows, the confirm
prompt, and what a page reaches of the menu it is on.

A page answers :meth:`Page.screen` (what it shows) and :meth:`Page.key` (a menu key); a
page that tests the players' buttons sets :attr:`Page.captures_players`, so their presses
come to :meth:`Page.feed` instead of moving the cursor (TEST and SERVICE still do).

This module imports no page and not the menu: pages import it, the pages that list pages
(:mod:`.main_page`) import those, and the menu (:mod:`.menu`) imports the main page.
``tests/test_layers.py`` checks that no import in ``cabinet/service/`` goes round in a
circle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from cabinet.inputs.feed import FeedEvent
from cabinet.service.keys import MenuKey
from cabinet.service.screen import MenuScreen, Row, Tone
from firmware_bridge.lights import LightState

if TYPE_CHECKING:
    from cabinet.i18n import Translator
    from cabinet.service.context import ServiceContext
    from cabinet.service.pin import PinGate
    from cabinet.storage.store import CabinetStore


class Menu(Protocol):
    """What a page reaches of the menu it is on: what :class:`~.menu.ServiceMenu` offers
    its pages. Pages are typed against this, so they never import the menu, which imports
    them."""

    @property
    def context(self) -> ServiceContext: ...

    @property
    def store(self) -> CabinetStore: ...

    @property
    def tr(self) -> Translator:
        """The menu's language as it is now."""
        ...

    @property
    def gate(self) -> PinGate: ...

    def restart_needed(self) -> list[str]:
        """Settings changed since the menu opened that take effect at the next start."""
        ...

    def push(self, page: Page) -> None: ...

    def pop(self, now_ns: int) -> None:
        """Back to the page before; leaving the first page closes the menu."""

    def replace(self, page: Page) -> None: ...

    def leave(self, now_ns: int) -> None:
        """Close the menu: the main loop saves and applies the settings."""

    def cancel(self, now_ns: int) -> None:
        """Close without having opened (a cancelled PIN): nothing was changed."""


class Page:
    """One screen of the menu."""

    captures_players = False
    """Player presses go to :meth:`feed` (the input test) rather than moving the cursor."""
    wants_keys = False
    """Raw keyboard keys go to :meth:`raw_key` (the key map editor)."""

    def screen(self, menu: Menu, now_ns: int) -> MenuScreen:
        raise NotImplementedError

    def key(self, menu: Menu, key: MenuKey, now_ns: int) -> None:
        if key is MenuKey.BACK:
            menu.pop(now_ns)

    def feed(self, menu: Menu, item: FeedEvent, now_ns: int) -> None:
        """A feed event (player presses, operator edges, stuck switches), before it is
        read as a menu key."""

    def raw_key(self, menu: Menu, code: int, now_ns: int) -> None:
        """A keyboard key went down (pygame key code), when :attr:`wants_keys`."""

    def tick(self, menu: Menu, now_ns: int) -> None:
        """Once a frame while the page is on top (a test under way sees its time pass)."""

    def lights(self, menu: Menu, now_ns: int) -> LightState | None:
        """The lights this page shows; ``None``: the menu's own pattern."""
        return None


@dataclass(frozen=True, slots=True)
class Item:
    """A row of a :class:`ListPage`: ``select`` runs on SELECT/TEST, ``step(direction)``
    on LEFT/RIGHT (and SELECT when there is no ``select``). A :attr:`Tone.HEAD` row is
    not selectable: the cursor passes over it, as over a ``shown_only`` row of any tone
    (a result in the colour of its verdict)."""

    label: str
    value: str = ""
    select: Callable[[int], None] | None = None
    step: Callable[[int], None] | None = None
    tone: Tone = Tone.NORMAL
    shown_only: bool = False

    @property
    def selectable(self) -> bool:
        return self.tone != Tone.HEAD and not self.shown_only


class ListPage(Page):
    """Rows to move through; the last row is always *Back* (or the main page's *Save and
    exit*), so TEST and SERVICE alone can leave any page."""

    title_key = "service.title"
    back_key = "service.back"

    def __init__(self) -> None:
        self.cursor = 0
        self.notice = ""

    def title(self, menu: Menu) -> str:
        return menu.tr.t(self.title_key)

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        raise NotImplementedError

    def hint(self, menu: Menu, item: Item | None) -> str:
        """The notice under the rows for the row at the cursor."""
        return self.notice

    def all_items(self, menu: Menu, now_ns: int) -> list[Item]:
        back = Item(menu.tr.t(self.back_key), select=lambda now: self.back(menu, now))
        return [*self.items(menu, now_ns), back]

    def back(self, menu: Menu, now_ns: int) -> None:
        menu.pop(now_ns)

    def screen(self, menu: Menu, now_ns: int) -> MenuScreen:
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

    def key(self, menu: Menu, key: MenuKey, now_ns: int) -> None:
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

    def title(self, menu: Menu) -> str:
        return menu.tr.t("service.confirm.title")

    def all_items(self, menu: Menu, now_ns: int) -> list[Item]:
        return [
            Item(menu.tr.t("service.confirm.no"), select=lambda now: menu.pop(now)),
            Item(menu.tr.t("service.confirm.yes"), select=self._yes(menu), tone=Tone.WARN),
        ]

    def _yes(self, menu: Menu) -> Callable[[int], None]:
        def yes(now_ns: int) -> None:
            menu.pop(now_ns)
            self.action(now_ns)

        return yes

    def hint(self, menu: Menu, item: Item | None) -> str:
        return self.question
