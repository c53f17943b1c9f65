# Runs unchanged under CPython and MicroPython: the fairness jig's firmware presses a small
# schedule on fake hardware (two open-drain lines, a virtual microsecond clock that never
# sleeps for real) and the script prints, as one JSON document, everything the pins did.
# "exact": a clock that reads every microsecond, started so that its ticks wrap in the
# middle of pair 8's 5 ms offset (its first press 980,001 us after the start); "coarse": a
# clock that moves 7 us a reading.
import json

from firmware_bridge.fairness import Schedule
from firmware_bridge.jig.fake import TICKS_PERIOD, FakeMachine, FakeTime
from firmware_bridge.jig.lines import OpenDrainLine
from firmware_bridge.jig.presser import QUIET_US, SPIN_US, press_pairs

SCHEDULE = Schedule((50, 1000, 5000), 4, 110, 31)
LEAD_IN_MS = 100


def run(start_us, step_us):
    clock = FakeTime(start_us, step_us)
    machine = FakeMachine(clock)
    lines = (OpenDrainLine(machine, 16), OpenDrainLine(machine, 17))
    started = clock.now_us
    report = press_pairs(SCHEDULE, lines, clock, machine, LEAD_IN_MS)
    return {
        "started_us": started,
        "ended_us": clock.now_us,
        "slept_ms": clock.slept_ms,
        "modes": {str(pin.id): [pin.mode, pin.pull] for pin in machine.pins.values()},
        "events": [[t, pin, state] for t, pin, state in machine.events],
        "irq_spans": [[a, b] for a, b in machine.irq_spans],
        "report": report,
    }


print(
    json.dumps(
        {
            "firsts": [SCHEDULE.first(k) for k in range(len(SCHEDULE))],
            "quiet_us": QUIET_US,
            "spin_us": SPIN_US,
            "exact": run(TICKS_PERIOD - 980001 - 2500, 1),
            "coarse": run(0, 7),
        }
    )
)
