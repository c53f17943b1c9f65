"""The fairness jig's presser (firmware_bridge/jig/presser.py, docs/fairness.md) on CPython,
with fake pins and a virtual clock: its presses judged by the cabinet's own judge, a jig
wired the wrong way round, a run longer than the ticks' half period, and Ctrl-C mid pair."""

from __future__ import annotations

import pytest

from cabinet.fairness.certificate import Source
from cabinet.fairness.judging import FairnessJudge
from firmware_bridge.fairness import A_FIRST, Schedule
from firmware_bridge.jig.fake import TICKS_PERIOD, FakeMachine, FakeTime
from firmware_bridge.jig.lines import OpenDrainLine
from firmware_bridge.jig.presser import press_pairs
from game.edges import Button, Edge
from game.rules import Rules
from game.units import US
from tests.firmware_bridge.jig_pins import LINE_A, LINE_B, pairs_pressed


def run_jig(
    schedule: Schedule, *, pins: tuple[int, int] = (LINE_A, LINE_B), step_us: int = 1
) -> tuple[FakeMachine, FakeTime, dict[str, object]]:
    clock = FakeTime(123_456_789, step_us)
    machine = FakeMachine(clock)
    lines = (OpenDrainLine(machine, pins[0]), OpenDrainLine(machine, pins[1]))
    report = press_pairs(schedule, lines, clock, machine, 3000)
    return machine, clock, report


def judged(machine: FakeMachine, schedule: Schedule, lag_us: int = 300) -> FairnessJudge:
    """The jig's presses as the cabinet takes them: line A is player 1's pile 1 button,
    line B player 2's; each press delivered ``lag_us`` after it happened."""
    judge = FairnessJudge(schedule, Rules(race_window_ms=2))
    for t_us, pin, state in machine.events:
        if state == "low":
            edge = Edge.press(0 if pin == LINE_A else 1, Button.PILE1, t_us * US)
            delivered = (t_us + lag_us) * US
            judge.take(edge.delivered(delivered), delivered)
    return judge


def test_the_cabinet_judges_the_jig_s_presses_right() -> None:
    """The jig's presses, taken as the cabinet takes its buttons, pass the certificate:
    the jig and the cabinet agree on the schedule, the lines and the order."""
    schedule = Schedule((50, 100, 250, 1000, 5000), 10, 150, 31)
    machine, _, _ = run_jig(schedule)
    judge = judged(machine, schedule)
    assert [(c.offset_us, c.right, c.wrong, c.missed) for c in judge.cases()] == [
        (offset, 10, 0, 0) for offset in schedule.offsets_us
    ]
    assert judge.certificate(Source.JIG, "test", "2026-01-01T00:00:00+00:00").passed


def test_a_jig_wired_the_wrong_way_round_fails_every_pair() -> None:
    schedule = Schedule((100, 1000), 10, 150, 31)
    machine, _, _ = run_jig(schedule, pins=(LINE_B, LINE_A))  # line A's output on B's line
    cases = judged(machine, schedule).cases()
    assert [(c.right, c.wrong) for c in cases] == [(0, 10), (0, 10)]


def test_a_run_longer_than_the_ticks_half_period_keeps_to_the_schedule() -> None:
    """2,000 pairs 300 ms apart: ten minutes, more than the 537 s a single ``ticks_add``
    may step. The fake refuses such a step as MicroPython does."""
    schedule = Schedule((50, 100), 1000, 300, 31)
    assert schedule.seconds() * 1_000_000 > TICKS_PERIOD // 2
    with pytest.raises(OverflowError):
        FakeTime().ticks_add(0, TICKS_PERIOD // 2)
    machine, _, report = run_jig(schedule, step_us=50)
    pairs = pairs_pressed(machine.events)
    assert len(pairs) == report["pairs"] == 2000
    origin = pairs[0]["t1"]
    for k, pair in enumerate(pairs):
        assert 0 <= pair["t1"] - origin - k * 300_000 < 50, k
        assert 0 <= pair["t2"] - pair["t1"] - schedule.offset_us(k) < 50, k


def test_a_ctrl_c_mid_pair_lets_both_lines_go_and_interrupts_back_on() -> None:
    class InterruptedTime(FakeTime):
        """Ctrl-C from the host at ``at_us``: MicroPython raises KeyboardInterrupt."""

        def __init__(self, at_us: int) -> None:
            super().__init__()
            self.at_us = at_us

        def ticks_us(self) -> int:
            if self.now_us >= self.at_us:
                raise KeyboardInterrupt
            return super().ticks_us()

    schedule = Schedule((5000,), 4, 110, 31)
    # Pair 2: its first press at 1 + 3000 ms + 220 ms (µs), the second 5 ms later.
    clock = InterruptedTime(at_us=3_220_001 + 2500)
    machine = FakeMachine(clock)
    lines = (OpenDrainLine(machine, LINE_A), OpenDrainLine(machine, LINE_B))
    with pytest.raises(KeyboardInterrupt):
        press_pairs(schedule, lines, clock, machine, 3000)
    first = LINE_A if schedule.first(2) == A_FIRST else LINE_B
    pressed = [(t, pin) for t, pin, state in machine.events if state == "low"]
    assert pressed[-1] == (3_220_001, first)  # pair 2's first press, and not its second
    assert machine.pins[LINE_A].pad() == machine.pins[LINE_B].pad() == "hi-z"
    assert len(machine.irq_spans) == 3  # pair 2's span closed: interrupts are back on
    assert machine.disable_irq() is True
