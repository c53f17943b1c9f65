"""A download paced while the cabinet plays (cabinet/updates/staging.py), on a virtual
clock: it never runs ahead of its rate, and waits nothing when the line is slower."""

from __future__ import annotations

import pytest

from cabinet.updates.staging import Pace


class Clock:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_a_download_ahead_of_its_rate_waits_for_it() -> None:
    clock = Clock()
    pace = Pace(1000, clock=lambda: clock.now, sleep=clock.sleep)
    for _ in range(10):
        pace(500)  # the line gives 500 bytes at once, ten times
    assert clock.now == pytest.approx(5.0)  # 5,000 bytes at 1,000 a second


def test_a_slow_line_is_never_slowed_further() -> None:
    clock = Clock()
    pace = Pace(1000, clock=lambda: clock.now, sleep=clock.sleep)
    for _ in range(10):
        clock.now += 1.0  # a second for each chunk: 500 bytes a second
        pace(500)
    assert clock.slept == []
