"""The ``spit-cabinet`` command line: one subcommand per module in :mod:`cabinet.commands`.

Each command module exposes ``register(subparsers)``, which adds its parser and sets
``func`` (a callable taking the parsed arguments and returning the exit status).

The commands are listed in :data:`COMMANDS`, a static table of each one's module and
one-line summary, and only the command being run has its module imported: the table alone
builds the top-level help (``spit-cabinet --help``), and ``replay`` and ``simulate`` start
without the cabinet's display, input, storage and sound (``bench/cli_start.py``). A
command's summary in the table is the ``help`` its module's ``register`` gives (a test
holds them together).
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from collections.abc import Iterable, Sequence

#: Each command: its module and one-line summary, in the order ``--help`` lists them. The
#: first is the default (no command: run the cabinet).
COMMANDS: dict[str, tuple[str, str]] = {
    "run": (
        "cabinet.commands.run",
        "run the cabinet (the default when no command is given)",
    ),
    "simulate": (
        "cabinet.commands.simulate",
        "play CPU against CPU in virtual time and summarize",
    ),
    "replay": (
        "cabinet.commands.replay",
        "replay a match record and print its outcome",
    ),
    "wiring": (
        "cabinet.commands.wiring",
        "print the button wiring table; write the wiring diagram",
    ),
    "lights": (
        "cabinet.commands.lights",
        "the indicator lights",
    ),
    "firmware": (
        "cabinet.commands.firmware",
        "the light board's firmware",
    ),
    "doctor": (
        "cabinet.commands.doctor",
        "check the buttons, lights, display, sound, data and wiring",
    ),
    "fairness": (
        "cabinet.commands.fairness",
        "prove that the first press wins: judge a jig's pairs of presses",
    ),
    "settings": (
        "cabinet.commands.settings",
        "show, export or import the operator's settings",
    ),
    "audits": (
        "cabinet.commands.audits",
        "print the books (the audits), as the service menu shows them",
    ),
    "fleet": (
        "cabinet.commands.fleet",
        "join the operator's fleet, see the link, or leave",
    ),
    "release": (
        "cabinet.commands.release",
        "check an update before it is installed",
    ),
}

DEFAULT_COMMAND = "run"

#: The command modules, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = tuple(module for module, _ in COMMANDS.values())


def build_parser(load: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The ``spit-cabinet`` parser. The commands named in ``load`` (every command when
    ``None``) have their modules imported, and register their parsers with all their
    arguments; the others are listed by name and summary only, from :data:`COMMANDS`."""
    loaded = set(COMMANDS if load is None else load)
    parser = argparse.ArgumentParser(
        prog="spit-cabinet",
        description="The Spit arcade cabinet. With no command, runs the cabinet.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, summary) in COMMANDS.items():
        if name in loaded:
            importlib.import_module(module).register(subparsers)
        else:
            subparsers.add_parser(name, help=summary)
    return parser


def with_default(words: Sequence[str]) -> list[str]:
    """The command line's words with the default command put first when none is given
    (nothing at all, or options only: ``spit-cabinet --windowed``)."""
    out = list(words)
    if not out or (out[0].startswith("-") and out[0] not in ("-h", "--help")):
        out.insert(0, DEFAULT_COMMAND)
    return out


def command_of(words: Sequence[str]) -> str | None:
    """The command these words (from :func:`with_default`) run, or ``None`` when they run
    none (``--help``, or a word that is not a command: the parser says so)."""
    return words[0] if words and words[0] in COMMANDS else None


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    words = with_default(sys.argv[1:] if argv is None else argv)
    command = command_of(words)
    parser = build_parser(load=() if command is None else (command,))
    args = parser.parse_args(words)
    func = args.func
    # SIGINT is how systemd stops the cabinet and how a person at a terminal does. A parent
    # may have started us with it ignored (a non-interactive shell's background job, nohup),
    # and Python then leaves it ignored: take it back, so SIGINT always stops us cleanly.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    # SIGTERM (a plain kill, a container stopping) stops as cleanly: what the command
    # opened is closed, the table stopped, its press socket removed.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        status: int = func(args)
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
