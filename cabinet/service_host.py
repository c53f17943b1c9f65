"""The service menu's host in the display process, and the books the display keeps.

:class:`ServiceHost` holds the menu's lifecycle: whether TEST may open it (a store, the door
open; the PIN gate is the menu's first page), opening it with the books written first,
running its steps so that a failing page closes the menu instead of stopping the cabinet,
and closing it: the settings and audits saved in one transaction, then the new settings
handed to the main loop (with this run's command-line overlay on top). It also counts
what the display sees into the audits (stuck switches, chatter, LED link drops, table
restarts) and writes each finished game into the record sink.

The game is the main loop's (:mod:`cabinet.app`): it stops the running game before asking
the host to open the menu, and takes the new settings when the host says it closed.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterable

import pygame

from cabinet.app_settings import AppSettings
from cabinet.flow import GameFinished, InitialsEntered, Phase
from cabinet.inputs.base import InputBackend
from cabinet.inputs.debounce import SwitchStuck
from cabinet.inputs.door import DoorOpen, no_door
from cabinet.inputs.feed import FeedEvent
from cabinet.lights_output import LightsOutput
from cabinet.money.keeper import MoneyKeeper
from cabinet.records import NewRecords, RecordSink
from cabinet.service.context import ServiceContext
from cabinet.service.draw import MenuRenderer
from cabinet.service.menu import ServiceMenu
from cabinet.sound import SoundBoard
from cabinet.storage.problems import StorageError
from cabinet.storage.store import CabinetStore
from cabinet.table.interface import Table
from cabinet.table.messages import LightsContext

log = logging.getLogger(__name__)

SettingsOverlay = Callable[[AppSettings], AppSettings]
"""What a run's command line puts on top of the stored settings."""


def _no_overlay(settings: AppSettings) -> AppSettings:
    return settings


class ServiceHost:
    """The menu (with a store) and the books, for one cabinet."""

    def __init__(
        self,
        table: Table,
        records: RecordSink,
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
        self.records = records
        self.lights = lights
        self.sounds = sounds
        self.store = store
        self._on_closed = on_closed
        self._overlay = settings_overlay if settings_overlay is not None else _no_overlay
        self._input_backend = input_backend
        self.money = money
        self.menu: ServiceMenu | None = None
        """The service menu (with a store), open or closed."""
        if store is not None:
            self.menu = ServiceMenu(
                self._context(store),
                self._closed,
                door_open=door_open if door_open is not None else no_door,
            )
        self.restart_needed: list[str] = []
        """Settings changed in the menu that take effect at the next start."""
        self._chatter_seen: dict[object, int] = {}
        self._link_drops_seen = 0
        self._notices_seen = False

    def _context(self, store: CabinetStore) -> ServiceContext:
        backend = self._input_backend
        stamps = self.table.hardware_timestamps
        if stamps is None:
            stamps = backend is not None and backend.hardware_timestamps
        return ServiceContext(
            store=store,
            sounds=self.sounds,
            switches=lambda: self.table.switches,
            link_health=self.lights.health,
            hardware_timestamps=stamps,
            serial_ports=serial_ports,
            money=self.money,
        )

    # -- the menu ----------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self.menu is not None and self.menu.is_open

    @property
    def wants_keys(self) -> bool:
        """Whether the open page reads the keyboard's keys itself (typing a value)."""
        return self.menu is not None and self.menu.is_open and self.menu.page.wants_keys

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
        self.sync_audits()
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
        menu = self.menu
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
            menu = self.menu
            if menu is not None and menu.is_open:
                try:
                    menu.leave(now)  # saves and applies, as when the operator leaves
                except Exception:
                    log.exception("the service menu could not close cleanly")
                    menu.stack = []

    def leave(self, now: int) -> None:
        """Close the menu if it is open, saving what the operator changed."""
        if self.menu is not None and self.menu.is_open:
            self.menu.leave(now)

    def _closed(self, now: int) -> None:
        """The menu closed: settings and audits saved in one transaction, then handed to
        the main loop to apply."""
        menu, store = self.menu, self.store
        assert menu is not None and store is not None
        self.restart_needed = menu.restart_needed()
        self.sync_audits()
        try:
            store.save(now)
        except StorageError:  # a full or failing card: play on, with the changes applied
            log.exception("the settings and books could not be saved on leaving the menu")
        if self.money is not None:
            self.money.menu_closed(store.settings)  # the coins taken meanwhile: credited
        self._on_closed(self._overlay(AppSettings.from_stored(store.settings)), now)

    # -- the books ---------------------------------------------------------------------

    def sync_audits(self) -> None:
        """Count chatter and light link drops seen since the last sync into the audits
        (in memory: the next transaction writes them)."""
        store = self.store
        if store is None:
            return
        for status in self.table.switches:
            seen = self._chatter_seen.get(status.control, 0)
            if status.chatter > seen:
                store.audits.count_chatter(status.control, status.chatter - seen)
            self._chatter_seen[status.control] = status.chatter
        health = self.lights.health()
        if health is not None:
            reconnects = health.reconnects
            if reconnects > self._link_drops_seen:
                store.audits.count_link_drop(reconnects - self._link_drops_seen)
            self._link_drops_seen = reconnects

    def count_stuck(self, batch: Iterable[FeedEvent]) -> None:
        if self.store is not None:
            for item in batch:
                if isinstance(item, SwitchStuck):
                    self.store.audits.count_stuck(item.control)

    def count_table_restart(self) -> None:
        if self.store is not None:
            self.store.audits.count_table_restart()

    def record(self, finished: list[GameFinished]) -> dict[int, NewRecords]:
        """Into the books (call with the table's lock let go); returns the hall-of-fame
        entries the games made, by player. A storage failure (disk full, card gone) must
        not stop the cabinet: it is logged, and the audits were rolled back with the
        transaction."""
        made: dict[int, NewRecords] = {}
        for game in finished:
            self.sync_audits()
            try:
                for entry_id, candidate in self.records.add(game):
                    made.setdefault(candidate.player, []).append((entry_id, candidate))
            except (sqlite3.Error, OSError, StorageError):
                log.exception("a game could not be recorded")
                continue
            if game.number is not None:
                self.table.recorded(game.number)  # the table may forget it now
        return made

    def initials(self, entered: list[InitialsEntered]) -> None:
        """A player's initials into the hall of fame (one transaction each)."""
        if self.store is None:
            return
        for done in entered:
            for entry_id in done.entry_ids:
                try:
                    self.store.set_initials(entry_id, done.initials)
                except (sqlite3.Error, OSError, StorageError):
                    log.exception("initials could not be saved")


def serial_ports() -> list[str]:
    """The serial devices present (for the LED port setting), by their stable names."""
    try:
        from serial.tools import list_ports
    except ImportError:
        return []
    return sorted(port.device for port in list_ports.comports())
