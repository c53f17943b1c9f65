"""The display process's main loop: flow, display, lights and sound, once a frame.

The game is decided by the *table* (:mod:`cabinet.table`): on the cabinet, a process of
its own that reads the buttons, runs the referee and the game and drives the LED board,
and reports what it decided; in tests, the same feed in this process
(:class:`~cabinet.table.local.LocalTable`). The main loop runs the flow, draws, plays the
sounds and keeps the books from the batches the table hands over, and starts and stops
games through it. With a local table it reads the game only while holding the table's
lock (:meth:`~cabinet.table.local.LocalTable.hold`).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pygame

from cabinet.display.geometry import Orientation
from cabinet.display.renderer import Renderer
from cabinet.display.views import (
    AttractView,
    GameOverView,
    JoinPlayer,
    JoinView,
    PlayerSummary,
    TableLabels,
    TableView,
    View,
    table_view,
)
from cabinet.flow import Flow, FlowSettings, GameFinished, Phase
from cabinet.i18n import Translator, font_path
from cabinet.inputs.base import InputBackend
from cabinet.inputs.controls import SERVICE, TEST
from cabinet.inputs.debounce import OperatorEdge, SwitchFreed, SwitchStuck
from cabinet.inputs.door import DoorOpen, no_door
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.feed import FeedEvent, PlayerPress
from cabinet.light_show import READY_SHOWN_NS, countdown_left_ns, lights_for
from cabinet.service.context import ServiceContext
from cabinet.service.draw import MenuRenderer
from cabinet.service.menu import ServiceMenu
from cabinet.sound import SoundBoard
from cabinet.storage import setting_table as table
from cabinet.storage.problems import StorageError
from cabinet.storage.settings import Settings
from cabinet.storage.store import CabinetStore
from cabinet.table.interface import Table
from cabinet.table.local import LocalTable
from cabinet.table.messages import LightsContext
from firmware_bridge.lights import LightState
from firmware_bridge.link import LinkHealth
from game.events import Event, GameOver, Played, Rejected, RejectReason, Selected, Spat, SpitDue
from game.events import Started as GameStarted
from game.rules import MS
from game.summary import Seat
from game.table_state import TableState

log = logging.getLogger(__name__)

FRAME_NS = 16_666_667
"""60 frames a second."""

HOWTO_CARDS = 4


class LightsOutput:
    """Where the light states go. This one keeps them for the on-screen strip (no board);
    :class:`TableLights` stands for the LED board, which the table process drives."""

    on_screen = True

    def __init__(self) -> None:
        self.state = LightState.all_off()

    def show(self, state: LightState) -> None:
        self.state = state

    def health(self) -> LinkHealth | None:
        """The LED board link's health, when there is a board."""
        return None


class TableLights(LightsOutput):
    """The LED board is driven by the table process (which writes each decision's lights
    at once); its health comes with the table's reports."""

    on_screen = False

    def __init__(self, health: Callable[[], LinkHealth | None]) -> None:
        super().__init__()
        self._health = health

    def health(self) -> LinkHealth | None:
        return self._health()


class RecordSink:
    """Where finished games go (the books). The default keeps the last few in memory."""

    def __init__(self, keep: int = 50) -> None:
        self.keep = keep
        self.games: list[GameFinished] = []
        self.count = 0
        """Every game added, including those no longer kept."""

    def add(self, game: GameFinished) -> None:
        self.games.append(game)
        self.count += 1
        del self.games[: -self.keep]


@dataclass(slots=True)
class AppSettings:
    """The cabinet's settings as the main loop uses them."""

    flow: FlowSettings = field(default_factory=FlowSettings)
    language: str = "en"
    orientation: Orientation = Orientation.UPRIGHT
    volume_percent: int = 80
    attract_sound: bool = False
    hints: bool = False
    brightness_percent: int = 100
    resolution: str = "auto"
    """``"auto"`` or ``"WIDTHxHEIGHT"``: the screen mode (applied through ``set_mode``)."""

    @classmethod
    def from_stored(cls, stored: Settings) -> AppSettings:
        """The main loop's settings from the operator's stored ones."""
        flow = FlowSettings(
            rules=stored.rules(),
            cpu_allowed=stored.get(table.CPU_OPPONENT),
            cpu_level=stored.get(table.CPU_LEVEL),
            join_wait_s=stored.get(table.JOIN_CPU_WAIT_S),
            idle_timeout_s=stored.get(table.IDLE_TIMEOUT_S),
        )
        return cls(
            flow=flow,
            language=stored.get(table.LANGUAGE),
            orientation=Orientation(stored.get(table.ORIENTATION)),
            volume_percent=stored.get(table.VOLUME),
            attract_sound=stored.get(table.ATTRACT_SOUND),
            hints=stored.get(table.BUTTON_HINTS),
            brightness_percent=stored.get(table.LIGHT_BRIGHTNESS),
            resolution=stored.get(table.RESOLUTION),
        )


