"""The command line's static table of commands (``cabinet.commands.cli.COMMANDS``): it builds the
top-level help without importing the command modules, so it must say what they say."""

from __future__ import annotations

import argparse
import importlib

import pytest

from cabinet.commands import cli


def registered_help(module: str) -> tuple[str, str | None]:
    """The name and help text the command module gives its parser."""
    parser = argparse.ArgumentParser(prog="spit-cabinet")
    subparsers = parser.add_subparsers(dest="command")
    importlib.import_module(module).register(subparsers)
    (action,) = subparsers._choices_actions
    return action.dest, action.help


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_the_table_says_what_the_module_says(name: str) -> None:
    """The table's summary is the one the command's own ``register`` gives, so the
    top-level help is the same whether or not the module was imported."""
    module, summary = cli.COMMANDS[name]
    assert registered_help(module) == (name, summary)


def test_the_lazy_parsers_print_the_full_parsers_help() -> None:
    full = cli.build_parser().format_help()
    assert cli.build_parser(load=()).format_help() == full
    for name in cli.COMMANDS:
        assert cli.build_parser(load=(name,)).format_help() == full


def test_the_help_lists_every_command_with_its_summary() -> None:
    text = cli.build_parser(load=()).format_help()
    listed = [line.split(None, 1) for line in text.splitlines() if line.startswith("    ")]
    assert listed == [[name, summary] for name, (_, summary) in cli.COMMANDS.items()]


def test_a_loaded_command_parses_its_own_arguments() -> None:
    args = cli.build_parser(load=("simulate",)).parse_args(["simulate", "--games", "3"])
    assert args.games == 3
    assert args.func is importlib.import_module("cabinet.commands.simulate").run


def test_the_command_modules_are_the_table_in_order() -> None:
    assert tuple(module for module, _ in cli.COMMANDS.values()) == cli.COMMAND_MODULES
    assert next(iter(cli.COMMANDS)) == "run"  # listed first, and the default


@pytest.mark.parametrize(
    ("words", "command"),
    [
        ([], "run"),
        (["--windowed"], "run"),
        (["replay", "x.json"], "replay"),
        (["-h"], None),
        (["--help", "replay"], None),
        (["bogus"], None),
    ],
)
def test_the_command_chosen(words: list[str], command: str | None) -> None:
    assert cli.command_of(cli.with_default(words)) == command
