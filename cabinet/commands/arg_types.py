"""argparse types shared by the commands: numbers within documented limits.

A value outside them is refused by argparse itself: the usage line, one error line naming
the option, the limits and what was given, and exit status 2. Never a traceback later, a
wait that never ends (``nan`` seconds) or work sized by a typo.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from game.rules import clipped_repr

SHOWN_CHARS = 30
"""How much of a refused value the error line repeats (a typo can be thousands long)."""


def _shown(text: str) -> str:
    return clipped_repr(text, SHOWN_CHARS)


def _number(value: float) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def int_range(low: int, high: int, unit: str = "") -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high`` (both included), which
    the error line follows with ``unit`` (e.g. ``"ms"``)."""
    limits = f"{low} to {high}" + (f" {unit}" if unit else "")

    def integer(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"give a whole number from {limits}, got {_shown(text)}"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {limits}, got {_shown(text)}")
        return value

    return integer


def float_range(low: float, high: float, unit: str) -> Callable[[str], float]:
    """An argparse ``type``: a finite number from ``low`` to ``high`` ``unit``, both
    included; ``nan``, ``inf`` and anything outside are refused."""

    def number(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise argparse.ArgumentTypeError(
                f"must be a number from {_number(low)} to {_number(high)} {unit}, "
                f"got {_shown(text)}"
            )
        return value + 0.0  # -0.0 is 0.0

    return number
