"""A Raspberry Pi 4's boot, kernel to the cabinet's first attract frame, modelled from the
virtual Pi's boot of the flashed card (issue 33; bench/README.md, "The flashed card").

    python bench/boot_model.py RUN [RUN …] [--rounds 5]
        (RUN: a card run of scripts/virtual-pi/run.sh, or bench/card_boot.sh's folder)
    python bench/boot_model.py --guest    (the CPU work timed in the guest; run.sh runs it)

The virtual Pi is QEMU's TCG: every arm64 instruction translated on this x86 host. Its
boot is scaled to a Pi 4 by F, how much slower the guest is than a Pi 4, found two ways:

- **by 7-Zip**: S, the guest against this host at the same Python work (``loop_s``, timed
  in both), divided by R, this host's core against a Pi 4's at 7-Zip's single-threaded
  benchmark (``7zz b -mmt1`` here, Debian's 7zip; PI4_7ZIP_MIPS, cited there);
- **by n-body**: the guest's time at the Benchmarks Game's n-body in Python against a Pi
  4's (PI4_NBODY_S, cited there), scaled to the same number of steps.

This host's two figures drift from minute to minute, and not together (7-Zip's more): they
are timed in ``--rounds`` turns, loop then 7-Zip, and the turn whose product (the one
figure F depends on) is the median is taken. With several RUNs (cards booted one after the
other, to compare them), the host is timed once for all, and ``common`` scales every
card by the same F, the mean of theirs: their guests' loops differ only by the host's
drift between the boots, and one F keeps that drift from reading as a difference.

The CPU part of the boot on a Pi 4 is (TCG seconds) / F. The card's reads are added on
top, not overlapped (a pessimistic bound): the bytes the guest read from the card until
the figures were taken (RUN/vda-stat.txt) at a Pi 4's SD card speed (PI4_SD_MB_S, cited
there). The test kit (the virtual Pi's GPIO simulator, on the cabinet's critical chain in
the guest) is not on a Pi and is taken out first: the time the cabinet waited for it past
its own mounts on the data partition. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import nbody  # bench/nbody.py, beside this file (run.sh copies both into the guest)

PI4_7ZIP_MIPS = 1633.0
"""7-Zip's single-threaded benchmark on a Raspberry Pi 4 at 1.5 GHz, the middle of
1606-1661 MIPS (sbc-bench's results table,
https://github.com/ThomasKaiser/sbc-bench/blob/master/Results.md)."""
PI4_NBODY_S = (nbody.PI4_SECONDS_5M, 5_000_000)
"""The Benchmarks Game's n-body in Python on a Raspberry Pi 4, as bench/nbody.py cites it
(the Python there is older than the guest's 3.13, which is faster at it: this factor errs
towards a slower Pi)."""
NBODY_STEPS = 50_000
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
TIME = r"(?:(\d+)min )?([\d.]+)(ms|s)"
CHAIN_LINE = re.compile(
    rf"([\w\\.@:-]+\.(?:service|mount|target|device|slice|socket)) @{TIME}(?: \+{TIME})?"
)


def nbody_s(steps: int) -> float:
    """bench/nbody.py's n-body (the Benchmarks Game's), ``steps`` steps; seconds taken."""
    system = nbody.bodies()
    start = time.perf_counter()
    nbody.advance(system, steps)
    return time.perf_counter() - start


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


def seconds(minutes: str | None, value: str, unit: str) -> float:
    """systemd's "1min 2.5s", "870ms", "12.366s" (as TIME's three groups)."""
    return int(minutes or 0) * 60 + float(value) / (1000 if unit == "ms" else 1)


def chain(text: str) -> dict[str, tuple[float, float]]:
    """``systemd-analyze critical-chain``: unit -> (started at, took), in seconds."""
    found = {}
    for m in CHAIN_LINE.finditer(text):
        took = seconds(m[5], m[6], m[7]) if m[6] else 0.0
        found[m[1]] = (seconds(m[2], m[3], m[4]), took)
    return found


def ready(text: str) -> dict[str, float]:
    """Each chain's own unit (the lines with no tree before them) -> when it was ready:
    the step before it (the next line) started and took its time, then the unit its own."""
    lines = [line for line in text.splitlines() if line.strip()]
    out = {}
    for top, below in itertools.pairwise(lines):
        own = re.match(rf"([\w\\.@:-]+) \+{TIME}$", top)
        step = CHAIN_LINE.search(below)
        if own and step:
            took = seconds(step[5], step[6], step[7]) if step[6] else 0.0
            out[own[1]] = seconds(step[2], step[3], step[4]) + took + seconds(*own.groups()[1:])
    return out


def kit_on_the_chain_s(run: Path) -> float:
    """How much later the cabinet started for waiting for the test kit: the kit's end
    past the cabinet's own mounts' (RUN/critical-chain-mounts.txt), or, without that
    file, the kit's whole time."""
    units = chain((run / "critical-chain.txt").read_text())
    if "gpio-sim.service" not in units:
        return 0.0
    start, took = units["gpio-sim.service"]
    mounts = run / "critical-chain-mounts.txt"
    if not mounts.exists():
        return took
    return max(0.0, start + took - max(ready(mounts.read_text()).values(), default=0.0))


def sevenzip_mips() -> float:
    """This host's 7-Zip single-threaded rating (``7zz b -mmt1``, its "Tot:" MIPS)."""
    done = subprocess.run(["7zz", "b", "-mmt1"], capture_output=True, text=True, check=True)
    found = re.search(r"^Tot:\s+\d+\s+\d+\s+(\d+)", done.stdout, re.M)
    if found is None:
        raise SystemExit(f"7zz gave no total rating: {done.stdout[-300:]}")
    return float(found[1])


def host_rounds(rounds: int) -> list[tuple[float, float]]:
    """This host's (loop seconds, 7-Zip MIPS), ``rounds`` times, in turns."""
    return [(loop_s(), sevenzip_mips()) for _ in range(rounds)]


def median_round(timed: list[tuple[float, float]]) -> tuple[float, float]:
    """The turn whose loop seconds × MIPS is the median (the lower one of an even count):
    F is the guest's loop × a Pi 4's MIPS over that product."""
    ranked = sorted(timed, key=lambda pair: pair[0] * pair[1])
    return ranked[(len(ranked) - 1) // 2]


def common(models: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Every card scaled by one F (by 7-Zip), the mean of theirs: CPU seconds on a Pi 4,
    and with the card's reads added."""
    factors = [m["pi4_model_s"]["by_7zip"]["F_guest_slower_than_pi4"] for m in models.values()]
    f = sum(factors) / len(factors)
    out: dict[str, Any] = {"F_guest_slower_than_pi4": round(f, 2), "cards": {}}
    for name, m in models.items():
        cpu_s = (m["tcg"]["kernel_to_first_frame_s"] - m["tcg"]["test_kit_on_the_chain_s"]) / f
        out["cards"][name] = {
            "cpu": round(cpu_s, 2),
            "kernel_to_first_frame": round(cpu_s + m["card_reads_s"]["sequential"], 2),
        }
    return out


def guest() -> dict[str, float]:
    """The CPU work, as the guest times it."""
    return {"loop_s": round(loop_s(), 4), "nbody_s": round(nbody_s(NBODY_STEPS), 4)}


def model(run: Path, host_loop_s: float, host_mips: float) -> dict[str, Any]:
    timings = dict(line.split() for line in (run / "timings.txt").read_text().splitlines())
    to_frame = float(timings["kernel_to_first_frame"])
    timed = json.loads((run / "guest-loop.json").read_text())
    units = chain((run / "critical-chain.txt").read_text())
    kit_s = kit_on_the_chain_s(run)
    read_bytes = int((run / "vda-stat.txt").read_text().split()[2]) * SECTOR
    boot_time = (run / "boot-time.txt").read_text().strip()
    kernel = re.search(r"([\d.]+)s \(kernel\)", boot_time)
    slowdown = timed["loop_s"] / host_loop_s
    host_vs_pi4 = host_mips / PI4_7ZIP_MIPS
    pi4_nbody_s = PI4_NBODY_S[0] * NBODY_STEPS / PI4_NBODY_S[1]
    factors = {"7zip": slowdown / host_vs_pi4, "nbody": timed["nbody_s"] / pi4_nbody_s}
    reads_s = read_bytes / 1e6 / PI4_SD_MB_S
    random_reads_s = read_bytes / 1e6 / PI4_SD_RANDOM_MB_S
    pi4: dict[str, Any] = {}
    for name, f in factors.items():
        cpu_s = (to_frame - kit_s) / f
        pi4[f"by_{name}"] = {
            "F_guest_slower_than_pi4": round(f, 2),
            "cpu": round(cpu_s, 2),
            "kernel_to_first_frame": round(cpu_s + reads_s, 2),
            "with_random_reads": round(cpu_s + random_reads_s, 2),
            "kernel_alone": round(float(kernel[1]) / f, 2) if kernel else None,
        }
    return {
        "tcg": {
            "kernel_to_first_frame_s": to_frame,
            "test_kit_on_the_chain_s": kit_s,
            "systemd_analyze": boot_time,
            "read_from_the_card_mb": round(read_bytes / 1e6, 1),
        },
        "factors": {
            "guest_loop_s": timed["loop_s"],
            "host_loop_s": round(host_loop_s, 4),
            "S_guest_slower_than_host": round(slowdown, 2),
            "host_7zip_mips": host_mips,
            "pi4_7zip_mips": PI4_7ZIP_MIPS,
            "R_host_faster_than_pi4": round(host_vs_pi4, 2),
            "guest_nbody_s": timed["nbody_s"],
            "pi4_nbody_s_same_steps": round(pi4_nbody_s, 3),
        },
        "card_reads_s": {"sequential": round(reads_s, 2), "random_4k": round(random_reads_s, 2)},
        "pi4_model_s": pi4,
        "pi4_kernel_measured_by_others_s": list(PI4_KERNEL_S),
        "critical_chain": {unit: list(t) for unit, t in units.items()},
        "mounts_ready_s": ready((run / "critical-chain-mounts.txt").read_text())
        if (run / "critical-chain-mounts.txt").exists()
        else {},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, nargs="*")
    parser.add_argument("--guest", action="store_true", help="time the CPU work only")
    parser.add_argument("--rounds", type=int, default=5, help="turns at timing this host")
    args = parser.parse_args()
    if args.guest:
        print(json.dumps(guest()))
        return 0
    if not args.run:
        parser.error("give a card run's folder, or --guest")
    timed = host_rounds(args.rounds)
    host_loop, host_mips = median_round(timed)
    models = {str(run): model(run, host_loop, host_mips) for run in args.run}
    out: dict[str, Any] = (
        next(iter(models.values()))
        if len(models) == 1
        else {
            "runs": models,
            "common": common(models),
        }
    )
    out["host_rounds"] = [{"loop_s": round(lo, 4), "7zip_mips": mips} for lo, mips in timed]
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
