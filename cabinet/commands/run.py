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
from pathlib import Path
from typing import Any

from cabinet.commands.arg_types import float_range
from cabinet.commands.deployment import mark_started, notify_ready, rollbacks_logged
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
    game_sink,
    lights_output,
)
from cabinet.display.frame_loop import run_frames
from cabinet.display.parts import CabinetParts
from cabinet.drawing.backend import BackendChoice, DisplayBackend
from cabinet.drawing.geometry import Orientation
from cabinet.drawing.gpu import prepare_environment
from cabinet.drawing.opening import ScreenRequest, fallback_for, open_screen
from cabinet.i18n import LANGUAGES
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.select import (
    BackendUnavailableError,
    InputKind,
    Platform,
    add_input_argument,
    choose_backend,
    open_backend,
)
from cabinet.storage.paths import add_data_dir_option, data_dir
from cabinet.storage.setting_table import (
    DISPLAY_BACKEND,
    INPUT_BACKEND,
    KEYBOARD_MAP,
    LED_PORT,
    RESOLUTION,
)
from cabinet.storage.settings import Settings
from cabinet.storage.store import CabinetStore
from cabinet.table.process import LOG_LEVELS, leave_table_core
from cabinet.table.remote import RemoteTable
from game.bots import LEVELS
from wiring.errors import WiringError

log = logging.getLogger("spit-cabinet")

MAX_SECONDS = 31_536_000
"""The longest ``--seconds``: a year (a soak test); with no ``--seconds`` it runs on."""

MAX_AUTOPLAY_AFTER_S = 3600
"""The longest ``--autoplay-after``: an hour of attract mode before the first game."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the cabinet (the default when no command is given)",
        description="Run the cabinet: attract mode, players join, games, game over.",
    )
    add_run_arguments(parser)
    parser.set_defaults(func=run)


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    add_input_argument(parser)
    parser.add_argument("--windowed", action="store_true", help="a window, not full screen")
    parser.add_argument(
        "--display-backend",
        choices=[c.value for c in BackendChoice],
        help="what draws the screen: texture (the GPU), software, or auto (the GPU on the "
        "console; docs/display.md) (default: the setting)",
    )
    parser.add_argument("--size", type=screen_size, help="window or screen size, e.g. 1920x1080")
    parser.add_argument(
        "--orientation",
        choices=[o.value for o in Orientation],
        help="upright (side by side) or cocktail (face to face) (default: the setting)",
    )
    parser.add_argument("--language", choices=LANGUAGES, help="(default: the setting)")
    parser.add_argument(
        "--lights",
        help="the LED board's serial port, 'auto' to find it by USB id, or 'none' to show "
        "the lights on screen (default: the setting)",
    )
    parser.add_argument("--cpu-level", type=int, choices=range(1, len(LEVELS) + 1), metavar="N")
    parser.add_argument("--no-cpu", action="store_true", help="a lone player never plays the CPU")
    parser.add_argument("--best-of", type=int, choices=(1, 3, 5))
    add_data_dir_option(parser)
    parser.add_argument(
        "--wiring", type=Path, help="the installer's pin map override (TOML, docs/wiring.md)"
    )
    parser.add_argument(
        "--seconds",
        type=float_range(0, MAX_SECONDS, "seconds"),
        help=f"stop after this many seconds, 0 to {MAX_SECONDS} (a year)",
    )
    parser.add_argument(
        "--autoplay",
        action="store_true",
        help="simulated people press the mock buttons (soak tests, demos; needs --input mock)",
    )
    parser.add_argument(
        "--autoplay-after",
        type=float_range(0, MAX_AUTOPLAY_AFTER_S, "seconds"),
        default=0.0,
        metavar="S",
        help=f"with --autoplay, watch attract this long before joining, 0 to "
        f"{MAX_AUTOPLAY_AFTER_S} s (0)",
    )
    parser.add_argument(
        "--games", type=int, metavar="N", help="stop once N games have been recorded"
    )
    parser.add_argument("--seed", type=int, help="seed the demo and the deals (default: clock)")
    parser.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default="info",
        help="debug: the table process logs every decision it makes (info)",
    )
    parser.add_argument(
        "--press-socket",
        type=Path,
        metavar="PATH",
        help="with --input mock: take timed presses from other processes on this Unix "
        "socket (tests, benchmarks; docs/input.md)",
    )


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
    args: argparse.Namespace, backend_name: InputKind, port: str | None, data: Path
) -> list[str]:
    """The table process's command line for this run."""
    out = ["--input", "none" if backend_name is InputKind.KEYBOARD else backend_name.value]
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
        return _run(args, cleanup)


