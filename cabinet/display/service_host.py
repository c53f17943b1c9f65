"""The service menu's host in the display process.

:class:`ServiceHost` holds the menu's lifecycle: whether TEST may open it (a store, the door
open; the PIN gate is the menu's first page), opening it with the books written first,
running its steps so that a failing page closes the menu instead of stopping the cabinet,
and closing it: the settings and audits saved in one transaction, then the new settings
handed to the main loop (with this run's command-line overlay on top). The books
themselves are :mod:`cabinet.display.books`'.

The game is the main loop's (:mod:`cabinet.display.app`): it stops the running game before asking
the host to open the menu, and takes the new settings when the host says it closed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from cabinet.display.app_settings import AppSettings
from cabinet.display.books import Books
from cabinet.display.lights_output import LightsOutput
from cabinet.inputs.base import InputBackend
from cabinet.inputs.feed import FeedEvent
from cabinet.money.keeper import MoneyKeeper
from cabinet.service.context import ServiceContext
from cabinet.service.draw import MenuRenderer
from cabinet.shared.phase import Phase
from cabinet.sound import SoundBoard
from cabinet.storage.problems import StorageError
from cabinet.storage.store import CabinetStore
from cabinet.table.interface import Table
from cabinet.table.messages import LightsContext

if TYPE_CHECKING:
    from cabinet.inputs.door import DoorOpen
    from cabinet.service.menu import ServiceMenu

log = logging.getLogger(__name__)

SettingsOverlay = Callable[[AppSettings], AppSettings]
"""What a run's command line puts on top of the stored settings."""


def _no_overlay(settings: AppSettings) -> AppSettings:
    return settings


