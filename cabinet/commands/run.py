"""``spit-cabinet run`` (also ``spit-cabinet`` with no command): the cabinet itself.

On a Raspberry Pi with no desktop it runs full screen through SDL's kmsdrm driver with
the GPIO buttons; on a desktop it opens a window and reads the keyboard. ``--seconds``
stops it after a while (tests, demos); with no display at all (``SDL_VIDEODRIVER=dummy``)
it runs headless.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

from cabinet.app import AppSettings, BoardLights, CabinetApp, LightsOutput, run_frames
from cabinet.display.geometry import Orientation
from cabinet.flow import FlowSettings
from cabinet.i18n import LANGUAGES
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.select import (
    BackendUnavailableError,
    Platform,
    add_input_argument,
    choose_backend,
    open_backend,
)
from game.bots import LEVELS
from game.rules import Rules
from wiring.errors import WiringError

log = logging.getLogger("spit-cabinet")

WINDOW_SIZE = (1280, 720)


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
    parser.add_argument("--size", type=_size, help="window or screen size, e.g. 1920x1080")
    parser.add_argument(
        "--orientation",
        choices=[o.value for o in Orientation],
        default=Orientation.UPRIGHT.value,
        help="upright (side by side) or cocktail (face to face) (upright)",
    )
    parser.add_argument("--language", choices=LANGUAGES, default="en", help="(en)")
    parser.add_argument(
        "--lights",
        default="auto",
        help="the LED board's serial port, 'auto' to find it by USB id, or 'none' to show "
        "the lights on screen (auto)",
    )
    parser.add_argument(
        "--cpu-level", type=int, choices=range(1, len(LEVELS) + 1), default=3, metavar="N"
    )
    parser.add_argument("--no-cpu", action="store_true", help="a lone player never plays the CPU")
    parser.add_argument("--best-of", type=int, choices=(1, 3, 5), default=1)
    parser.add_argument(
        "--wiring", type=Path, help="the installer's pin map override (TOML, docs/wiring.md)"
    )
    parser.add_argument("--seconds", type=float, help="stop after this many seconds")
    parser.add_argument(
        "--autoplay",
        action="store_true",
        help="simulated people press the mock buttons (soak tests, demos; needs --input mock)",
    )
    parser.add_argument("--seed", type=int, help="seed the demo and the deals (default: clock)")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"give a size like 1920x1080, got {text!r}") from None
    if w < 320 or h < 240:
        raise argparse.ArgumentTypeError(f"the screen must be at least 320x240, got {text}")
    return (w, h)


def load_pins(path: Path | None) -> dict[Any, int] | None:
    """The input layer's pin map from the installer's override file, or ``None`` for
    the default map."""
    if path is None:
        return None
    from cabinet.inputs.gpio import pins_from_wiring
    from wiring.config import load_config

    return pins_from_wiring(load_config(path))


def settings_from(args: argparse.Namespace) -> AppSettings:
    rules = Rules(best_of=args.best_of)
    flow = FlowSettings(rules=rules, cpu_allowed=not args.no_cpu, cpu_level=args.cpu_level)
    return AppSettings(flow=flow, language=args.language, orientation=Orientation(args.orientation))


def open_lights(choice: str) -> LightsOutput:
    """The LED board's link when asked for or found, else lights on screen."""
    if choice == "none":
        return LightsOutput()
    from firmware_bridge.link import LightLink
    from firmware_bridge.transport import find_board

    port = None if choice == "auto" else choice
    if port is None and find_board() is None:
        log.info("no LED board found: the lights are shown on screen")
        return LightsOutput()
    return BoardLights(LightLink(port).start())


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    platform = Platform.detect()
    try:
        backend_name = choose_backend(args.input, platform)
    except (ValueError, BackendUnavailableError) as exc:
        print(f"spit-cabinet: {exc}", file=sys.stderr)
        return 2
    pygame.display.init()
    pygame.font.init()
    full = not args.windowed and platform.is_pi
    size = args.size or ((0, 0) if full else WINDOW_SIZE)
    flags = pygame.FULLSCREEN if full else 0
    try:
        screen = pygame.display.set_mode(size, flags)
    except pygame.error as exc:
        print(
            f"spit-cabinet: cannot open the display ({exc}). On a desktop, run it in the "
            "desktop session; on the Pi console, see docs/install-pi.md; with no screen at "
            "all, set SDL_VIDEODRIVER=dummy to run headless.",
            file=sys.stderr,
        )
        return 1
    pygame.display.set_caption("Spit")
    pygame.mouse.set_visible(not full)
    edges = EdgeQueue()
    try:
        pins = load_pins(args.wiring)
        backend = open_backend(backend_name, edges, platform=platform, pins=pins)
    except (BackendUnavailableError, WiringError) as exc:
        print(f"spit-cabinet: {exc}", file=sys.stderr)
        return 2
    from cabinet.sound import SoundBoard

    settings = settings_from(args)
    sounds = SoundBoard.open(
        volume_percent=settings.volume_percent, attract_sound=settings.attract_sound
    )
    lights = open_lights(args.lights)
    app = CabinetApp(
        screen,
        edges,
        settings,
        sounds=sounds,
        lights=lights,
        seed=args.seed,
        pump_input=backend.pump,
    )
    log.info("running: input %s, %dx%d", backend_name, *screen.get_size())
    deadline = None if args.seconds is None else time.monotonic_ns() + int(args.seconds * 1e9)

    def keep_going() -> bool:
        if pygame.event.get(pygame.QUIT):
            return False
        return deadline is None or time.monotonic_ns() < deadline

    after_frame = None
    if args.autoplay:
        from cabinet.autoplay import AutoPlayers
        from cabinet.inputs.mock import MockInput

        if not isinstance(backend, MockInput):
            print(
                "spit-cabinet: --autoplay presses mock buttons: add --input mock", file=sys.stderr
            )
            return 2
        mock = backend

        def press(control: Any, pressed: bool, t_ns: int) -> None:
            (mock.press if pressed else mock.release)(control, t_ns)

        after_frame = AutoPlayers(app, press, seed=args.seed or 0).act

    with backend:
        app.start()
        try:
            run_frames(app, keep_going, after_frame)
        except KeyboardInterrupt:
            pass
        finally:
            app.stop()
            if isinstance(lights, BoardLights):
                lights.link.stop()
            sounds.close()
    games = app.records.games
    log.info("stopped after %d frames, %d games recorded", app.frames, len(games))
    return 0