class CabinetApp:
    """One cabinet: call :meth:`step` once a frame with the clock's reading."""

    def __init__(
        self,
        screen: pygame.Surface,
        edges: EdgeQueue,
        settings: AppSettings,
        *,
        clock: Callable[[], int] = time.monotonic_ns,
        sounds: SoundBoard | None = None,
        lights: LightsOutput | None = None,
        records: RecordSink | None = None,
        seed: int | None = None,
        threaded: bool = True,
        pump_input: Callable[[], None] | None = None,
        store: CabinetStore | None = None,
        door_open: DoorOpen | None = None,
        set_mode: Callable[[str], pygame.Surface] | None = None,
        input_backend: InputBackend | None = None,
        table: Table | None = None,
        settings_overlay: Callable[[AppSettings], AppSettings] | None = None,
    ) -> None:
        """``table``: what decides the games (the table process's
        :class:`~cabinet.table.remote.RemoteTable` on the cabinet); by default a
        :class:`~cabinet.table.local.LocalTable` on ``edges``, with the referee on a thread
        of this process (``threaded``), or pumped from :meth:`step` (``threaded=False``:
        tests with a virtual clock).

        ``store``: the cabinet's stored settings and books; with it, TEST opens the
        service menu (:meth:`open_service`). ``door_open()``: whether the door is open
        (the menu needs it; default: no door switch). ``set_mode(resolution)``: opens the
        screen at a resolution setting (``"auto"`` or ``"WIDTHxHEIGHT"``) and returns it,
        for a resolution changed in the menu. ``input_backend``: shown in the input
        test (hardware timestamps or not). ``settings_overlay``: what this run's command
        line puts on top of the stored settings, applied again whenever the menu hands
        back new settings."""
        self.screen = screen
        self.settings = settings
        self.clock = clock
        self.tr = Translator(settings.language)
        self.sounds = sounds if sounds is not None else SoundBoard.silent()
        self.lights = lights if lights is not None else LightsOutput()
        self.records = records if records is not None else RecordSink()
        self._pump_input = pump_input
        now = clock()
        self.table: Table = (
            table if table is not None else LocalTable(edges, clock=clock, threaded=threaded)
        )
        self.flow = Flow(
            settings.flow, seed if seed is not None else now, now, new_match=self.table.new_match
        )
        self.renderer = self._make_renderer()
        self.store = store
        self._set_mode = set_mode
        self._input_backend = input_backend
        self.service: ServiceMenu | None = None
        """The service menu (with a store), open or closed."""
        if store is not None:
            self.service = ServiceMenu(
                self._service_context(store),
                self._service_closed,
                door_open=door_open if door_open is not None else no_door,
            )
        self.menu_renderer = MenuRenderer(screen, font_path())
        self._chatter_seen: dict[object, int] = {}
        self._link_drops_seen = 0
        self.restart_needed: list[str] = []
        """Settings changed in the menu that take effect at the next start."""
        self._fed: object = None
        self._warnings: dict[int, str] = {}
        self._phase_seen = self.flow.phase
        self._demo_seen = self.flow.demo
        self._notices_seen = False
        self.settings_overlay: Callable[[AppSettings], AppSettings] = (
            settings_overlay if settings_overlay is not None else (lambda settings: settings)
        )
        self.frames = 0

    def _make_renderer(self) -> Renderer:
        return Renderer(
            self.screen,
            self.settings.orientation,
            font_path(),
            lights_strip=self.lights.on_screen,
            beaten_text=lambda margin: self.tr.t("play.beaten_by", ms=margin / MS),
        )

    # -- settings ----------------------------------------------------------------------

    def apply_settings(self, settings: AppSettings) -> None:
        """Make ``settings`` the cabinet's: the translator, the screen (resolution,
        orientation), the sound board (volume, attract sound), the lights (brightness,
        hints: read each frame) and the flow (rules, CPU, join and idle times: from the
        next game)."""
        old = self.settings
        self.settings = settings
        if settings.language != old.language:
            self.tr = Translator(settings.language)
        self.sounds.volume_percent = settings.volume_percent
        self.sounds.attract_sound = settings.attract_sound
        self.flow.settings = settings.flow
        rebuild = settings.orientation is not old.orientation
        if settings.resolution != old.resolution and self._set_mode is not None:
            self.screen = self._set_mode(settings.resolution)
            self.menu_renderer.resize(self.screen)
            rebuild = True
        if rebuild or settings.language != old.language:
            self.renderer = self._make_renderer()
        self.renderer.invalidate()

    # -- the service menu --------------------------------------------------------------

    def _service_context(self, store: CabinetStore) -> ServiceContext:
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
        )

    @property
    def in_service(self) -> bool:
        return self.service is not None and self.service.is_open

    def operator_notices(self) -> list[str]:
        """Storage problems (a database moved aside, nothing being saved) to show in
        attract, until the operator opens the service menu."""
        if self.store is None or self._notices_seen:
            return []
        return [problem.message for problem in self.store.problems]

    def open_service(self, now: int) -> bool:
        """TEST: open the service menu (the door must be open). A game being readied or
        played is abandoned and recorded so; the referee gets no game, the lights show
        the service pattern. Returns whether the menu opened."""
        service = self.service
        if service is None or service.is_open:
            return False
        if not service.can_open():
            log.info("TEST pressed with the door shut: the service menu stays closed")
            return False
        with self.table.hold():  # the referee thread lets go of the game first
            self._fed = None
            self.table.play_onto(None)
            self.flow.abandon(now)
            finished = self._flow_update(now)
        self._record(finished)
        self._warnings.clear()
        self._notices_seen = True
        self.sync_audits()
        assert self.store is not None
        try:
            self.store.save_audits(now)  # so the books the menu shows are current
        except StorageError:
            log.exception("the books could not be written on opening the menu")
        service.context = self._service_context(self.store)
        service.open(now)
        self.menu_renderer.invalidate()
        return True

    def _in_menu(self, action: Callable[[], None], now: int) -> None:
        """Run one of the menu's steps; a bug or a storage failure in a page must not
        stop the cabinet: it is logged and the menu closes (what was changed is kept)."""
        try:
            action()
        except Exception:
            log.exception("the service menu failed; closing it")
            service = self.service
            if service is not None and service.is_open:
                try:
                    service.leave(now)  # saves and applies, as when the operator leaves
                except Exception:
                    log.exception("the service menu could not close cleanly")
                    service.stack = []

    def _service_closed(self, now: int) -> None:
        """The menu closed: settings and audits saved in one transaction, then applied;
        a fresh attract mode starts."""
        service = self.service
        store = self.store
        assert service is not None and store is not None
        self.restart_needed = service.restart_needed()
        self.sync_audits()
        try:
            store.save(now)
        except StorageError:  # a full or failing card: play on, with the changes applied
            log.exception("the settings and books could not be saved on leaving the menu")
        self.apply_settings(self.settings_overlay(AppSettings.from_stored(store.settings)))
        self.flow.abandon(now)  # a fresh demo on the new settings
        self._phase_seen = self.flow.phase
        self._demo_seen = self.flow.demo
        self.renderer.reset_animations()
        self.renderer.invalidate()

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

    def _count_stuck(self, batch: list[FeedEvent]) -> None:
        if self.store is not None:
            for item in batch:
                if isinstance(item, SwitchStuck):
                    self.store.audits.count_stuck(item.control)

    def _restart_table(self, now: int) -> None:
        """The table died (a bug, or its process was killed): say so, count it, abandon
        the game it was playing (in the books as abandoned, from what it reported) and
        start a new one, rather than leave the cabinet dead."""
        log.error("the table stopped: restarting it", exc_info=self.table.error)
        if self.store is not None:
            self.store.audits.count_table_restart()
        self.table.revive()
        with self.table.hold():
            self._fed = None
            self.table.play_onto(None)
            try:
                self.flow.abandon(now)
            except Exception:  # the game itself may be what broke: drop it
                log.exception("the game could not be abandoned cleanly")
            finished = self._flow_update(now)
        self._record(finished)

    def _flow_update(self, now: int) -> list[GameFinished]:
        """The flow's clock moves to ``now`` (call holding the feed's lock); returns the
        games that ended, for :meth:`_record` to write once the lock is let go."""
        return [n for n in self.flow.update(now) if isinstance(n, GameFinished)]

    def _record(self, finished: list[GameFinished]) -> None:
        """Into the books. A storage failure (disk full, card gone) must not stop the
        cabinet: it is logged, and the audits were rolled back with the transaction."""
        for game in finished:
            self.sync_audits()
            try:
                self.records.add(game)
            except (sqlite3.Error, OSError, StorageError):
                log.exception("a game could not be recorded")
                continue
            if game.number is not None:
                self.table.recorded(game.number)  # the table may forget it now

    # -- running -----------------------------------------------------------------------

    def start(self) -> None:
        self.table.start()

    def stop(self) -> None:
        self.table.stop()

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
        service = self.service
        if service is not None and service.is_open and service.page.wants_keys:
            codes = [event.key for event in pygame.event.get(pygame.KEYDOWN)]
            service.raw_keys(codes, now)
        if self._pump_input is not None:
            self._pump_input()
        if not self.table.alive:
            self._restart_table(now)
        batches: Iterable[list[FeedEvent]] = self.table.batches()
        # One rule for the game a referee thread plays onto: the main thread reads or
        # changes it only while holding the table's lock; the books are written after.
        with self.table.hold():
            for batch in batches:
                self._count_stuck(batch)
                if self.in_service:
                    assert service is not None
                    self._in_menu(functools.partial(service.take, batch, now), now)
                else:
                    self._take(batch, now)
            if service is not None and service.is_open:
                self._in_menu(lambda: service.tick(now), now)
            finished = [] if self.in_service else self._flow_update(now)
        self._record(finished)
        if service is not None and service.is_open:
            drawn: list[list[pygame.Rect]] = []

            def draw_menu() -> None:
                screen = service.screen(now)
                self.lights.show(screen.lights)
                self.table.lights(LightsContext(Phase.ATTRACT, override=screen.lights))
                drawn.append(self.menu_renderer.draw(screen))

            self._in_menu(draw_menu, now)
            if drawn:
                self.frames += 1
                return drawn[0]
        flow = self.flow
        self._follow_flow()
        if flow.phase is Phase.ATTRACT:
            if flow.demo is not self._demo_seen:
                self._demo_seen = flow.demo  # a new demo game: a new match clock
                self.renderer.reset_animations()
            self._game_events(flow.demo.advance(now), now, attract=True)
        view = self._view(now) if self.table.ready else self._out_of_order_view()
        self.lights.show(view.lights if view.lights is not None else LightState.all_off())
        rects = self.renderer.draw(view, self._screen_clock(now))
        self.frames += 1
        return rects

    # -- input and events --------------------------------------------------------------

    def _take(self, batch: list[FeedEvent], now: int) -> None:
        game_events: list[Event] = []
        for i, item in enumerate(batch):
            if isinstance(item, PlayerPress):
                self.flow.press(item.player, now)
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
                if not isinstance(item.control, str):
                    player, button = item.control
                    self._warnings[player] = self.tr.t(
                        "play.button_stuck", button=self._button_name(button.value)
                    )
            elif isinstance(item, SwitchFreed):
                if not isinstance(item.control, str):
                    self._warnings.pop(item.control[0], None)
            else:
                game_events.append(item)
        if game_events:
            self._game_events(game_events, now, attract=False)
            self.flow.match_events(game_events, now)

    def _button_name(self, button: str) -> str:
        kind, number = button[:-1], int(button[-1])
        return self.tr.t(f"button.{kind}", n=number)

    def _game_events(self, events: list[Event], now: int, *, attract: bool) -> None:
        if not events:
            return
        self.renderer.feed(events)
        for event in events:
            name = _sound_for(event)
            if name is not None:
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
            if flow.phase is Phase.READY:
                self.sounds.play("countdown")
            self._phase_seen = flow.phase

    # -- views -------------------------------------------------------------------------

    def _screen_clock(self, now: int) -> int:
        """The clock the screen's animations run on: the shown game's match clock."""
        flow = self.flow
        if flow.phase is Phase.ATTRACT:
            return flow.demo.to_match(now)
        if flow.match is not None:
            return flow.match.to_match(now)
        return 0

    def _names(self) -> tuple[str, str]:
        kinds = self.flow.seat_kinds
        return (
            self.tr.t("play.cpu") if kinds[0] is Seat.CPU else self.tr.t("play.player", player=1),
            self.tr.t("play.cpu") if kinds[1] is Seat.CPU else self.tr.t("play.player", player=2),
        )

    def _view(self, now: int) -> View:
        flow = self.flow
        tr = self.tr
        if flow.phase is Phase.ATTRACT:
            demo = flow.demo
            labels = TableLabels(
                (
                    tr.t(f"cpu.level.{flow.settings.demo_levels[0]}"),
                    tr.t(f"cpu.level.{flow.settings.demo_levels[1]}"),
                ),
                tr.t("play.stuck"),
            )
            state = demo.state()
            table = table_view(state, labels, countdown=self._countdown(demo, now, state))
            card = flow.howto_index(now, HOWTO_CARDS) + 1
            howto = tr.t(f"attract.howto.{card}")
            notices = self.operator_notices()
            if notices and card % 2:  # every other card, until the operator has looked
                howto = tr.t("attract.operator_notice", name=notices[0])
            lights = self._lights(None, countdown=False)
            return AttractView(
                table=_with_lights(table, lights),
                prompt=tr.t("attract.press_any_button"),
                howto=howto,
            )
        if flow.phase is Phase.JOIN:
            players = tuple(
                JoinPlayer(
                    tr.t("play.player", player=p + 1),
                    tr.t("join.ready", player=p + 1)
                    if flow.joined[p]
                    else tr.t("join.press_to_join", player=p + 1),
                    flow.joined[p],
                )
                for p in (0, 1)
            )
            seconds = flow.join_cpu_in_s(now)
            footer = (
                tr.t("join.cpu_in", seconds=seconds)
                if seconds is not None
                else tr.t("join.waiting_for_opponent")
            )
            return JoinView((players[0], players[1]), footer, self._lights(None, countdown=False))
        match = flow.match
        assert match is not None
        if flow.phase is Phase.GAME_OVER:
            return self._game_over_view()
        with self.table.hold():
            state = match.state()
        countdown = self._countdown(match, now, state)
        labels = TableLabels(self._names(), tr.t("play.stuck"))
        warnings = (self._warnings.get(0), self._warnings.get(1))
        table = table_view(state, labels, countdown=countdown, warnings=warnings)
        if flow.phase is Phase.READY:  # the piles get their cards at "spit!" (R5)
            table = dataclasses.replace(table, pile_tops=(None, None), pile_sizes=(0, 0))
        hints: list[tuple[int, int]] = []
        if self.settings.hints:
            hints = [(p, slot) for p in match.humans for slot in state.playable[p]]
        return _with_lights(
            table, self._lights(state, countdown=countdown is not None, hints=hints)
        )

    def _out_of_order_view(self) -> GameOverView:
        """The table process is being restarted: the cabinet says so."""
        tr = self.tr
        side = PlayerSummary("", (tr.t("table.restarting"),))
        return GameOverView(tr.t("table.out_of_order"), (side, side), None, None)

    def _countdown(self, match: Any, now: int, state: TableState) -> str | None:
        """ "Ready…" then "Spit!" while a countdown runs (the start's or R11's)."""
        left = countdown_left_ns(match.start_abs_ns, state.spit_due_ns, now)
        if left is None:
            return None
        return self.tr.t("play.ready") if left > READY_SHOWN_NS else self.tr.t("play.spit")

    def _lights(
        self,
        table: TableState | None,
        *,
        countdown: bool,
        hints: list[tuple[int, int]] | None = None,
    ) -> LightState:
        flow = self.flow
        winner = None
        if flow.last_summary is not None:
            winner = flow.last_summary.winner
        self.table.lights(
            LightsContext(
                flow.phase,
                joined=(flow.joined[0], flow.joined[1]),
                winner=winner,
                hints=self.settings.hints,
                brightness=self.settings.brightness_percent,
            )
        )
        return lights_for(
            flow.phase,
            table,
            countdown=countdown,
            joined=(flow.joined[0], flow.joined[1]),
            winner=winner,
            hints=hints or (),
            brightness=self.settings.brightness_percent,
        )

    def _game_over_view(self) -> GameOverView:
        flow = self.flow
        tr = self.tr
        summary = flow.last_summary
        winner = summary.winner if summary is not None else None
        kinds = flow.seat_kinds
        if summary is not None and summary.abandoned:
            headline = tr.t("gameover.abandoned")
        elif winner is None:
            headline = tr.t("gameover.draw")
        elif kinds[winner] is Seat.CPU:
            headline = tr.t("gameover.cpu_wins")
        else:
            headline = tr.t("gameover.wins", player=winner + 1)
        names = self._names()
        cards_left, plays, fastest_ns = (
            (summary.cards_left, summary.plays, summary.fastest_play_ns)
            if summary is not None
            else ((0, 0), (0, 0), (None, None))
        )
        closest = summary.closest_race if summary is not None else None
        players = []
        for p in (0, 1):
            lines = [
                tr.t("gameover.cards_left", count=cards_left[p]),
                tr.t("gameover.plays", count=plays[p]),
            ]
            fastest = fastest_ns[p]
            if fastest is not None:
                lines.append(tr.t("gameover.fastest_play", ms=fastest / MS))
            if closest is not None and closest.winner == p and closest.margin_ns > 0:
                lines.append(tr.t("gameover.closest_race", ms=closest.margin_ns / MS))
            players.append(PlayerSummary(names[p], tuple(lines), winner == p))
        match_line = None
        if flow.settings.rules.best_of > 1:
            match_line = tr.t("gameover.match_score", score0=flow.scores[0], score1=flow.scores[1])
        lights = self._lights(None, countdown=False)
        return GameOverView(headline, (players[0], players[1]), match_line, lights)