class ServiceHost:
    """The service menu (with a store), for one cabinet."""

    def __init__(
        self,
        table: Table,
        books: Books,
        lights: LightsOutput,
        sounds: SoundBoard,
        on_closed: Callable[[AppSettings, int], None],
        *,
        store: CabinetStore | None = None,
        door_open: DoorOpen | None = None,
        settings_overlay: SettingsOverlay | None = None,
        input_backend: InputBackend | None = None,
        money: MoneyKeeper | None = None,
    ) -> None:
        """``on_closed(settings, now_ns)``: the menu closed and saved; ``settings`` are
        the stored ones with ``settings_overlay`` on top, for the main loop to apply.
        ``door_open()``: whether the door is open (default: no door switch).
        ``input_backend``: shown in the input test (hardware timestamps or not).
        ``money``: the money keeper (the menu's pricing page, clear credits, meter
        test); coins taken while the menu is open are credited when it closes."""
        self.table = table
        self.books = books
        self.lights = lights
        self.sounds = sounds
        self.store = store
        self._on_closed = on_closed
        self._overlay = settings_overlay if settings_overlay is not None else _no_overlay
        self._input_backend = input_backend
        self.money = money
        self._door_open = door_open
        self._menu: ServiceMenu | None = None
        self.restart_needed: list[str] = []
        """Settings changed in the menu that take effect at the next start."""
        self._notices_seen = False

    def _context(self, store: CabinetStore) -> ServiceContext:
        backend = self._input_backend
        stamps = self.table.hardware_timestamps
        if stamps is None:
            stamps = backend is not None and backend.hardware_timestamps
        kind = self.table.input_backend
        if kind is None:
            kind = backend.name if backend is not None else ""
        return ServiceContext(
            store=store,
            sounds=self.sounds,
            switches=lambda: self.table.switches,
            link_health=self.lights.health,
            hardware_timestamps=stamps,
            input_backend=kind,
            serial_ports=serial_ports,
            money=self.money,
        )

    # -- the menu ----------------------------------------------------------------------

    @property
    def menu(self) -> ServiceMenu | None:
        """The service menu (with a store), open or closed. It is made, and its pages and
        the fleet page's TLS imported (2.2 MB of the display process), the first time it
        is asked for, TEST pressed: most runs never open it."""
        if self._menu is None and self.store is not None:
            from cabinet.inputs.door import no_door
            from cabinet.service.menu import ServiceMenu

            door_open = self._door_open if self._door_open is not None else no_door
            self._menu = ServiceMenu(self._context(self.store), self._closed, door_open=door_open)
        return self._menu

    @property
    def is_open(self) -> bool:
        return self._menu is not None and self._menu.is_open

    @property
    def wants_keys(self) -> bool:
        """Whether the open page reads the keyboard's keys itself (typing a value)."""
        return self._menu is not None and self._menu.is_open and self._menu.page.wants_keys

    def operator_notices(self) -> list[str]:
        """Storage problems (a database moved aside, nothing being saved) to show in
        attract, until the operator opens the service menu."""
        if self.store is None or self._notices_seen:
            return []
        return [problem.message for problem in self.store.problems]

    def can_open(self) -> bool:
        """Whether TEST opens the menu now: there is one, closed, and the door is open."""
        menu = self.menu
        if menu is None or menu.is_open:
            return False
        if not menu.can_open():
            log.info("TEST pressed with the door shut: the service menu stays closed")
            return False
        return True

    def open(self, now: int) -> None:
        """Open the menu (the main loop has stopped the game): the books are written
        first, so the menu shows them current; the PIN page comes first when a PIN is
        set."""
        menu, store = self.menu, self.store
        assert menu is not None and store is not None
        self._notices_seen = True
        self.books.sync_audits()
        try:
            store.save_audits(now)
        except StorageError:
            log.exception("the books could not be written on opening the menu")
        menu.context = self._context(store)
        if self.money is not None:
            self.money.menu_opened()
        menu.open(now)

    def raw_keys(self, codes: list[int], now: int) -> None:
        """Keys for a page that reads them itself (see :attr:`wants_keys`)."""
        assert self.menu is not None
        self.menu.raw_keys(codes, now)

    def take(self, batch: list[FeedEvent], now: int) -> None:
        """One batch of the table's events, for the open menu."""
        menu = self.menu
        assert menu is not None
        self.in_menu(lambda: menu.take(batch, now), now)

    def tick(self, now: int) -> None:
        """Once a frame while the menu is open: a door shut closes it."""
        menu = self._menu
        if menu is not None and menu.is_open:
            self.in_menu(lambda: menu.tick(now), now)

    def draw(self, renderer: MenuRenderer, now: int) -> list[pygame.Rect] | None:
        """The open menu's frame: its page drawn by ``renderer``, its lights shown and
        sent to the table. ``None`` when that failed (and closed the menu)."""
        menu = self.menu
        assert menu is not None
        drawn: list[list[pygame.Rect]] = []

        def draw_menu() -> None:
            screen = menu.screen(now)
            self.lights.show(screen.lights)
            self.table.lights(LightsContext(Phase.ATTRACT, override=screen.lights))
            drawn.append(renderer.draw(screen))

        self.in_menu(draw_menu, now)
        return drawn[0] if drawn else None

    def in_menu(self, action: Callable[[], None], now: int) -> None:
        """Run one of the menu's steps; a bug or a storage failure in a page must not
        stop the cabinet: it is logged and the menu closes (what was changed is kept)."""
        try:
            action()
        except Exception:
            log.exception("the service menu failed; closing it")
            menu = self._menu
            if menu is not None and menu.is_open:
                try:
                    menu.leave(now)  # saves and applies, as when the operator leaves
                except Exception:
                    log.exception("the service menu could not close cleanly")
                    menu.stack = []

    def leave(self, now: int) -> None:
        """Close the menu if it is open, saving what the operator changed."""
        if self._menu is not None and self._menu.is_open:
            self._menu.leave(now)

    def take_documents(self) -> AppSettings | None:
        """Decide the fleet's settings documents the link holds, through the store the menu
        saves with (never while it is open: it would save over them); the settings to
        apply when one changed any (as when the menu closes, without a fresh attract)."""
        store = self.store
        if store is None or self.is_open or not store.saving:
            return None
        from cabinet.storage import settings_documents

        decided = settings_documents.take(store)
        if not any(d.changed for d in decided):
            return None
        if self.money is not None:
            self.money.menu_closed(store.settings)  # the new prices, pulse and meter times
        return self._overlay(AppSettings.from_stored(store.settings))

    def _closed(self, now: int) -> None:
        """The menu closed: settings and audits saved in one transaction, then handed to
        the main loop to apply."""
        menu, store = self.menu, self.store
        assert menu is not None and store is not None
        self.restart_needed = menu.restart_needed()
        self.books.sync_audits()
        try:
            store.save(now)
        except StorageError:  # a full or failing card: play on, with the changes applied
            log.exception("the settings and books could not be saved on leaving the menu")
        if self.money is not None:
            self.money.menu_closed(store.settings)  # the coins taken meanwhile: credited
        self._on_closed(self._overlay(AppSettings.from_stored(store.settings)), now)


def serial_ports() -> list[str]:
    """The serial devices present (for the LED port setting), by their stable names."""
    try:
        from serial.tools import list_ports
    except ImportError:
        return []
    return sorted(port.device for port in list_ports.comports())
