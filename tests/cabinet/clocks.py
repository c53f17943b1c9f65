"""Clocks for the cabinet's tests, shared by the folders below this one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class WallClock:
    """A UTC clock that moves only when told."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now
