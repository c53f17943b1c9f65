"""The display process's main loop: the frames, the flow and the game's start and stop.

The game is decided by the *table* (:mod:`cabinet.table`): on the cabinet, a process of
its own that reads the buttons, runs the referee and the game and drives the LED board,
and reports what it decided; in tests, the same feed in this process
(:class:`~cabinet.table.local.LocalTable`). Once a frame, :class:`CabinetApp` takes the
table's batches into the flow, starts and stops games through the table, and draws. With
a local table it reads the game only while holding the table's lock
(:meth:`~cabinet.table.local.LocalTable.hold`).

Around the loop, each with its own module: :mod:`cabinet.display.presenter` makes each
frame's view, lights and sounds from the flow; :mod:`cabinet.display.flow_feed` takes the
table's batches into the flow and keeps the screen's motions and sounds in step with it;
:mod:`cabinet.display.service_host` runs the service menu and keeps the books;
:mod:`cabinet.display.table_supervision` points the table at the flow's game, drops games
and restarts a table that died; :mod:`cabinet.display.screen_output` draws and shows the
frames, in software once the backend fails; :mod:`cabinet.display.assembly` puts the parts
together for ``spit-cabinet run``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import pygame

from cabinet.display.app_settings import AppSettings
from cabinet.display.books import Books
from cabinet.display.fleet_watch import FleetWatch
from cabinet.display.flow import Flow
from cabinet.display.flow_feed import FlowFeed
from cabinet.display.games import GameSink
from cabinet.display.lights_output import LightsOutput
from cabinet.display.parts import NO_PARTS, CabinetParts
from cabinet.display.presenter import FameShown, Presenter, Shown
from cabinet.display.screen_output import ScreenOutput
from cabinet.display.service_host import ServiceHost
from cabinet.display.table_supervision import TableSupervisor
from cabinet.drawing.backend import DisplayBackend
from cabinet.drawing.renderer import Renderer
from cabinet.drawing.views import View
from cabinet.i18n import Translator, font_path
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.feed import FeedEvent
from cabinet.money.keeper import MoneyKeeper
from cabinet.service.draw import MenuRenderer
from cabinet.shared.phase import Phase
from cabinet.sound import SoundBoard
from cabinet.storage.store import CabinetStore
from cabinet.table.interface import Table
from cabinet.table.local import LocalTable
from cabinet.updates.watch import UpdateWatch

if TYPE_CHECKING:
    from cabinet.service.menu import ServiceMenu  # made when TEST first opens it


class CabinetApp:
    """One cabinet: call :meth:`step` once a frame with the clock's reading."""

    def __init__(
        self,
        screen: DisplayBackend | pygame.Surface,
        edges: EdgeQueue,
        settings: AppSettings,
        parts: CabinetParts = NO_PARTS,
        *,
        clock: Callable[[], int] = time.monotonic_ns,
        seed: int | None = None,
        threaded: bool = True,
    ) -> None:
        """``screen``: the display backend that draws (a surface: the software backend on
        it); ``parts``: everything else it is put together from
        (:class:`~cabinet.display.parts.CabinetParts`, each with its default). By default
        the table is a :class:`~cabinet.table.local.LocalTable` on ``edges``, with the
        referee on a thread of this process (``threaded``), or pumped from :meth:`step`
        (``threaded=False``: tests with a virtual clock). Nothing is changed from outside
        after construction."""
        store, money = parts.store, parts.money
        self.clock = clock
        self.sounds = parts.sounds if parts.sounds is not None else SoundBoard.silent()
        self.lights = parts.lights if parts.lights is not None else LightsOutput()
        self._pump_input = parts.pump_input
        now = clock()
        self.table: Table = (
            parts.table
            if parts.table is not None
            else LocalTable(edges, clock=clock, threaded=threaded)
        )
        if money is None and store is not None:
            money = MoneyKeeper(store, lines=parts.coin_lines)
        self.money = money
        self._fame_new_after = _last_fame_order(store)
        """Entries set after the cabinet started are shown as new in attract."""
        self.flow = Flow(
            settings.flow,
            seed if seed is not None else now,
            now,
            new_match=self.table.new_match,
            admission=money,
        )
        self.presenter = Presenter(self.flow, settings, Translator(settings.language))
        self.screen_output = ScreenOutput(screen, self._make_renderer, parts.fallback)
        self._set_mode = parts.set_mode
        games = parts.games if parts.games is not None else GameSink()
        self.books = Books(self.table, games, self.lights, store)
        self.supervisor = TableSupervisor(self.table, self.flow, self.books)
        self.host = self._service_host(parts)
        self.feed = FlowFeed(
            self.flow,
            self.supervisor,
            self.screen_output,
            self.sounds,
            self.host,
            self.open_service,
        )
        self.frames = 0
        self.last_view: View | None = None
        """The view of the last frame drawn outside the service menu."""
        self.fleet = FleetWatch(self.host, self.apply_settings, updates=self._updates(parts))
        self._door_shut = parts.door_shut

    def _updates(self, parts: CabinetParts) -> UpdateWatch | None:
        """Releases the fleet offers, taken while it plays: for a cabinet its unit runs
        (the install directory known, its data on the card)."""
        store, install = parts.store, parts.install_dir
        if store is None or store.path is None or install is None:
            return None
        from cabinet.link.connection import cabinet_version  # the unit's run only: TLS

        return UpdateWatch(
            store, store.path.parent, install, cabinet_version(), self.safe_to_install
        )

    def safe_to_install(self) -> bool:
        """A safe moment to install a release: attract, no credits, the menu closed, the
        door shut (a game, or a player's money, is never cut short)."""
        door_shut = self._door_shut
        return (
            self.flow.phase is Phase.ATTRACT
            and not self.host.is_open
            and (self.money is None or self.money.credits == 0)
            and (door_shut is None or door_shut())
        )

    def _service_host(self, parts: CabinetParts) -> ServiceHost:
        """The service menu's host, on this cabinet's table, books, lights, sounds and money
        and the parts it takes from ``parts``."""
        return ServiceHost(
            self.table,
            self.books,
            self.lights,
            self.sounds,
            self._menu_closed,
            store=parts.store,
            door_open=parts.door_open,
            settings_overlay=parts.settings_overlay,
            input_backend=parts.input_backend,
            money=self.money,
        )

    def _make_renderer(self, output: DisplayBackend) -> Renderer:
        return Renderer(
            output,
            self.settings.orientation,
            font_path(),
            lights_strip=self.lights.on_screen,
            beaten_text=lambda margin: self.presenter.beaten_text(margin),
            warm=False,  # the faces are drawn after the first frame: wait() below
        )

    @property
    def settings(self) -> AppSettings:
        return self.presenter.settings

    @property
    def output(self) -> DisplayBackend:
        """The display backend drawing now (software once the first one failed)."""
        return self.screen_output.backend

    @property
    def renderer(self) -> Renderer:
        return self.screen_output.renderer

    @property
    def menu_renderer(self) -> MenuRenderer:
        return self.screen_output.menu_renderer

    @property
    def fallbacks(self) -> int:
        """How many times a failing backend handed over to software."""
        return self.screen_output.fallbacks

    @property
    def screen(self) -> pygame.Surface:
        """The surface the service menu paints (the display surface in software)."""
        return self.output.canvas()

    def present(self, rects: list[pygame.Rect]) -> None:
        """Show the frame :meth:`step` drew (``rects``: what it changed)."""
        self.screen_output.present(rects)

    @property
    def tr(self) -> Translator:
        return self.presenter.tr

    @property
    def service(self) -> ServiceMenu | None:
        """The service menu (with a store), open or closed."""
        return self.host.menu

    @property
    def in_service(self) -> bool:
        return self.host.is_open

    @property
    def restart_needed(self) -> list[str]:
        """Settings changed in the menu that take effect at the next start."""
        return self.host.restart_needed

    # -- settings ----------------------------------------------------------------------

    def apply_settings(self, settings: AppSettings) -> None:
        """Make ``settings`` the cabinet's: the translator, the screen (resolution,
        orientation), the sound board (volume, attract sound), the lights (brightness,
        hints: read each frame) and the flow (rules, CPU, join and idle times: from the
        next game)."""
        old = self.settings
        tr = self.tr if settings.language == old.language else Translator(settings.language)
        self.presenter = Presenter(self.flow, settings, tr)
        self.sounds.volume_percent = settings.volume_percent
        self.sounds.attract_sound = settings.attract_sound
        self.flow.settings = settings.flow
        set_mode = self._set_mode
        if settings.resolution != old.resolution and set_mode is not None:
            self.screen_output.replace(lambda: set_mode(settings.resolution))
        elif settings.orientation is not old.orientation or settings.language != old.language:
            self.screen_output.renew_renderer()
        self.renderer.invalidate()

    # -- the service menu and the game -------------------------------------------------

    def open_service(self, now: int) -> bool:
        """TEST: open the service menu (the door must be open). A game being readied or
        played is abandoned and recorded so; the referee gets no game, the lights show
        the service pattern. Returns whether the menu opened."""
        if not self.host.can_open():
            return False
        self.supervisor.drop_game(now)
        self.feed.stuck.clear()
        self.host.open(now)
        self.menu_renderer.invalidate()
        return True

    def _menu_closed(self, settings: AppSettings, now: int) -> None:
        """The menu closed and saved: its settings applied, a fresh attract mode starts."""
        self.apply_settings(settings)
        self.flow.abandon(now)  # a fresh demo on the new settings
        self.feed.start_afresh()
        self.renderer.invalidate()

    # -- running -----------------------------------------------------------------------

    def start(self) -> None:
        self.table.start()

    def stop(self) -> None:
        """Stop the table and let go of the screen (its textures before SDL quits: one
        destroyed after its renderer crashes the process)."""
        self.table.stop()
        self.screen_output.close()

    def wait(self, until_ns: int, earliest_ns: int) -> None:
        """Sleep until the next frame is due (``until_ns`` on the clock), or sooner when the
        table decides something, so a decided press is drawn at once instead of up to a
        frame later; but not before ``earliest_ns``. (Pumped without a thread, it just
        returns.) The game's renderer is warmed first if it has not been, in the time
        this frame leaves: the first frame is on the screen before the card faces are
        drawn."""
        self.screen_output.warm()
        timeout_s = (until_ns - self.clock()) / 1e9
        if timeout_s > 0 and self.table.wait(timeout_s):
            early_s = (earliest_ns - self.clock()) / 1e9
            if early_s > 0:
                time.sleep(early_s)

    def step(self, now: int) -> list[pygame.Rect]:
        """One frame at clock reading ``now``: input, flow, lights, sound, drawing.
        Returns the repainted rectangles."""
        host, supervisor = self.host, self.supervisor
        if host.wants_keys:
            host.raw_keys([event.key for event in pygame.event.get(pygame.KEYDOWN)], now)
        if self._pump_input is not None:
            self._pump_input()
        if not self.table.alive:
            supervisor.restart(now)
        batches: Iterable[list[FeedEvent]] = self.table.batches()
        money = self.money
        if money is not None:
            # Coins are committed outside the table's lock: a commit waits on the card.
            batches = [money.take(batch) for batch in batches]
            money.tick(now)
        # One rule for the game a referee thread plays onto: the main thread reads or
        # changes it only while holding the table's lock; the books are written after.
        with self.table.hold():
            for batch in batches:
                self.books.count_stuck(batch)
                if host.is_open:
                    host.take(batch, now)
                else:
                    self.feed.take(batch, now)
            host.tick(now)
            finished = [] if host.is_open else supervisor.flow_update(now)
        supervisor.into_books(finished, now)
        if host.is_open:
            drawn = self.screen_output.menu_frame(lambda menu: host.draw(menu, now))
            if drawn is not None:
                self.frames += 1
                return drawn
        self.fleet.look(now)
        self.feed.frame(now)
        shown = self._shown(now)
        if shown.table_lights is not None:
            self.table.lights(shown.table_lights)
        self.lights.show(shown.lights)
        self.last_view = shown.view
        rects = self.screen_output.game_frame(shown.view, self.presenter.screen_clock(now))
        self.frames += 1
        return rects

    def _shown(self, now: int) -> Shown:
        """What the frame at ``now`` shows: the flow's screen, or out of order while no
        table is ready."""
        if not self.table.ready:
            return self.presenter.out_of_order(self.table.refused)
        money, store = self.money, self.host.store
        credits = (
            money.shown(cpu_allowed=self.flow.settings.cpu_allowed) if money is not None else None
        )
        fame = (
            FameShown(store.fame, self._fame_new_after)
            if store is not None and self.flow.settings.hall_of_fame
            else None
        )
        notices = self.host.operator_notices()
        champions = self.fleet.champions if fame is not None else None
        return self.presenter.show(
            now,
            self.supervisor.table_state(),
            stuck=self.feed.stuck,
            notices=notices,
            credits=credits,
            fame=fame,
            champions=champions,
        )


def _last_fame_order(store: CabinetStore | None) -> int:
    """The order of the hall of fame's latest entry (0: none, or no store)."""
    if store is None:
        return 0
    return max((e.order for top in store.fame.entries.values() for e in top), default=0)
