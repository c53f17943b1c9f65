"""One boot's figures from the files bench/card_boot.sh takes in the guest, as a JSON line;
with ``--summary``, every boot's and the median of the reboots.

    python bench/card_boot_figures.py BOOT_DIR N
    python bench/card_boot_figures.py --summary BOOTS_JSONL CARD
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from pathlib import Path
from typing import Any

from boot_model import SECTOR, TIME, seconds  # beside this file

STARTUP = re.compile(rf"{TIME} \(kernel\).*? \+ {TIME} \(userspace\)")
JOURNAL_LINE = re.compile(r"^\[\s*([\d.]+)\] \S+ (\S+?)(?:\[\d+\])?: (.*)$")
CABINET_STEPS = {
    "cabinet_first_line_s": "",
    "display_opened_s": "display: ",
    "running_s": "running: input ",
}


def units(text: str) -> dict[str, dict[str, float]]:
    """``unit started ready`` lines (µs since the kernel began) -> seconds."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
            out[parts[0]] = {"started_s": int(parts[1]) / 1e6, "ready_s": int(parts[2]) / 1e6}
    return out


def cabinet_steps(journal: str) -> dict[str, float]:
    """When the cabinet's process logged its first line, opened its display and said it
    runs (seconds since the kernel began, journalctl's monotonic stamps)."""
    found: dict[str, float] = {}
    for line in journal.splitlines():
        m = JOURNAL_LINE.match(line)
        if not m or m[2] != "spit-cabinet":
            continue
        for name, prefix in CABINET_STEPS.items():
            if name not in found and prefix in m[3]:
                found[name] = float(m[1])
    return found


def boot(folder: Path, n: int) -> dict[str, Any]:
    time_text = (folder / "boot-time.txt").read_text(encoding="utf-8")
    m = STARTUP.search(time_text)
    listed = units((folder / "units.txt").read_text(encoding="utf-8"))
    cabinet = listed.get("spit-cabinet.service", {})
    sectors = (folder / "vda-stat.txt").read_text(encoding="utf-8").split()
    return {
        "boot": n,
        "kernel_s": round(seconds(m[1], m[2], m[3]), 2) if m else None,
        "userspace_s": round(seconds(m[4], m[5], m[6]), 2) if m else None,
        "kernel_to_first_frame_s": round(cabinet.get("ready_s", 0.0), 2),
        "cabinet_unit_start_to_frame_s": round(
            cabinet.get("ready_s", 0.0) - cabinet.get("started_s", 0.0), 2
        ),
        "units": {
            name: {k: round(v, 2) for k, v in times.items()} for name, times in listed.items()
        },
        "cabinet_steps_s": cabinet_steps(
            (folder / "journal.txt").read_text(encoding="utf-8", errors="replace")
        ),
        "read_from_the_card_mb": round(int(sectors[2]) * SECTOR / 1e6, 1) if sectors else None,
    }


def summary(lines: Path, card: str) -> dict[str, Any]:
    boots = [json.loads(line) for line in lines.read_text(encoding="utf-8").splitlines()]
    reboots = [b for b in boots if b["boot"] > 0]
    keys = ("kernel_s", "userspace_s", "kernel_to_first_frame_s", "cabinet_unit_start_to_frame_s")
    return {
        "card": card,
        "boots": boots,
        "reboots_median": {
            key: round(statistics.median(b[key] for b in reboots), 2)
            for key in keys
            if reboots and all(b[key] is not None for b in reboots)
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--summary", action="store_true")
    parser.add_argument("path", type=Path)
    parser.add_argument("what")
    args = parser.parse_args()
    if args.summary:
        print(json.dumps(summary(args.path, args.what), indent=2))
    else:
        print(json.dumps(boot(args.path, int(args.what))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
