"""The ``spit-cabinet`` command line: one subcommand per module in :mod:`cabinet.commands`.

Each command module exposes ``register(subparsers)``, which adds its parser and sets
``func`` (a callable taking the parsed arguments and returning the exit status).
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from collections.abc import Sequence

#: The command modules, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "cabinet.commands.run",
    "cabinet.commands.simulate",
    "cabinet.commands.replay",
    "cabinet.commands.wiring",
    "cabinet.commands.lights",
    "cabinet.commands.firmware",
    "cabinet.commands.doctor",
    "cabinet.commands.settings",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spit-cabinet",
        description="The Spit arcade cabinet. With no command, runs the cabinet.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or (words[0].startswith("-") and words[0] not in ("-h", "--help")):
        words.insert(0, "run")  # no command: run the cabinet
    args = parser.parse_args(words)
    func = args.func
    # SIGINT is how systemd stops the cabinet and how a person at a terminal does. A parent
    # may have started us with it ignored (a non-interactive shell's background job, nohup),
    # and Python then leaves it ignored: take it back, so SIGINT always stops us cleanly.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        status: int = func(args)
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
