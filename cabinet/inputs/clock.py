"""Clocks: integer nanoseconds on CLOCK_MONOTONIC, passed in wherever time is read.

Live code takes :data:`monotonic_clock` (``time.monotonic_ns``); tests take a
:class:`VirtualClock` and move it by hand, so nothing waits for real time to pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeAlias

Clock: TypeAlias = Callable[[], int]
"""A function returning the current time in integer nanoseconds (CLOCK_MONOTONIC)."""

monotonic_clock: Clock = time.monotonic_ns
"""The live clock: ``time.monotonic_ns`` (the clock lgpio's kernel timestamps are on)."""


class ClockSetBackError(ValueError):
    """A virtual clock was asked to run backwards: monotonic clocks never do."""


class VirtualClock:
    """A clock that moves only when told to: ``clock()`` reads it, :meth:`set` and
    :meth:`advance` move it (ns)."""

    def __init__(self, start_ns: int = 0) -> None:
        self.now_ns = start_ns

    def __call__(self) -> int:
        return self.now_ns

    def set(self, now_ns: int) -> None:
        """Move the clock to ``now_ns``; it may stay put but never go back."""
        if now_ns < self.now_ns:
            raise ClockSetBackError(f"clock set back from {self.now_ns} ns to {now_ns} ns")
        self.now_ns = now_ns

    def advance(self, delta_ns: int) -> int:
        """Move the clock ``delta_ns`` forward; returns the new reading."""
        self.set(self.now_ns + delta_ns)
        return self.now_ns

    def __repr__(self) -> str:
        return f"VirtualClock({self.now_ns})"
