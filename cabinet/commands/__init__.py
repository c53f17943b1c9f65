"""Subcommands of spit-cabinet, one module each.

Each module adds its subcommand's arguments (``register``) and runs it (``run``);
:mod:`cabinet.commands.cli` builds the help from a static table of them and imports only
the command that runs, so ``replay`` loads neither pygame nor gpiozero:

>>> from cabinet.commands.cli import COMMANDS, DEFAULT_COMMAND
>>> COMMANDS["replay"][0], DEFAULT_COMMAND
('cabinet.commands.replay', 'run')
"""

__all__ = [
    "arg_types",
    "audits",
    "cli",
    "deployment",
    "doctor",
    "doctor_fleet",
    "doctor_input",
    "durations",
    "fairness",
    "findings",
    "firmware",
    "fleet",
    "lights",
    "link_start",
    "progress",
    "release",
    "replay",
    "run",
    "run_arguments",
    "screen_mode",
    "settings",
    "simulate",
    "stdout",
    "wiring",
]
