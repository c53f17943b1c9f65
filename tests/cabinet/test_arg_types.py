"""The shared argparse types: a number inside its limits, or ArgumentTypeError (which
argparse turns into one error line and status 2), never anything else."""

from __future__ import annotations

import argparse
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.commands.arg_types import SHOWN_CHARS, float_range, int_range
from tests.cabinet.cli_input import UNTIMED, float_in, float_texts

seconds = float_range(0, 600, "seconds")
games = int_range(1, 1000, "games")


@UNTIMED
@given(float_texts())
def test_a_float_is_taken_only_when_finite_and_inside(text: str) -> None:
    if float_in(text, 0, 600):
        value = seconds(text)
        assert math.isfinite(value) and 0 <= value <= 600
        assert math.copysign(1, value) == 1  # "-0" is 0
    else:
        with pytest.raises(argparse.ArgumentTypeError) as info:
            seconds(text)
        message = str(info.value)
        assert message.startswith("must be a number from 0 to 600 seconds, got ")
        assert "\n" not in message


@UNTIMED
@given(st.one_of(st.integers().map(str), st.text(max_size=30)))
def test_an_int_is_taken_only_when_whole_and_inside(text: str) -> None:
    try:
        expected: int | None = int(text)
    except ValueError:
        expected = None
    if expected is not None and 1 <= expected <= 1000:
        assert games(text) == expected
    else:
        with pytest.raises(argparse.ArgumentTypeError) as info:
            games(text)
        assert "1 to 1000 games, got " in str(info.value)
        assert "\n" not in str(info.value)


def test_a_long_value_is_shown_cut_short() -> None:
    with pytest.raises(argparse.ArgumentTypeError) as info:
        games("9" * 5000)  # past int()'s 4300 digits, too
    shown = "'" + "9" * (SHOWN_CHARS - 4) + "..."  # the opening quote counts
    assert str(info.value) == f"give a whole number from 1 to 1000 games, got {shown}"


@pytest.mark.parametrize(
    ("low", "high", "shown"), [(0, 3600, "0 to 3600"), (0.5, 2.25, "0.5 to 2.25")]
)
def test_the_limits_read_as_written(low: float, high: float, shown: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=f"from {shown} s, got 'nan'"):
        float_range(low, high, "s")("nan")
