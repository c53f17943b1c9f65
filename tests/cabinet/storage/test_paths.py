from __future__ import annotations

import argparse
from pathlib import Path

from cabinet.storage.paths import APP_DIR, ENV_VAR, add_data_dir_option, data_dir

HOME = Path("/home/operator")


def test_the_option_wins_over_everything() -> None:
    env = {ENV_VAR: "/srv/env", "XDG_DATA_HOME": "/xdg"}
    assert data_dir("/mnt/cab", environ=env, home=HOME) == Path("/mnt/cab")


def test_the_environment_variable_wins_over_xdg() -> None:
    env = {ENV_VAR: "/srv/env", "XDG_DATA_HOME": "/xdg"}
    assert data_dir(None, environ=env, home=HOME) == Path("/srv/env")


def test_xdg_data_home_when_absolute() -> None:
    assert data_dir(environ={"XDG_DATA_HOME": "/xdg"}, home=HOME) == Path("/xdg") / APP_DIR


def test_a_relative_xdg_data_home_is_ignored_as_the_specification_says() -> None:
    expected = HOME / ".local" / "share" / APP_DIR
    assert data_dir(environ={"XDG_DATA_HOME": "rel/dir"}, home=HOME) == expected
    assert data_dir(environ={}, home=HOME) == expected
    assert data_dir(environ={ENV_VAR: "  "}, home=HOME) == expected


def test_the_option_parses_on_command_and_sub_command() -> None:
    parser = argparse.ArgumentParser()
    add_data_dir_option(parser)
    sub = parser.add_subparsers(dest="action").add_parser("show")
    add_data_dir_option(sub, sub=True)
    assert parser.parse_args(["--data-dir", "/a", "show"]).data_dir == "/a"
    assert parser.parse_args(["show", "--data-dir", "/b"]).data_dir == "/b"
    assert parser.parse_args(["show"]).data_dir is None
