"""The display process's main loop: the frames, the flow and the game's start and stop.

The game is decided by the *table* (:mod:`cabinet.table`): on the cabinet, a process of
its own that reads the buttons, runs the referee and the game and drives the LED board,
and reports what it decided; in tests, the same feed in this process
(:class:`~cabinet.table.local.LocalTable`). Once a frame, :class:`CabinetApp` takes the
table's batches into the flow, starts and stops games through the table, and draws. With
a local table it reads the game only while holding the table's lock
(:meth:`~cabinet.table.local.LocalTable.hold`).

Around the loop, each with its own module: :mod:`cabinet.display.presenter` makes each frame's
view, lights and sounds from the flow; :mod:`cabinet.display.service_host` runs the service menu
and keeps the books; :mod:`cabinet.display.assembly` puts the parts together for
``spit-cabinet run``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import TypeVar

import pygame

from cabinet.display.app_settings import AppSettings
from cabinet.display.books import Books
from cabinet.display.flow import Flow, GameFinished, InitialsEntered, Notice
from cabinet.display.games import GameSink
from cabinet.display.lights_output import LightsOutput
from cabinet.display.parts import NO_PARTS, CabinetParts
from cabinet.display.presenter import FameShown, Presenter, Shown
from cabinet.display.service_host import ServiceHost
from cabinet.display.sounds import phase_sound, sound_cues
from cabinet.drawing.backend import BackendFailed, DisplayBackend
from cabinet.drawing.renderer import Renderer
from cabinet.drawing.software import SoftwareBackend
from cabinet.drawing.views import View
from cabinet.i18n import Translator, font_path
from cabinet.inputs.controls import SERVICE, TEST
from cabinet.inputs.debounce import OperatorEdge, SwitchFreed, SwitchStuck
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.feed import FeedEvent, PlayerPress
from cabinet.money.keeper import MoneyKeeper
from cabinet.service.draw import MenuRenderer
from cabinet.service.menu import ServiceMenu
from cabinet.shared.phase import Phase
from cabinet.sound import SoundBoard
from cabinet.table.interface import Table
from cabinet.table.local import LocalTable
from game.edges import Button
from game.events import Event
from game.table_state import TableState
from game.units import S

log = logging.getLogger(__name__)

T = TypeVar("T")

REFUSED_RETRY_NS = 2 * S
"""A table that refused to run is started again after this, then twice as long each time."""
REFUSED_RETRY_MAX_NS = 60 * S
"""At most this long between two tries of a table that refuses to run."""


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
        sounds, lights, games = parts.sounds, parts.lights, parts.games
        pump_input, store, door_open = parts.pump_input, parts.store, parts.door_open
        set_mode, fallback, input_backend = parts.set_mode, parts.fallback, parts.input_backend
        table, settings_overlay = parts.table, parts.settings_overlay
        coin_lines, money = parts.coin_lines, parts.money
        self.output: DisplayBackend = _backend(screen)
        self._fallback = fallback
        self.fallbacks = 0
        """How many times a failing backend handed over to software."""
        self.clock = clock
        self.sounds = sounds if sounds is not None else SoundBoard.silent()
        self.lights = lights if lights is not None else LightsOutput()
        self._pump_input = pump_input
        now = clock()
        self.table: Table = (
            table if table is not None else LocalTable(edges, clock=clock, threaded=threaded)
        )
        if money is None and store is not None:
            money = MoneyKeeper(store, lines=coin_lines)
        self.money = money
        self._fame_new_after = (
            max((e.order for top in store.fame.entries.values() for e in top), default=0)
            if store is not None
            else 0
        )
        """Entries set after the cabinet started are shown as new in attract."""
        self.flow = Flow(
            settings.flow,
            seed if seed is not None else now,
            now,
            new_match=self.table.new_match,
            admission=money,
        )
        self.presenter = Presenter(self.flow, settings, Translator(settings.language))
        self.renderer = self._make_renderer()
        self._set_mode = set_mode
        self.books = Books(
            self.table, games if games is not None else GameSink(), self.lights, store
        )
        self.host = ServiceHost(
            self.table,
            self.books,
            self.lights,
            self.sounds,
            self._menu_closed,
            store=store,
            door_open=door_open,
            settings_overlay=settings_overlay,
            input_backend=input_backend,
            money=money,
        )
        self.menu_renderer = MenuRenderer(
            self.output.canvas() if self.output.keeps_pixels else None, font_path()
        )
        self._fed: object = None
        self._stuck: dict[int, Button] = {}
        """The button each player has stuck, shown to them until it is freed."""
        self._phase_seen = self.flow.phase
        self._refused_retry_at_ns = 0
        self._refused_wait_ns = REFUSED_RETRY_NS
        self._demo_seen = self.flow.demo
        self.frames = 0
        self.last_view: View | None = None
        """The view of the last frame drawn outside the service menu."""

    def _make_renderer(self) -> Renderer:
        return Renderer(
            self.output,
            self.settings.orientation,
            font_path(),
            lights_strip=self.lights.on_screen,
            beaten_text=lambda margin: self.presenter.beaten_text(margin),
        )

    @property
    def settings(self) -> AppSettings:
        return self.presenter.settings

    @property
    def screen(self) -> pygame.Surface:
        """The surface the service menu paints (the display surface in software)."""
        return self.output.canvas()

    def present(self, rects: list[pygame.Rect]) -> None:
        """Show the frame :meth:`step` drew (``rects``: what it changed)."""
        try:
            self.output.present(rects)
        except BackendFailed as exc:
            self._fall_back(exc)

    def _fall_back(self, exc: BackendFailed) -> None:
        """The backend failed: say so once, and draw in software from now on."""
        failed = self.output
        log.error(
            "display: the %s backend failed (%s): drawing in software", failed.kind.value, exc
        )
        size = failed.size
        failed.close()
        if self._fallback is not None:
            self.output = self._fallback()
        else:
            self.output = SoftwareBackend(pygame.display.set_mode(size), why="fallback")
        log.info("display: %s", self.output.describe)
        self.fallbacks += 1
        self.renderer = self._make_renderer()
        self.menu_renderer.resize(self.output.canvas())

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
        rebuild = settings.orientation is not old.orientation
        if settings.resolution != old.resolution and self._set_mode is not None:
            self.output.close()
            self.output = _backend(self._set_mode(settings.resolution))
            self.menu_renderer.resize(self.output.canvas())
            rebuild = True
        if rebuild or settings.language != old.language:
            self.renderer = self._make_renderer()
        self.renderer.invalidate()

    # -- the service menu and the game -------------------------------------------------

    def open_service(self, now: int) -> bool:
        """TEST: open the service menu (the door must be open). A game being readied or
        played is abandoned and recorded so; the referee gets no game, the lights show
        the service pattern. Returns whether the menu opened."""
        if not self.host.can_open():
            return False
        self._drop_game(now)
        self._stuck.clear()
        self.host.open(now)
        self.menu_renderer.invalidate()
        return True

    def _menu_closed(self, settings: AppSettings, now: int) -> None:
        """The menu closed and saved: its settings applied, a fresh attract mode starts."""
        self.apply_settings(settings)
        self.flow.abandon(now)  # a fresh demo on the new settings
        self._phase_seen = self.flow.phase
        self._demo_seen = self.flow.demo
        self.renderer.reset_animations()
        self.renderer.invalidate()

    def _restart_table(self, now: int) -> None:
        """The table died (a bug, or its process was killed): say so, count it, abandon
        the game it was playing (in the books as abandoned, from what it reported) and
        start a new one, rather than leave the cabinet dead. A table that refused to run
        as the cabinet is set up (no GPIO header, say) is tried again less and less often
        (:data:`REFUSED_RETRY_NS`, doubling up to :data:`REFUSED_RETRY_MAX_NS`), with its
        reason in one log line and on the out-of-order screen, and is no restart for the
        audits."""
        self.table.batches()  # the dead table's last words: why it stopped, if it said
        reason = self.table.refused
        if reason is None:
            log.error("the table stopped: restarting it", exc_info=self.table.error)
            self.books.count_table_restart()
            self._refused_wait_ns = REFUSED_RETRY_NS
        elif self._refused_retry_at_ns == 0:  # just refused: wait before trying again
            wait = self._refused_wait_ns
            if self.table.started:  # else spit-cabinet run says it, and stops
                log.error("the table cannot run: %s (trying again in %d s)", reason, wait // S)
            self._refused_retry_at_ns = now + wait
            self._refused_wait_ns = min(2 * wait, REFUSED_RETRY_MAX_NS)
            self._drop_game(now, table_died=True)
            return
        elif now < self._refused_retry_at_ns:
            return
        self._refused_retry_at_ns = 0
        self.table.revive()
        self._drop_game(now, table_died=True)

    def _drop_game(self, now: int, *, table_died: bool = False) -> None:
        """Abandon the game being readied or played (into the books as abandoned) and give
        the referee none. When the table died, the game itself may be what broke: a game
        that cannot be abandoned cleanly is logged and dropped."""
        with self.table.hold():  # the referee thread lets go of the game first
            self._fed = None
            self.table.play_onto(None)
            try:
                self.flow.abandon(now)
            except Exception:
                if not table_died:
                    raise
                log.exception("the game could not be abandoned cleanly")
            finished = self._flow_update(now)
        self._into_books(finished, now)

    def _flow_update(self, now: int) -> list[Notice]:
        """The flow's clock moves to ``now`` (call holding the table's lock); returns the
        games that ended and the initials entered, for the books once the lock is let
        go."""
        return [n for n in self.flow.update(now) if isinstance(n, GameFinished | InitialsEntered)]

    def _into_books(self, notices: list[Notice], now: int) -> None:
        """Record the games that ended (and let their record setters enter initials) and
        the initials entered."""
        games = [n for n in notices if isinstance(n, GameFinished)]
        made = self.books.keep_games(games)
        self.books.initials([n for n in notices if isinstance(n, InitialsEntered)])
        if made:
            self.flow.enter_initials(made, now)

    # -- running -----------------------------------------------------------------------

    def start(self) -> None:
        self.table.start()

    def stop(self) -> None:
        """Stop the table and let go of the screen (its textures before SDL quits: one
        destroyed after its renderer crashes the process)."""
        self.table.stop()
        self.output.close()

    def wait(self, until_ns: int, earliest_ns: int) -> None:
        """Sleep until the next frame is due (``until_ns`` on the clock), or sooner when the
        table decides something, so a decided press is drawn at once instead of up to a
        frame later; but not before ``earliest_ns``. (Pumped without a thread, it just
        returns.)"""
        timeout_s = (until_ns - self.clock()) / 1e9
        if timeout_s > 0 and self.table.wait(timeout_s):
            early_s = (earliest_ns - self.clock()) / 1e9
            if early_s > 0:
                time.sleep(early_s)

    def step(self, now: int) -> list[pygame.Rect]:
        """One frame at clock reading ``now``: input, flow, lights, sound, drawing.
        Returns the repainted rectangles."""
        host = self.host
        if host.wants_keys:
            host.raw_keys([event.key for event in pygame.event.get(pygame.KEYDOWN)], now)
        if self._pump_input is not None:
            self._pump_input()
        if not self.table.alive:
            self._restart_table(now)
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
                    self._take(batch, now)
            host.tick(now)
            finished = [] if host.is_open else self._flow_update(now)
        self._into_books(finished, now)
        if host.is_open:
            drawn = self._drawing(lambda: self._menu_frame(now))
            if drawn is not None:
                self.frames += 1
                return drawn
        flow = self.flow
        self._follow_flow()
        if flow.phase is Phase.ATTRACT:
            if flow.demo is not self._demo_seen:
                self._demo_seen = flow.demo  # a new demo game: a new match clock
                self.renderer.reset_animations()
            self._game_events(flow.demo.advance(now), now, attract=True)
        shown = self._shown(now)
        if shown.table_lights is not None:
            self.table.lights(shown.table_lights)
        self.lights.show(shown.lights)
        self.last_view = shown.view
        screen_now = self.presenter.screen_clock(now)
        if not self.output.keeps_pixels and self.menu_renderer.has_surface:
            self.menu_renderer.release()  # the canvas goes with the menu
        rects = self._drawing(lambda: self.renderer.draw(shown.view, screen_now))
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
        return self.presenter.show(
            now,
            self._table_state(),
            stuck=self._stuck,
            notices=notices,
            credits=credits,
            fame=fame,
        )

    def _menu_frame(self, now: int) -> list[pygame.Rect] | None:
        """The service menu's frame on the backend's canvas (``None``: the menu shows the
        game's screen)."""
        canvas = self.output.canvas()
        menu = self.menu_renderer
        if not menu.has_surface or canvas is not menu.surface:
            menu.resize(canvas)
        drawn = self.host.draw(self.menu_renderer, now)
        return None if drawn is None else self.output.canvas_drawn(drawn)

    def _drawing(self, draw: Callable[[], T]) -> T:
        """``draw()``; if the backend fails, hand over to software and draw again."""
        try:
            return draw()
        except BackendFailed as exc:
            self._fall_back(exc)
            self.renderer.invalidate()
            self.menu_renderer.invalidate()
            return draw()

    # -- input and events --------------------------------------------------------------

    def _take(self, batch: list[FeedEvent], now: int) -> None:
        game_events: list[Event] = []
        for i, item in enumerate(batch):
            if isinstance(item, PlayerPress):
                pressed = item.edge.button
                start = pressed in (Button.PILE1, Button.PILE2)
                self.flow.press(item.player, now, start=start, button=pressed)
                self._follow_flow()
            elif isinstance(item, OperatorEdge):
                if item.pressed:
                    if item.control == TEST and self.open_service(now):
                        assert self.service is not None
                        self.service.take(batch[i + 1 :], now)
                        return
                    elif item.control == SERVICE:
                        log.info("SERVICE pressed")
            elif isinstance(item, SwitchStuck):
                player, button = item.control.player, item.control.button
                if player is not None and button is not None:
                    self._stuck[player] = button
            elif isinstance(item, SwitchFreed):
                if item.control.player is not None:
                    self._stuck.pop(item.control.player, None)
            else:
                game_events.append(item)
        if game_events:
            self._game_events(game_events, now, attract=False)
            self.flow.match_events(game_events, now)

    def _game_events(self, events: list[Event], now: int, *, attract: bool) -> None:
        if not events:
            return
        self.renderer.feed(events)
        for name in sound_cues(events):
            self.sounds.play(name, in_attract=attract)

    def _follow_flow(self) -> None:
        """Point the referee thread at the flow's current game, and reset the screen's
        motions when the screen changes."""
        flow = self.flow
        target = flow.match if flow.phase in (Phase.READY, Phase.PLAY) else None
        if target is not self._fed:
            self._fed = target
            self.table.play_onto(target)
        if flow.phase is not self._phase_seen:
            log.info("flow: %s", flow.phase.value)
            if flow.phase is Phase.READY and flow.match is not None:
                # With the seed and the start, a game can be followed (or replayed) from
                # outside: the virtual Pi's presser does (docs/virtual-pi.md).
                log.info(
                    "game: seed %d, play starts at %d ns (CLOCK_MONOTONIC)",
                    flow.match.seed,
                    flow.match.start_abs_ns,
                )
            if flow.phase in (Phase.ATTRACT, Phase.READY):
                self.renderer.reset_animations()
            sound = phase_sound(flow.phase)
            if sound is not None:
                self.sounds.play(sound)
            self._phase_seen = flow.phase

    # -- what is shown -----------------------------------------------------------------

    def _table_state(self) -> TableState | None:
        """The table on screen: the demo's in attract, the game's while it is readied or
        played (read holding the table's lock), none on the other screens."""
        flow = self.flow
        if flow.phase is Phase.ATTRACT:
            return flow.demo.state()
        if flow.phase in (Phase.READY, Phase.PLAY) and flow.match is not None:
            with self.table.hold():
                return flow.match.state()
        return None


def _backend(screen: DisplayBackend | pygame.Surface) -> DisplayBackend:
    return SoftwareBackend(screen) if isinstance(screen, pygame.Surface) else screen