def _run(args: argparse.Namespace, cleanup: contextlib.ExitStack) -> int:
    """The cabinet, with everything it opens registered on ``cleanup`` as it is opened,
    so every way out (an error, Ctrl+C, the service stopping it) closes it again."""
    import pygame

    data = data_dir(args.data_dir)
    store = CabinetStore.open(data)
    cleanup.callback(lambda: store.close(time.monotonic_ns()))
    store.power_on(time.monotonic_ns(), rollbacks_logged=rollbacks_logged())
    for problem in store.problems:
        log.warning("%s", problem.message)
    stored = store.settings
    try:
        platform = Platform.detect()
    except BackendUnavailableError as exc:
        print(f"spit-cabinet: {exc}", file=sys.stderr)
        return 2
    backend_setting = stored.get(INPUT_BACKEND)
    requested = InputKind.MOCK if args.autoplay or args.press_socket else args.input
    if requested is None and backend_setting != "auto":
        requested = backend_setting
    try:
        backend_name = choose_backend(requested, platform)
    except (ValueError, BackendUnavailableError) as exc:
        if args.input is not None or args.autoplay:
            print(f"spit-cabinet: {exc}", file=sys.stderr)
            return 2
        # Only the stored setting asked for it: never leave the cabinet without buttons.
        log.warning(
            "input backend %r from the settings: %s; choosing for this machine", requested, exc
        )
        try:
            backend_name = choose_backend(None, platform)
        except BackendUnavailableError as again:
            print(f"spit-cabinet: {again}", file=sys.stderr)
            return 2
    try:
        button_pins(args.wiring)  # the table opens them; a bad map is said here, once
    except WiringError as exc:
        print(f"spit-cabinet: {exc}", file=sys.stderr)
        return 2
    pygame.display.init()
    pygame.font.init()
    cleanup.callback(pygame.quit)
    video_driver = pygame.display.get_driver()
    full = full_screen(args.windowed, platform.is_pi, video_driver)
    renderer = render_driver(video_driver, os.environ)
    if renderer is not None:  # read by SDL when set_mode makes the window's surface
        os.environ[RENDER_DRIVER_VAR] = renderer
    prepare_environment(video_driver.lower())
    resolution = stored.get(RESOLUTION)
    stored_size = None if resolution == "auto" else screen_size(resolution)
    size = args.size or stored_size or ((0, 0) if full else WINDOW_SIZE)
    flags = pygame.FULLSCREEN if full else 0
    choice = BackendChoice(args.display_backend or stored.get(DISPLAY_BACKEND))
    try:
        screen = open_screen(choice, ScreenRequest(size, full, flags))
    except pygame.error as exc:
        print(
            f"spit-cabinet: cannot open the display ({exc}). On a desktop, run it in the "
            "desktop session; on the Pi console, see docs/install-pi.md; with no screen at "
            "all, set SDL_VIDEODRIVER=dummy to run headless.",
            file=sys.stderr,
        )
        return 1
    pygame.mouse.set_visible(not full)
    edges = EdgeQueue()
    keyboard = backend_name is InputKind.KEYBOARD
    backend = None
    try:
        if keyboard:  # keys arrive here, stamped at the pump, and go on to the table
            from cabinet.inputs.keyboard import KeyMap

            keymap = KeyMap.from_names(stored.get(KEYBOARD_MAP))
            backend = open_backend(backend_name, edges, platform=platform, keymap=keymap)
    except (BackendUnavailableError, WiringError) as exc:
        print(f"spit-cabinet: {exc}", file=sys.stderr)
        return 2
    from cabinet.sound import SoundBoard

    settings = settings_from(stored, args)
    sounds = SoundBoard.open(
        volume_percent=settings.volume_percent, attract_sound=settings.attract_sound
    )
    cleanup.callback(sounds.close)
    port = board_port(args.lights or stored.get(LED_PORT))
    table = RemoteTable(table_args(args, backend_name, port, data))
    leave_table_core()

    def pump_input() -> None:
        if backend is not None:
            backend.pump()
            table.forward(edges.take())

    def set_mode(resolution: str) -> DisplayBackend:
        chosen = args.size or (None if resolution == "auto" else screen_size(resolution))
        request = ScreenRequest(chosen or ((0, 0) if full else WINDOW_SIZE), full, flags)
        return open_screen(choice, request)

    games = game_sink(store)
    lines = coin_lines(args.wiring, backend_name)
    cleanup.callback(lines.close)
    app = CabinetApp(
        screen,
        edges,
        settings,
        CabinetParts(
            sounds=sounds,
            lights=lights_output(port, table),
            games=games,
            pump_input=pump_input,
            store=store,
            set_mode=set_mode,
            fallback=fallback_for(ScreenRequest(screen.size, full, flags)),
            input_backend=backend,
            table=table,
            settings_overlay=lambda settings: overlay(settings, args),
            door_open=door_open_from(table),
            coin_lines=lines,
        ),
        seed=args.seed,
    )
    cleanup.callback(app.books.sync_audits)  # before the store closes: it runs first
    log.info("running: input %s, %dx%d, %s", backend_name, *screen.size, screen.describe)
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
    if table.refused is not None and not table.started:
        print(f"spit-cabinet: {table.refused}", file=sys.stderr)
        return 2
    log.info("stopped after %d frames, %d games recorded", app.frames, games.count)
    return 0