MIN_FRAME_GAP_NS = 2_000_000
"""A decided press is drawn at once, but frames come at most every 2 ms (bench/README.md:
with 4 ms, press → photon p99 was 11–12 ms under the race bench; with 2 ms, 8.9 ms)."""


def run_frames(
    app: CabinetApp,
    keep_going: Callable[[], bool],
    after_frame: Callable[[int], None] | None = None,
) -> None:
    """The cabinet's frame loop: a frame every 1/60 s, and one at once when the referee
    decides something (at most every 4 ms), until ``keep_going()`` is false.
    ``after_frame(now_ns)`` runs after each frame is shown."""
    next_frame = app.clock()
    while keep_going():
        now = app.clock()
        rects = app.step(now)
        if rects:
            pygame.display.update(rects)
        if after_frame is not None:
            after_frame(app.clock())
        if now >= next_frame:  # the frame that was due (an early one keeps the schedule)
            next_frame += FRAME_NS
            if next_frame <= now:  # fell behind: carry on from here, no catching up
                next_frame = now + FRAME_NS
        app.wait(next_frame, now + MIN_FRAME_GAP_NS)


def serial_ports() -> list[str]:
    """The serial devices present (for the LED port setting), by their stable names."""
    try:
        from serial.tools import list_ports
    except ImportError:
        return []
    return sorted(port.device for port in list_ports.comports())


def _with_lights(table: TableView, lights: LightState) -> TableView:
    return dataclasses.replace(table, lights=lights)


def _sound_for(event: Event) -> str | None:
    if isinstance(event, Selected):
        return "select"
    if isinstance(event, Played):
        return "play"
    if isinstance(event, Rejected):
        if event.reason is RejectReason.BEATEN:
            return "beaten"
        if event.reason is RejectReason.ILLEGAL:
            return "reject"
        return None
    if isinstance(event, Spat | GameStarted):
        return "spit"
    if isinstance(event, SpitDue):
        return "countdown"
    if isinstance(event, GameOver):
        return "win"
    return None
