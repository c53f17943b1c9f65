"""``python -m firmware_bridge.sim``: run the light board simulator on a pseudo-terminal.

Prints the port's path on the first line of standard output, then (with ``--draw``) keeps
redrawing the lights on one terminal line until interrupted.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Sequence

from firmware_bridge.firmware.config import Config, parse_config
from firmware_bridge.sim import Simulator
from firmware_bridge.sim.terminal import draw


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m firmware_bridge.sim",
        description="Run the light board's firmware on a pseudo-terminal, with stub hardware.",
    )
    parser.add_argument(
        "--link", metavar="PATH", help="also make PATH a symlink to the pty (a stable name)"
    )
    parser.add_argument(
        "--config", metavar="FILE", help="firmware configuration JSON (default: built-in)"
    )
    parser.add_argument(
        "--driver", choices=("plain", "pwm", "ws2812"), help="override the configured driver"
    )
    parser.add_argument("--draw", action="store_true", help="draw the lights in this terminal")
    parser.add_argument(
        "--fps", type=float, default=20.0, help="redraws per second with --draw (default 20)"
    )
    return parser


def load(path: str | None, driver: str | None) -> Config:
    values: dict[str, object] = {}
    if path is not None:
        with open(path, encoding="utf-8") as f:
            values = parse_config(f.read(), path)
    if driver is not None:
        values["driver"] = driver
    return Config(values)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        config = load(args.config, args.driver)
    except (OSError, ValueError) as exc:
        print(f"cannot use the configuration: {exc}", file=sys.stderr)
        return 2
    sim = Simulator(config, link_path=args.link)
    port = sim.start()
    print(port, flush=True)
    done = threading.Event()
    try:
        while not done.wait(1.0 / args.fps if args.draw else 3600):
            if args.draw:
                sys.stdout.write("\r" + draw(sim.shown()) + "\x1b[K")
                sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
        if args.draw:
            sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
