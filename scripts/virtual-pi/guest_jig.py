"""The virtual Pi's fairness jig: presses pairs on the kernel's GPIO simulator, as the
Pico jig presses a real cabinet's lines (docs/fairness.md), from the schedule the cabinet
judges by (firmware_bridge/fairness.py, from the installed cabinet).

    python guest_jig.py --offsets 50,100 --pairs 100 --gap-ms 110 --seed 31 [--lead-in 3]

Line A is player 1's left pile button, line B player 2's; a press pulls the simulated
line down, a release up. The second press of a pair is written once the clock has passed
the offset after the first was (a busy wait: a sleep is far coarser than 50 µs): whatever
the guest's scheduling, the line written first is the line pressed first, which is the
order the cabinet must find. Prints, as JSON, how far apart the writes really were (per
offset: the median and the largest) and how late pair starts were.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any


def press_all(schedule: Any, pulls: tuple[Any, Any], lead_in_s: float) -> dict[str, Any]:
    from firmware_bridge.fairness import A_FIRST, HOLD_MS

    def write(line: Any, down: bool) -> int:
        t = time.monotonic_ns()
        line.write_text("pull-down" if down else "pull-up", encoding="ascii")
        return t

    apart: dict[int, list[int]] = {offset: [] for offset in schedule.offsets_us}
    starts_late: list[int] = []
    origin = time.monotonic_ns() + int(lead_in_s * 1e9)
    for k in range(len(schedule)):
        first, second = pulls if schedule.first(k) == A_FIRST else pulls[::-1]
        due = origin + schedule.start_ms(k) * 1_000_000
        while time.monotonic_ns() < due - 2_000_000:
            time.sleep(0.001)
        while time.monotonic_ns() < due:
            pass
        t1 = write(first, True)
        offset = schedule.offset_us(k)
        while time.monotonic_ns() < t1 + offset * 1000:
            pass
        t2 = write(second, True)
        apart[offset].append(t2 - t1)
        starts_late.append(t1 - due)
        time.sleep(HOLD_MS / 1000)
        write(first, False)
        write(second, False)
    return {
        "pairs": len(schedule),
        "written_apart_us": {
            str(offset): {
                "median": round(statistics.median(ts) / 1000, 1),
                "max": round(max(ts) / 1000, 1),
            }
            for offset, ts in apart.items()
        },
        "start_late_ms_max": round(max(starts_late) / 1e6, 2),
    }


def main() -> int:
    from guest_presser import Buttons

    from firmware_bridge.fairness import Schedule
    from game.edges import Button

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--offsets", required=True)
    parser.add_argument("--pairs", type=int, required=True)
    parser.add_argument("--gap-ms", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--lead-in", type=float, default=3.0, metavar="S")
    args = parser.parse_args()
    offsets = tuple(int(v) for v in args.offsets.split(","))
    schedule = Schedule(offsets, args.pairs, args.gap_ms, args.seed)
    buttons = Buttons()
    pulls = tuple(
        buttons.folder / f"sim_gpio{buttons.pins[(player, Button.PILE1)]}" / "pull"
        for player in (0, 1)
    )
    print(json.dumps(press_all(schedule, (pulls[0], pulls[1]), args.lead_in)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
