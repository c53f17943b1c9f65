"""``spit-cabinet lights test``: light every light in turn, for installers.

Each light comes on alone for ``--step-ms``, named on the terminal, so an installer can
check the wiring against docs/lights.md; then all blink together, then all go off, and the
link's health is printed.
"""

from __future__ import annotations

import argparse
import sys
import time

from cabinet.commands.arg_types import float_range, int_range
from firmware_bridge.lights import LIGHT_NAMES, Light, LightState
from firmware_bridge.link import LightLink

MAX_STEP_MS = 60_000
"""The longest ``--step-ms``: a minute per light is already more than anyone checks."""

MAX_CONNECT_TIMEOUT_S = 600
"""The longest ``--connect-timeout-s``: ten minutes to plug the board in."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("lights", help="the indicator lights")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    test = actions.add_parser(
        "test",
        help="cycle every light, for installers",
        description="Light every light in turn and name it, then blink them all and print "
        "the link's health.",
        epilog="Exit status: 0 done; 1 no board answered, or it stopped answering; 2 bad "
        "arguments.",
    )
    test.add_argument("--port", help="the board's serial port (default: found by USB id)")
    test.add_argument(
        "--step-ms",
        type=int_range(0, MAX_STEP_MS, "ms"),
        default=600,
        help=f"how long each light stays on, 0 to {MAX_STEP_MS} ms (default 600)",
    )
    test.add_argument(
        "--connect-timeout-s",
        type=float_range(0.0, MAX_CONNECT_TIMEOUT_S, "seconds"),
        default=5.0,
        help=f"how long to look for the board, 0 to {MAX_CONNECT_TIMEOUT_S} s (default 5)",
    )
    test.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    step_s = max(args.step_ms, 1) / 1000
    with LightLink(args.port) as link:
        if not link.wait_for(lambda h: h.connected, args.connect_timeout_s):
            print(f"no light board answered: {link.health().last_error}", file=sys.stderr)
            return 1
        health = link.health()
        print(f"board on {health.port}, firmware {health.firmware_version}")
        for name in LIGHT_NAMES:
            state = LightState.all_off().replaced({name: Light.on()})
            link.show(state)
            print(f"  {name}")
            time.sleep(step_s)
        link.show(LightState(tuple(Light.blink(400) for _ in LIGHT_NAMES)))
        print("  all blinking")
        time.sleep(max(step_s, 0.8))
        final = LightState.all_off()
        link.show(final)
        link.request_counters()
        if not link.wait_for(lambda h: h.acked == final and h.board_counters is not None, 2.0):
            print("the board stopped answering during the test", file=sys.stderr)
            return 1
        health = link.health()
        print(
            f"round trip {health.rtt_ms:.2f} ms, errors {health.errors}, "
            f"board counters {health.board_counters}"
        )
    return 0
