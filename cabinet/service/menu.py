"""The service menu as its host sees it: open, take presses, show a page, close.

:class:`ServiceMenu` holds the page stack. Opening it (:meth:`open`) puts the PIN page
first when the operator set a PIN; leaving the first page closes the menu and calls
``on_leave(now_ns)``, where its host (:mod:`cabinet.display.service_host`) saves the settings and
the main loop applies them. The menu reads no clock: every call carries ``now_ns``
(CLOCK_MONOTONIC ns).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from cabinet.i18n import Translator
from cabinet.inputs.debounce import OperatorEdge
from cabinet.inputs.door import DoorOpen, no_door
from cabinet.inputs.feed import FeedEvent
from cabinet.service.context import ServiceContext
from cabinet.service.effects import NEXT_START
from cabinet.service.keys import MenuKey, menu_key
from cabinet.service.kit import Page
from cabinet.service.main_page import MainPage
from cabinet.service.pin import PinGate
from cabinet.service.pin_page import PinPage
from cabinet.service.screen import MenuScreen
from cabinet.shared.light_show import button_light
from cabinet.storage.setting_table import LANGUAGE, OPERATOR_PIN
from cabinet.storage.store import CabinetStore
from firmware_bridge.lights import AMBER, GREEN, RED, WHITE, Light, LightName, LightState
from game.edges import Button

log = logging.getLogger("cabinet.service")

SERVICE_PULSE_MS = 2000


def service_lights() -> LightState:
    """The lights while the menu is open: player 1's buttons lit (they drive the menu),
    SPIT pulsing amber (the cabinet is in service), the rest off."""
    lit = {button_light(0, Button.slot(i)): Light.on(WHITE) for i in range(4)}
    lit[button_light(0, Button.PILE1)] = Light.on(GREEN)
    lit[button_light(0, Button.PILE2)] = Light.on(RED)
    lit[LightName.SPIT] = Light.pulse(SERVICE_PULSE_MS, AMBER)
    return LightState.all_off().replaced(lit)


class ServiceMenu:
    """The menu over one cabinet. ``door_open()`` says whether the door is open (the
    menu needs it open); ``gate`` is the PIN gate, kept across openings. Its pages see
    it as a :class:`~cabinet.service.kit.Menu`."""

    def __init__(
        self,
        context: ServiceContext,
        on_leave: Callable[[int], None],
        *,
        door_open: DoorOpen = no_door,
        gate: PinGate | None = None,
    ) -> None:
        self.context = context
        self.on_leave = on_leave
        self.door_open = door_open
        self.gate = gate if gate is not None else PinGate()
        self.stack: list[Page] = []
        self._opened_with: dict[str, object] = {}

    # -- reach -----------------------------------------------------------------------

    @property
    def store(self) -> CabinetStore:
        return self.context.store

    @property
    def tr(self) -> Translator:
        """The menu speaks the language setting as it is now (a change shows at once)."""
        return Translator(self.store.settings.get(LANGUAGE))

    @property
    def is_open(self) -> bool:
        return bool(self.stack)

    @property
    def page(self) -> Page:
        return self.stack[-1]

    def restart_needed(self) -> list[str]:
        """Settings changed since the menu opened that take effect at the next start."""
        plain = self.store.settings.as_plain()
        return [n for n in sorted(NEXT_START) if plain[n] != self._opened_with.get(n)]

    # -- opening and closing ---------------------------------------------------------

    def can_open(self) -> bool:
        """Whether TEST may open the menu now: the door is open (or there is no switch)."""
        return self.door_open()

    def open(self, now_ns: int) -> None:
        """Show the first page (or the PIN page when a PIN is set)."""
        self._opened_with = dict(self.store.settings.as_plain())
        self.stack = [MainPage()]
        if self.store.settings.get(OPERATOR_PIN):
            self.gate.clear()
            self.stack.append(PinPage())
        log.info("service menu opened")

    def push(self, page: Page) -> None:
        self.stack.append(page)

    def pop(self, now_ns: int) -> None:
        """Back to the page before; leaving the first page closes the menu."""
        if len(self.stack) <= 1:
            self.leave(now_ns)
        else:
            self.stack.pop()

    def replace(self, page: Page) -> None:
        self.stack[-1] = page

    def leave(self, now_ns: int) -> None:
        """Close the menu: its host saves the settings, the main loop applies them."""
        if not self.stack:
            return
        self.stack = []
        log.info("service menu closed")
        self.on_leave(now_ns)

    def cancel(self, now_ns: int) -> None:
        """Close without having opened (a cancelled PIN): nothing was changed."""
        self.stack = []
        self.on_leave(now_ns)

    # -- each frame ------------------------------------------------------------------

    def take(self, batch: Iterable[FeedEvent], now_ns: int) -> None:
        """The feed's events of one pump: menu keys, or the page's own (input tests)."""
        for item in batch:
            if not self.stack:
                return
            page = self.page
            if page.captures_players and not isinstance(item, OperatorEdge):
                page.feed(self, item, now_ns)
                continue
            page.feed(self, item, now_ns)
            if not self.stack or self.page is not page:
                continue
            key = menu_key(item)
            if key is not None:
                page.key(self, key, now_ns)

    def raw_keys(self, codes: Iterable[int], now_ns: int) -> None:
        for code in codes:
            if self.stack and self.page.wants_keys:
                self.page.raw_key(self, code, now_ns)

    def press(self, key: MenuKey, now_ns: int) -> None:
        """One menu key, as if pressed (for tools and tests that skip the input layer)."""
        if self.stack:
            self.page.key(self, key, now_ns)

    def tick(self, now_ns: int) -> None:
        """Once a frame: a door shut while the menu is open closes it (saving); else the
        page on top sees the time (:meth:`~cabinet.service.kit.Page.tick`)."""
        if self.stack and not self.door_open():
            log.info("door shut: leaving the service menu")
            self.leave(now_ns)
        elif self.stack:
            self.page.tick(self, now_ns)

    def screen(self, now_ns: int) -> MenuScreen:
        page = self.page
        shown = page.screen(self, now_ns)
        lights = page.lights(self, now_ns)
        return MenuScreen(
            shown.title,
            shown.rows,
            shown.cursor,
            shown.help,
            shown.notice,
            shown.pattern,
            shown.turned,
            lights if lights is not None else service_lights(),
        )
