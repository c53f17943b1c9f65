"""The fairness jig's presser (firmware_bridge/jig/presser.py, docs/fairness.md) on the real
MicroPython interpreter, with fake pins and a virtual clock (mp_scripts/jig_presses.py).

The jig must press exactly the schedule the cabinet judges by (pair ``k``'s first line as
``Schedule.first(k)`` says, the second ``offset_us(k)`` later, each held ``HOLD_MS``, pair
``k`` ``start_ms(k)`` after pair 0), press only by pulling a line low and let go only by
going high impedance, and report what it did."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_bridge.fairness import A_FIRST, HOLD_MS, Schedule
from firmware_bridge.jig.fake import TICKS_PERIOD, FakePin
from firmware_bridge.jig.presser import QUIET_US
from tests.firmware_bridge.jig_pins import LINE_A, LINE_B, pairs_pressed

Run = Callable[[Path], Any]
Script = Callable[[str], Path]

HOLD_US = HOLD_MS * 1000
#: mp_scripts/jig_presses.py's schedule and lead-in.
PRESSES_SCHEDULE = Schedule((50, 1000, 5000), 4, 110, 31)
PRESSES_LEAD_IN_US = 100_000


def check_presses(run: dict[str, Any], schedule: Schedule, lead_in_us: int, step_us: int) -> None:
    """Every pair as the schedule says, to within one clock step (``step_us``): the exact
    fake clock reads every microsecond, so there the times are exact."""
    pairs = pairs_pressed(run["events"])
    assert len(pairs) == len(schedule)
    # Pair 0 is due the lead-in after the clock's first reading (a step after the start).
    due = run["started_us"] + step_us + lead_in_us
    late = [p["t1"] - due - schedule.start_ms(k) * 1000 for k, p in enumerate(pairs)]
    for k, pair in enumerate(pairs):
        expected_first = LINE_A if schedule.first(k) == A_FIRST else LINE_B
        assert pair["first"] == expected_first, f"pair {k} pressed the wrong line first"
        offset = schedule.offset_us(k)
        assert 0 <= pair["t2"] - pair["t1"] - offset < step_us, f"pair {k}'s offset"
        assert 0 <= late[k] < step_us, f"pair {k} started off time"
        assert 0 <= pair["r1"] - pair["t1"] - HOLD_US < step_us, f"pair {k}'s first hold"
        assert 0 <= pair["r2"] - pair["t2"] - HOLD_US < step_us, f"pair {k}'s second hold"
    # Interrupts held off once a pair, from before its first press to its second.
    assert len(run["irq_spans"]) == len(schedule)
    for k, ((off, on), pair) in enumerate(zip(run["irq_spans"], pairs, strict=True)):
        assert off <= pair["t1"] and on >= pair["t2"], f"pair {k}: interrupts were on"
        assert on - off <= schedule.offset_us(k) + QUIET_US + 2 * step_us
    # The report agrees with the pins.
    report = run["report"]
    assert report["pairs"] == len(schedule)
    for c, offset in enumerate(schedule.offsets_us):
        apart = sorted(p["t2"] - p["t1"] for p in pairs[c * schedule.pairs :][: schedule.pairs])
        middle = len(apart) // 2
        assert report["written_apart_us"][str(offset)] == {
            "median": (apart[middle - 1] + apart[middle]) / 2,
            "max": apart[-1],
        }
    assert set(report["written_apart_us"]) == {str(o) for o in schedule.offsets_us}
    assert report["start_late_us_max"] == max(late)


def test_the_jig_presses_the_schedule_on_micropython(
    micropython: Run, cpython: Run, mp_script: Script
) -> None:
    on_mp = micropython(mp_script("jig_presses.py"))
    assert on_mp == cpython(mp_script("jig_presses.py"))
    schedule = PRESSES_SCHEDULE
    # The order both sides draw from the seed (MicroPython's 32-bit arithmetic included).
    assert on_mp["firsts"] == [schedule.first(k) for k in range(len(schedule))]
    exact = on_mp["exact"]
    # Open drain, no pull: a press sinks the line, a release leaves it to the cabinet.
    assert exact["modes"] == {"16": [FakePin.OPEN_DRAIN, None], "17": [FakePin.OPEN_DRAIN, None]}
    check_presses(exact, schedule, PRESSES_LEAD_IN_US, step_us=1)
    pairs = pairs_pressed(exact["events"])
    # Exactly the offsets, starts and holds (the clock reads every microsecond)...
    assert [p["t2"] - p["t1"] for p in pairs] == [schedule.offset_us(k) for k in range(12)]
    assert {p["r1"] - p["t1"] for p in pairs} == {p["r2"] - p["t2"] for p in pairs} == {HOLD_US}
    assert exact["report"]["written_apart_us"] == {
        "50": {"median": 50.0, "max": 50},
        "1000": {"median": 1000.0, "max": 1000},
        "5000": {"median": 5000.0, "max": 5000},
    }
    assert exact["report"]["start_late_us_max"] == 0
    # ... though the microsecond ticks wrapped during the run, between pair 8's presses.
    assert pairs[8]["t1"] < TICKS_PERIOD < pairs[8]["t2"]
    # Half of each offset's pairs go each way round.
    for c in range(3):
        firsts = [p["first"] for p in pairs[4 * c : 4 * c + 4]]
        assert firsts.count(LINE_A) == firsts.count(LINE_B) == 2
    # It slept through the waits rather than spinning the whole run (and never slept for
    # real: the clock is virtual).
    assert exact["slept_ms"] > 0.9 * (exact["ended_us"] - exact["started_us"]) / 1000
    # With a clock that moves 7 µs a reading, every press is still at least its offset
    # after the other, and no more than a reading late.
    check_presses(on_mp["coarse"], schedule, PRESSES_LEAD_IN_US, step_us=7)
