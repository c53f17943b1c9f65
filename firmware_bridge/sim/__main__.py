"""``python -m firmware_bridge.sim``: run the light board simulator on a pseudo-terminal.

Prints the port's path on the first line of standard output, then (with ``--draw``) keeps
redrawing the lights on one terminal line until interrupted; with ``--log FILE`` it also
appends each change of the lit lights to FILE (:mod:`firmware_bridge.sim.light_log`).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Sequence

from firmware_bridge.firmware.config import Config, parse_config
from firmware_bridge.sim import Simulator, monotonic_ms
from firmware_bridge.sim.light_log import SAMPLE_MS, LightLog
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
        "--log", metavar="FILE", help="append a JSON line to FILE each time the lit lights change"
    )
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
    try:
        log_file = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    except OSError as exc:
        print(f"cannot write the light log: {exc}", file=sys.stderr)
        return 2
    light_log = LightLog(log_file) if log_file is not None else None
    sim = Simulator(config, link_path=args.link)
    port = sim.start()
    print(port, flush=True)
    done = threading.Event()
    period_s = SAMPLE_MS / 1000 if light_log is not None else 3600.0
    if args.draw:
        period_s = min(period_s, 1.0 / args.fps)
    next_draw = 0.0
    try:
        while not done.wait(period_s):
            if light_log is not None:
                light_log.sample(sim.shown(), monotonic_ms())
            if args.draw and time.monotonic() >= next_draw:
                next_draw = time.monotonic() + 1.0 / args.fps
                sys.stdout.write("\r" + draw(sim.shown()) + "\x1b[K")
                sys.stdout.flush()
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
        if log_file is not None:
            log_file.close()
        if args.draw:
            sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
