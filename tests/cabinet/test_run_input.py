"""``spit-cabinet run`` with bad input: times that are not finite, non-negative and within
their limits are refused by argparse with one line; a named LED port that does not exist
is said once, and the lights go on screen."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given

from cabinet.commands import run as run_command
from cabinet.commands.run import MAX_AUTOPLAY_AFTER_S, MAX_SECONDS
from cabinet.display.assembly import board_port
from tests.cabinet.cli_input import (
    UNTIMED,
    accepted,
    assert_one_error,
    float_in,
    float_texts,
    refused,
)
from tests.cabinet.test_game_commands import run_cli

CABINET = [sys.executable, "-m", "cabinet"]
TIMES = [("--seconds", MAX_SECONDS), ("--autoplay-after", MAX_AUTOPLAY_AFTER_S)]


@pytest.mark.parametrize(("option", "high"), TIMES)
@UNTIMED
@given(text=float_texts())
def test_a_time_is_taken_only_when_finite_and_within_its_limits(
    option: str, high: int, text: str
) -> None:
    if float_in(text, 0, high):
        args = accepted("run", f"{option}={text}")
        assert getattr(args, option[2:].replace("-", "_")) == float(text)
        return
    for command in (["run"], []):  # with no command, main runs the cabinet
        err = refused(*command, f"{option}={text}")
        assert_one_error(
            err,
            f"spit-cabinet run: error: argument {option}: must be a number from 0 to "
            f"{high} seconds, got ",
        )


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["run", "--seconds", "nan"], "--seconds"),
        (["run", "--seconds=-1"], "--seconds"),
        (["run", "--seconds", "1e300"], "--seconds"),  # was inf nanoseconds: OverflowError
        (["run", "--autoplay-after", "nan"], "--autoplay-after"),
        (["--autoplay-after", "inf"], "--autoplay-after"),
    ],
)
def test_bad_times_in_a_real_process(argv: list[str], option: str) -> None:
    done = run_cli(*argv)
    assert done.returncode == 2
    assert done.stdout == ""
    assert_one_error(done.stderr, f"spit-cabinet run: error: argument {option}: ")


def test_help_gives_the_limits() -> None:
    done = run_cli("run", "--help")
    text = " ".join(done.stdout.split())
    assert f"0 to {MAX_SECONDS} (a year)" in text
    assert f"0 to {MAX_AUTOPLAY_AFTER_S} s" in text


def test_a_named_port_that_does_not_exist_is_said_and_the_lights_go_on_screen(
    tmp_path: Path,
) -> None:
    port = tmp_path / "ttyACM9"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    argv = ["run", "--input", "mock", "--lights", str(port), "--seconds", "0"]
    done = subprocess.run(
        [*CABINET, *argv, "--data-dir", str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    said = [line for line in done.stderr.splitlines() if str(port) in line]
    assert said == [
        f"WARNING spit-cabinet: LED board port {port} does not exist: the lights are shown "
        "on screen"
    ]


def test_board_port_keeps_a_port_that_exists(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    port = tmp_path / "ttyACM0"
    port.touch()
    with caplog.at_level(logging.INFO, logger=run_command.log.name):
        assert board_port(str(port)) == str(port)
        assert board_port("none") is None
    assert caplog.records == []


def test_board_port_drops_one_that_does_not(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    port = str(tmp_path / "gone")
    with caplog.at_level(logging.INFO, logger=run_command.log.name):
        assert board_port(port) is None
    (record,) = caplog.records
    assert record.levelno == logging.WARNING and port in record.getMessage()
