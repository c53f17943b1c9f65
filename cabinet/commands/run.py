"""``spit-cabinet run`` (also ``spit-cabinet`` with no command): the cabinet itself.

Two processes: this one (the display: pygame, the flow, sound, the service menu, the
books) starts the table process (``python -m cabinet.table``: the buttons, the referee,
the game, the LED board) and talks to it over a socket pair (``docs/input.md``).

On a Raspberry Pi with no desktop it runs full screen through SDL's kmsdrm driver with
the GPIO buttons; on a desktop it opens a window and reads the keyboard. ``--seconds``
stops it after a while (tests, demos); with no display at all (``SDL_VIDEODRIVER=dummy``)
it runs headless.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cabinet.commands.deployment import (
    install_dir,
    mark_started,
    notify_ready,
    rollbacks_logged,
)
from cabinet.commands.link_start import start_link, watch_parts
from cabinet.commands.run_arguments import MAX_AUTOPLAY_AFTER_S as MAX_AUTOPLAY_AFTER_S
from cabinet.commands.run_arguments import MAX_SECONDS as MAX_SECONDS
from cabinet.commands.run_arguments import add_run_arguments
from cabinet.commands.screen_mode import (
    RENDER_DRIVER_VAR,
    WINDOW_SIZE,
    full_screen,
    render_driver,
    screen_size,
)
from cabinet.display.app import CabinetApp
from cabinet.display.app_settings import AppSettings
from cabinet.display.assembly import (
    board_port,
    button_pins,
    coin_lines,
    door_open_from,
    door_shut_from,
    game_sink,
    lights_output,
)
from cabinet.display.frame_loop import run_frames
from cabinet.display.games import StoredGames
from cabinet.display.parts import CabinetParts
from cabinet.drawing.backend import BackendChoice, DisplayBackend
from cabinet.drawing.geometry import Orientation
from cabinet.drawing.gpu import prepare_environment
from cabinet.drawing.opening import ScreenRequest, fallback_for, open_screen
from cabinet.inputs.base import InputBackend
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.select import (
    BackendUnavailableError,
    InputKind,
    Platform,
    choose_backend,
    open_backend,
)
from cabinet.storage.paths import data_dir
from cabinet.storage.setting_table import (
    DISPLAY_BACKEND,
    INPUT_BACKEND,
    KEYBOARD_MAP,
    LED_PORT,
    RESOLUTION,
)
from cabinet.storage.settings import Settings
from cabinet.storage.store import CabinetStore
from cabinet.table.process import leave_table_core
from cabinet.table.remote import RemoteTable
from wiring.errors import WiringError

log = logging.getLogger("spit-cabinet")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the cabinet (the default when no command is given)",
        description="Run the cabinet: attract mode, players join, games, game over.",
    )
    add_run_arguments(parser)
    parser.set_defaults(func=run)


def settings_from(stored: Settings, args: argparse.Namespace) -> AppSettings:
    """The settings the operator stored, with this run's command-line choices on top."""
    return overlay(AppSettings.from_stored(stored), args)


def overlay(settings: AppSettings, args: argparse.Namespace) -> AppSettings:
    """``settings`` with this run's command-line choices on top (again after every visit
    to the service menu, so ``--best-of 3`` lasts the whole run)."""
    flow = settings.flow
    rules = flow.rules
    if args.best_of is not None:
        rules = dataclasses.replace(rules, best_of=args.best_of)
    flow = dataclasses.replace(
        flow,
        rules=rules,
        cpu_allowed=flow.cpu_allowed and not args.no_cpu,
        cpu_level=args.cpu_level if args.cpu_level is not None else flow.cpu_level,
    )
    return dataclasses.replace(
        settings,
        flow=flow,
        language=args.language or settings.language,
        orientation=Orientation(args.orientation) if args.orientation else settings.orientation,
    )


def table_args(
    args: argparse.Namespace,
    backend_name: InputKind,
    port: str | None,
    data: Path,
    core: int | None = None,
) -> list[str]:
    """The table process's command line for this run (``core``: the one the display left
    it, if any)."""
    out = ["--input", "none" if backend_name is InputKind.KEYBOARD else backend_name.value]
    if core is not None:
        out += ["--core", str(core)]
    out += ["--data-dir", str(data), "--seed", str(args.seed or 0)]
    if args.wiring is not None:
        out += ["--wiring", str(args.wiring)]
    if port is not None:
        out += ["--lights", port]
    if args.press_socket is not None:
        out += ["--press-socket", str(args.press_socket)]
    if args.autoplay:
        out += ["--autoplay", "--autoplay-after", str(args.autoplay_after)]
    return [*out, "--log-level", args.log_level]


