"""A Raspberry Pi 4's boot, kernel to the cabinet's first attract frame, modelled from the
virtual Pi's boot of the flashed card (issue 33; bench/README.md, "The flashed card").

    python bench/boot_model.py RUN        (RUN: a card run of scripts/virtual-pi/run.sh)
    python bench/boot_model.py --loop     (the CPU work both sides time; run.sh runs it in
                                           the guest)

The virtual Pi is QEMU's TCG: every arm64 instruction translated on this x86 host. Its
boot is scaled to a Pi 4 in two steps, each measured or cited:

- **S, the emulator's slowdown**: the same Python work (``--loop``) timed in the guest
  (run.sh keeps it in RUN/guest-loop.json) and here, on the host's own Python.
- **R, the host's core against a Pi 4's**: ``sysbench cpu --threads=1`` here, against
  1477.83 events/s on a Pi 4 (PI4_SYSBENCH, cited there).

The CPU part of the boot on a Pi 4 is then (TCG seconds) / S × R. The card's reads are
added on top, not overlapped (a pessimistic bound): the bytes the guest read from the card
until attract (RUN/vda-stat.txt) at a Pi 4's SD card speed (PI4_SD_MB_S, cited there).
The test kit (the virtual Pi's GPIO simulator, on the cabinet's critical chain in the
guest) is not on a Pi and is taken out first. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PI4_SYSBENCH = 1477.83
"""sysbench 1.0 ``cpu`` events per second on one core of a Raspberry Pi 4 at 1.5 GHz:
https://leoncode.co.uk/articles/raspberry-pi-benchmarks"""
PI4_SD_MB_S = 43.9
"""A Pi 4's reads from a good microSD card (Samsung Evo+, hdparm, buffered):
https://www.pidramble.com/wiki/benchmarks/microsd-cards (4K random reads: 10.8 MB/s)."""
PI4_SD_RANDOM_MB_S = 10.8
"""The same card's 4K random reads, for the worse bound."""
PI4_KERNEL_S = (1.234, 2.46)
"""Pi 4 kernels measured by others (``systemd-analyze``), for a cross-check of the kernel
part alone: a trimmed CM4, https://github.com/raspberrypi/firmware/issues/1749, and a tuned
Raspberry Pi OS (bookworm), moto-nrw/PyrePortal docs/performance-testing.md."""
SECTOR = 512
CHAIN_LINE = re.compile(
    r"(\S+\.(?:service|mount|target|device|slice|socket))\s+@([\d.]+)(m?s)(?:\s+\+([\d.]+)(m?s))?"
)


def loop_s(rounds: int = 3) -> float:
    """The CPU work both sides time: the best of ``rounds``, in seconds."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        counts: dict[int, int] = {}
        for i in range(300_000):
            counts[i % 997] = counts.get(i % 997, 0) + i
        words = sorted(str(i * 7919 % 100_003) for i in range(100_000))
        assert len(words) == 100_000 and len(counts) == 997
        best = min(best, time.perf_counter() - start)
    return best


def seconds(value: str, unit: str) -> float:
    return float(value) / (1000 if unit == "ms" else 1)


def chain(text: str) -> dict[str, tuple[float, float]]:
    """``systemd-analyze critical-chain``: unit -> (started at, took), in seconds."""
    found = {}
    for m in CHAIN_LINE.finditer(text):
        took = seconds(m[4], m[5]) if m[4] else 0.0
        found[m[1]] = (seconds(m[2], m[3]), took)
    return found


def sysbench_events_s() -> float:
    done = subprocess.run(
        ["sysbench", "cpu", "--threads=1", "--time=10", "run"],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"events per second:\s+([\d.]+)", done.stdout)
    if found is None:
        raise SystemExit(f"sysbench said no events per second: {done.stdout[-300:]}")
    return float(found[1])


def model(run: Path, host_loop_s: float, host_events_s: float) -> dict[str, Any]:
    timings = dict(line.split() for line in (run / "timings.txt").read_text().splitlines())
    to_frame = float(timings["kernel_to_first_frame"])
    guest_loop = json.loads((run / "guest-loop.json").read_text())["loop_s"]
    units = chain((run / "critical-chain.txt").read_text())
    kit_s = units.get("gpio-sim.service", (0.0, 0.0))[1]
    read_bytes = int((run / "vda-stat.txt").read_text().split()[2]) * SECTOR
    boot_time = (run / "boot-time.txt").read_text().strip()
    kernel = re.search(r"([\d.]+)s \(kernel\)", boot_time)
    slowdown = guest_loop / host_loop_s
    host_vs_pi4 = host_events_s / PI4_SYSBENCH
    cpu_s = (to_frame - kit_s) / slowdown * host_vs_pi4
    reads_s = read_bytes / 1e6 / PI4_SD_MB_S
    return {
        "tcg": {
            "kernel_to_first_frame_s": to_frame,
            "test_kit_on_the_chain_s": kit_s,
            "systemd_analyze": boot_time,
            "read_from_the_card_mb": round(read_bytes / 1e6, 1),
        },
        "factors": {
            "guest_loop_s": guest_loop,
            "host_loop_s": round(host_loop_s, 4),
            "emulator_slowdown_S": round(slowdown, 2),
            "host_sysbench_events_s": host_events_s,
            "pi4_sysbench_events_s": PI4_SYSBENCH,
            "host_vs_pi4_R": round(host_vs_pi4, 2),
        },
        "pi4_model_s": {
            "cpu": round(cpu_s, 2),
            "card_reads_sequential": round(reads_s, 2),
            "kernel_to_first_frame": round(cpu_s + reads_s, 2),
            "kernel_to_first_frame_random_reads": round(
                cpu_s + read_bytes / 1e6 / PI4_SD_RANDOM_MB_S, 2
            ),
            "kernel_alone": round(float(kernel[1]) / slowdown * host_vs_pi4, 2) if kernel else None,
            "kernel_measured_by_others": list(PI4_KERNEL_S),
        },
        "critical_chain": {unit: list(t) for unit, t in units.items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, nargs="?")
    parser.add_argument("--loop", action="store_true", help="time the CPU work only")
    args = parser.parse_args()
    if args.loop:
        print(json.dumps({"loop_s": round(loop_s(), 4)}))
        return 0
    if args.run is None:
        parser.error("give a card run's folder, or --loop")
    print(json.dumps(model(args.run, loop_s(), sysbench_events_s()), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
