"""The meter's queue: every owed pulse given whole, never shorter, never dropped."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.money.meter import MeterPulser
from game.units import MS


class Line:
    """The meter coil's line, remembering when it changed."""

    def __init__(self) -> None:
        self.now = 0
        self.changes: list[tuple[int, bool]] = []

    def set(self, on: bool) -> None:
        self.changes.append((self.now, on))


@given(
    pulses=st.integers(0, 12),
    on_ms=st.integers(20, 200),
    off_ms=st.integers(20, 200),
    gaps=st.lists(st.integers(MS, 40 * MS), min_size=1, max_size=50),
)
def test_pulses_are_never_shortened_and_all_are_given(
    pulses: int, on_ms: int, off_ms: int, gaps: list[int]
) -> None:
    line = Line()
    meter = MeterPulser(line.set, on_ms=on_ms, off_ms=off_ms)
    meter.queue(pulses)
    given_pulses = 0
    i = 0
    while given_pulses < pulses or meter.busy:
        line.now += gaps[i % len(gaps)]  # frames of any length
        given_pulses += meter.tick(line.now)
        i += 1
    assert given_pulses == pulses
    assert [on for _, on in line.changes] == [True, False] * pulses
    times = [t for t, _ in line.changes]
    for k in range(0, len(times), 2):
        assert times[k + 1] - times[k] >= on_ms * MS  # on for at least on_ms
        if k + 2 < len(times):
            assert times[k + 2] - times[k + 1] >= off_ms * MS  # then off for off_ms


def test_a_test_pulse_is_given_but_not_counted() -> None:
    line = Line()
    meter = MeterPulser(line.set, on_ms=50, off_ms=50)
    meter.test()
    meter.queue(1)
    ended = [meter.tick(t * MS) for t in (0, 50, 100, 150, 200)]
    assert ended == [0, 1, 0, 0, 0]  # the queued pulse goes first and counts
    assert [on for _, on in line.changes] == [True, False, True, False]
    assert not meter.busy and meter.next_due_ns() is None  # both given, the line rests


def test_times_are_checked() -> None:
    with pytest.raises(ValueError, match="above 0 ms"):
        MeterPulser(lambda on: None, on_ms=0)
    with pytest.raises(ValueError, match="taken back"):
        MeterPulser(lambda on: None).queue(-1)