class _Stop(Exception):
    """The cabinet cannot run: ``spit-cabinet: `` and the message on stderr, then exit
    with :attr:`status`."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


@dataclasses.dataclass(frozen=True, slots=True)
class _ScreenMode:
    """How this run opens the screen: the backend asked for, full screen or a window
    (``set_mode``'s ``flags``) and ``--size``, which outranks the resolution setting."""

    choice: BackendChoice
    full: bool
    flags: int
    size: tuple[int, int] | None

    def request(self, size: tuple[int, int]) -> ScreenRequest:
        return ScreenRequest(size, self.full, self.flags)

    def open(self, resolution: str) -> DisplayBackend:
        """The screen at a resolution setting (``"auto"``: the screen's own mode full
        screen, :data:`WINDOW_SIZE` in a window), or at ``--size`` if given."""
        chosen = self.size or (None if resolution == "auto" else screen_size(resolution))
        return open_screen(
            self.choice, self.request(chosen or ((0, 0) if self.full else WINDOW_SIZE))
        )


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if args.log_level == "debug":
        logging.getLogger("cabinet.table").setLevel(logging.DEBUG)
    if (args.autoplay or args.press_socket) and args.input not in (None, "mock"):
        print(
            "spit-cabinet: --autoplay and --press-socket press mock buttons: use --input mock",
            file=sys.stderr,
        )
        return 2
    with contextlib.ExitStack() as cleanup:
        try:
            return _run(args, cleanup)
        except _Stop as stop:  # said before anything opened is closed
            print(f"spit-cabinet: {stop}", file=sys.stderr)
            return stop.status


def _run(args: argparse.Namespace, cleanup: contextlib.ExitStack) -> int:
    """The cabinet, with everything it opens registered on ``cleanup`` as it is opened,
    so every way out (an error, Ctrl+C, the service stopping it) closes it again."""
    data = data_dir(args.data_dir)
    store = _open_store(data, cleanup)
    stored = store.settings
    platform, backend_name = _input_choice(args, stored)
    try:
        button_pins(args.wiring)  # the table opens them; a bad map is said here, once
    except WiringError as exc:
        raise _Stop(str(exc)) from None
    screen, mode = _open_display(args, stored, platform, cleanup)
    edges = EdgeQueue()
    backend = _keyboard_backend(backend_name, edges, platform, stored)
    from cabinet.sound import SoundBoard

    settings = settings_from(stored, args)
    sounds = SoundBoard.open(
        volume_percent=settings.volume_percent, attract_sound=settings.attract_sound
    )
    cleanup.callback(sounds.close)
    port = board_port(args.lights or stored.get(LED_PORT))
    table = RemoteTable(table_args(args, backend_name, port, data, leave_table_core()))

    def pump_input() -> None:
        if backend is not None:
            backend.pump()
            table.forward(edges.take())

    games = game_sink(store)
    lines = coin_lines(args.wiring, backend_name)
    cleanup.callback(lines.close)
    parts = CabinetParts(
        sounds=sounds,
        lights=lights_output(port, table),
        games=games,
        pump_input=pump_input,
        store=store,
        set_mode=mode.open,
        fallback=fallback_for(mode.request(screen.size)),
        input_backend=backend,
        table=table,
        settings_overlay=lambda settings: overlay(settings, args),
        door_open=door_open_from(table),
        door_shut=door_shut_from(table),
        coin_lines=lines,
        install_dir=install_dir(),
    )
    app = CabinetApp(screen, edges, settings, parts, seed=args.seed)
    cleanup.callback(app.books.sync_audits)  # before the store closes: it runs first
    start_link(store, cleanup, watch_parts(parts))
    log.info("running: input %s, %dx%d, %s", backend_name, *screen.size, screen.describe)
    keep_going = _keep_going(args, games, table, backend_name is InputKind.KEYBOARD)
    _run_frames(app, backend, keep_going, cleanup)
    if table.refused is not None and not table.started:
        raise _Stop(table.refused)
    log.info("stopped after %d frames, %d games recorded", app.frames, games.count)
    return 0


def _open_store(data: Path, cleanup: contextlib.ExitStack) -> CabinetStore:
    """The books in ``data``, powered on (what they found wrong logged), closed on the way
    out."""
    store = CabinetStore.open(data)
    cleanup.callback(lambda: store.close(time.monotonic_ns()))
    store.power_on(time.monotonic_ns(), rollbacks_logged=rollbacks_logged())
    for problem in store.problems:
        log.warning("%s", problem.message)
    return store


def _input_choice(args: argparse.Namespace, stored: Settings) -> tuple[Platform, InputKind]:
    """This machine, and the input backend for this run: ``--input`` (mock with
    ``--autoplay`` or ``--press-socket``), else the setting, else this machine's choice.
    One only the setting asked for that cannot run here is logged and replaced by this
    machine's choice: the cabinet is never left without buttons."""
    try:
        platform = Platform.detect()
    except BackendUnavailableError as exc:
        raise _Stop(str(exc)) from None
    backend_setting = stored.get(INPUT_BACKEND)
    requested = InputKind.MOCK if args.autoplay or args.press_socket else args.input
    if requested is None and backend_setting != "auto":
        requested = backend_setting
    try:
        return platform, choose_backend(requested, platform)
    except (ValueError, BackendUnavailableError) as exc:
        if args.input is not None or args.autoplay:
            raise _Stop(str(exc)) from None
        # Only the stored setting asked for it: never leave the cabinet without buttons.
        log.warning(
            "input backend %r from the settings: %s; choosing for this machine", requested, exc
        )
    try:
        return platform, choose_backend(None, platform)
    except BackendUnavailableError as exc:
        raise _Stop(str(exc)) from None


def _open_display(
    args: argparse.Namespace, stored: Settings, platform: Platform, cleanup: contextlib.ExitStack
) -> tuple[DisplayBackend, _ScreenMode]:
    """pygame's display, quit on the way out, and the screen opened on it, full screen on
    a Pi or a console (the mouse hidden there), with the mode it was opened in."""
    import pygame

    pygame.display.init()
    pygame.font.init()
    cleanup.callback(pygame.quit)
    video_driver = pygame.display.get_driver()
    full = full_screen(args.windowed, platform.is_pi, video_driver)
    renderer = render_driver(video_driver, os.environ)
    if renderer is not None:  # read by SDL when set_mode makes the window's surface
        os.environ[RENDER_DRIVER_VAR] = renderer
    prepare_environment(video_driver.lower())
    choice = BackendChoice(args.display_backend or stored.get(DISPLAY_BACKEND))
    mode = _ScreenMode(choice, full, pygame.FULLSCREEN if full else 0, args.size)
    try:
        screen = mode.open(stored.get(RESOLUTION))
    except pygame.error as exc:
        raise _Stop(
            f"cannot open the display ({exc}). On a desktop, run it in the desktop session; "
            "on the Pi console, see docs/install-pi.md; with no screen at all, set "
            "SDL_VIDEODRIVER=dummy to run headless.",
            status=1,
        ) from None
    pygame.mouse.set_visible(not full)
    return screen, mode


def _keyboard_backend(
    kind: InputKind, edges: EdgeQueue, platform: Platform, stored: Settings
) -> InputBackend | None:
    """The keyboard backend, with the key map the settings give, when the keys are the
    buttons: keys arrive in this process, stamped at the pump, and go on to the table.
    ``None`` for the other backends, which the table process opens."""
    if kind is not InputKind.KEYBOARD:
        return None
    try:
        from cabinet.inputs.keyboard import KeyMap

        keymap = KeyMap.from_names(stored.get(KEYBOARD_MAP))
        return open_backend(kind, edges, platform=platform, keymap=keymap)
    except (BackendUnavailableError, WiringError) as exc:
        raise _Stop(str(exc)) from None


def _keep_going(
    args: argparse.Namespace, games: StoredGames, table: RemoteTable, keyboard: bool
) -> Callable[[], bool]:
    """Asked before every frame whether the cabinet runs on: not once the window is
    closed, ``--games`` games are recorded, the table cannot run as set up, or
    ``--seconds`` (from now) are up. ``keyboard``: the keys are the buttons."""
    import pygame

    deadline = None if args.seconds is None else time.monotonic_ns() + int(args.seconds * 1e9)

    def keep_going() -> bool:
        # The keyboard backend takes its key events itself; everything else (a mouse, a
        # stray keyboard on the cabinet) is drained here so SDL's queue never fills.
        events = (
            pygame.event.get(exclude=(pygame.KEYDOWN, pygame.KEYUP))
            if keyboard
            else (pygame.event.get())
        )
        if any(e.type == pygame.QUIT for e in events):
            return False
        if args.games is not None and games.count >= args.games:
            return False
        if table.refused is not None and not table.started:
            return False  # the table cannot run as set up: said below, once
        return deadline is None or time.monotonic_ns() < deadline

    return keep_going


def _run_frames(
    app: CabinetApp,
    backend: InputBackend | None,
    keep_going: Callable[[], bool],
    cleanup: contextlib.ExitStack,
) -> None:
    """Open the keyboard backend, start the cabinet and run its frames until
    ``keep_going`` says stop or Ctrl+C; on the way out the menu's changes are saved and
    the cabinet stopped. The first frame on the screen tells the deployment it started."""
    if backend is not None:
        cleanup.enter_context(backend)
    cleanup.callback(lambda: app.host.leave(time.monotonic_ns()))  # saves the menu's changes
    cleanup.callback(app.stop)
    app.start()
    started = False

    def after_frame(_now_ns: int) -> None:
        nonlocal started
        if not started:  # the first frame is on the screen: the cabinet has started
            started = True
            mark_started()
            notify_ready()

    with contextlib.suppress(KeyboardInterrupt):  # SIGINT is how systemd stops it
        run_frames(app, keep_going, after_frame)
