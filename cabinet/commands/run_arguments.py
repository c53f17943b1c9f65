"""``spit-cabinet run``'s command line: every option, with its limits and its help.
:mod:`cabinet.commands.run` parses with them and runs the cabinet."""

from __future__ import annotations

import argparse
from pathlib import Path

from cabinet.commands.arg_types import float_range
from cabinet.commands.screen_mode import screen_size
from cabinet.drawing.backend import BackendChoice
from cabinet.drawing.geometry import Orientation
from cabinet.i18n import LANGUAGES
from cabinet.inputs.select import add_input_argument
from cabinet.storage.paths import add_data_dir_option
from cabinet.table.process import LOG_LEVELS
from game.bots import LEVELS

MAX_SECONDS = 31_536_000
"""The longest ``--seconds``: a year (a soak test); with no ``--seconds`` it runs on."""

MAX_AUTOPLAY_AFTER_S = 3600
"""The longest ``--autoplay-after``: an hour of attract mode before the first game."""


def add_run_arguments(parser: argparse.ArgumentParser) -> None:
    add_input_argument(parser)
    _add_display_arguments(parser)
    parser.add_argument("--cpu-level", type=int, choices=range(1, len(LEVELS) + 1), metavar="N")
    parser.add_argument("--no-cpu", action="store_true", help="a lone player never plays the CPU")
    parser.add_argument("--best-of", type=int, choices=(1, 3, 5))
    add_data_dir_option(parser)
    parser.add_argument(
        "--wiring", type=Path, help="the installer's pin map override (TOML, docs/wiring.md)"
    )
    _add_test_arguments(parser)


def _add_display_arguments(parser: argparse.ArgumentParser) -> None:
    """What the players see: the window or screen, its language, and the lights."""
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


def _add_test_arguments(parser: argparse.ArgumentParser) -> None:
    """For tests, soak tests, demos and benchmarks: how long to run, simulated players,
    the seed, the table's log and timed presses from outside."""
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
