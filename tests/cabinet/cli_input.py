"""Helpers for the tests of bad command-line input: parse as ``cabinet.commands.cli.main`` does,
and check that a refusal is argparse's status 2 with one error line and no traceback."""

from __future__ import annotations

import argparse
import contextlib
import io
import math
from unittest import mock

import pytest
from hypothesis import settings
from hypothesis import strategies as st

from cabinet.commands.cli import COMMAND_MODULES, build_parser, main

UNTIMED = settings(deadline=None)
"""For the hypothesis tests here: the first example imports every command module, and no
test here depends on how long anything takes."""


def accepted(*argv: str) -> argparse.Namespace:
    """``ARGV`` parsed by the ``spit-cabinet`` parser, without running the command."""
    return build_parser().parse_args(list(argv))


def _ran(args: argparse.Namespace) -> int:
    raise AssertionError(f"the command ran: its arguments were accepted ({args})")


def refused(*argv: str) -> str:
    """Run ``main(ARGV)``, which must refuse it while parsing (status 2); what it wrote on
    stderr. Should it accept them instead, the command does not run (``lights test`` would
    wait for a board, ``run`` open a window): the test fails there."""
    err = io.StringIO()
    with contextlib.ExitStack() as stack:
        for name in COMMAND_MODULES:  # each registers its module's ``run`` as it is now
            stack.enter_context(mock.patch(f"{name}.run", _ran))
        stack.enter_context(contextlib.redirect_stderr(err))
        with pytest.raises(SystemExit) as info:
            main(list(argv))
    assert info.value.code == 2
    return err.getvalue()


def error_lines(stderr: str) -> list[str]:
    """stderr's lines, less argparse's usage (``usage:`` and its indented continuation
    lines) and any progress bar (drawn after ``\\r``)."""
    return [
        line
        for line in stderr.split("\n")
        if line.strip() and not line.startswith(("usage:", " ", "\r"))
    ]


def assert_one_error(stderr: str, start: str) -> str:
    """stderr holds no traceback and exactly one error line, starting with ``start``."""
    assert "Traceback" not in stderr
    lines = error_lines(stderr)
    assert len(lines) == 1, lines
    assert lines[0].startswith(start), lines[0]
    return lines[0]


SPECIAL_NUMBERS = (
    "nan", "NaN", "-nan", "+nan", "inf", "+inf", "-inf", "Infinity", "-infinity", "1e400",
    "-1e400", "1e308", "-0", "-0.0", "0", " 5 ", "1_0", "0x10", "", "abc", "5s", "1e-400",
)  # fmt: skip


def float_texts() -> st.SearchStrategy[str]:
    """What an operator might type for a number of seconds: every float, written several
    ways, the special spellings float() takes, and any text at all."""
    floats = st.floats(allow_nan=True, allow_infinity=True)
    return st.one_of(
        floats.map(repr),
        floats.map(lambda x: f"{x:e}"),
        floats.map(lambda x: f"{x:f}"),
        st.integers(min_value=-(10**12), max_value=10**12).map(str),
        st.sampled_from(SPECIAL_NUMBERS),
        st.text(max_size=12),
    )


def float_in(text: str, low: float, high: float) -> bool:
    """Whether ``text`` is a finite number from ``low`` to ``high``: the oracle."""
    try:
        value = float(text)
    except ValueError:
        return False
    return math.isfinite(value) and low <= value <= high
