"""This machine's Python against a Raspberry Pi 4's: the n-body simulation of the
Computer Language Benchmarks Game (its plain Python program: five planets, advanced
``--steps`` times with dt 0.01), timed here, beside the Pi 4's published time for five
million steps. Prints JSON with the factor a Pi 4's Python is slower by.

The Pi 4 figure: 158.3 s for 5,000,000 steps with Python 3 (Raspberry Pi 4 Model B 4 GB,
1.5 GHz, "performance" governor), C. Mehta, "Performance Analysis of Languages on
Raspberry Pi" (chaitanyamehta.github.io). The same algorithm and step count; not checked to
be the same file, so the factor is an estimate (bench/README.md, "A Pi 4's frame").

Usage: ``python bench/nbody.py [--steps N]`` (default 500,000, scaled to five million).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

PI4_SECONDS_5M = 158.3
PI = 3.14159265358979323
SOLAR_MASS = 4 * PI * PI
DAYS_PER_YEAR = 365.24

Body = list[float]


def bodies() -> list[Body]:
    """Sun, Jupiter, Saturn, Uranus, Neptune: x, y, z, vx, vy, vz, mass."""
    planets = [
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, SOLAR_MASS],
        [4.84143144246472090e00, -1.16032004402742839e00, -1.03622044471123109e-01,
         1.66007664274403694e-03 * DAYS_PER_YEAR, 7.69901118419740425e-03 * DAYS_PER_YEAR,
         -6.90460016972063023e-05 * DAYS_PER_YEAR, 9.54791938424326609e-04 * SOLAR_MASS],
        [8.34336671824457987e00, 4.12479856412430479e00, -4.03523417114321381e-01,
         -2.76742510726862411e-03 * DAYS_PER_YEAR, 4.99852801234917238e-03 * DAYS_PER_YEAR,
         2.30417297573763929e-05 * DAYS_PER_YEAR, 2.85885980666130812e-04 * SOLAR_MASS],
        [1.28943695621391310e01, -1.51111514016986312e01, -2.23307578892655734e-01,
         2.96460137564761618e-03 * DAYS_PER_YEAR, 2.37847173959480950e-03 * DAYS_PER_YEAR,
         -2.96589568540237556e-05 * DAYS_PER_YEAR, 4.36624404335156298e-05 * SOLAR_MASS],
        [1.53796971148509165e01, -2.59193146099879641e01, 1.79258772950371181e-01,
         2.68067772490389322e-03 * DAYS_PER_YEAR, 1.62824170038242295e-03 * DAYS_PER_YEAR,
         -9.51592254519715870e-05 * DAYS_PER_YEAR, 5.15138902046611451e-05 * SOLAR_MASS],
    ]  # fmt: skip
    # Offset the sun's momentum so the system's is zero.
    px = py = pz = 0.0
    for b in planets:
        px += b[3] * b[6]
        py += b[4] * b[6]
        pz += b[5] * b[6]
    sun = planets[0]
    sun[3], sun[4], sun[5] = -px / SOLAR_MASS, -py / SOLAR_MASS, -pz / SOLAR_MASS
    return planets


def energy(system: list[Body]) -> float:
    e = 0.0
    for i, a in enumerate(system):
        e += 0.5 * a[6] * (a[3] * a[3] + a[4] * a[4] + a[5] * a[5])
        for b in system[i + 1 :]:
            dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
            e -= a[6] * b[6] / (dx * dx + dy * dy + dz * dz) ** 0.5
    return e


def advance(system: list[Body], steps: int, dt: float = 0.01) -> None:
    pairs = [(system[i], system[j]) for i in range(len(system)) for j in range(i + 1, len(system))]
    for _ in range(steps):
        for a, b in pairs:
            dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
            mag = dt * (dx * dx + dy * dy + dz * dz) ** -1.5
            bm, am = b[6] * mag, a[6] * mag
            a[3] -= dx * bm
            a[4] -= dy * bm
            a[5] -= dz * bm
            b[3] += dx * am
            b[4] += dy * am
            b[5] += dz * am
        for body in system:
            body[0] += dt * body[3]
            body[1] += dt * body[4]
            body[2] += dt * body[5]


def main() -> None:
    # Here, not at the top: bench/boot_model.py imports this file alone (in the virtual
    # Pi's guest too), for bodies() and advance().
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.engine import machine

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=500_000)
    args = parser.parse_args()
    system = bodies()
    before = energy(system)
    t0 = time.perf_counter()
    advance(system, args.steps)
    seconds = time.perf_counter() - t0
    here_5m = seconds * 5_000_000 / args.steps
    print(json.dumps({
        "machine": machine(),
        "steps": args.steps,
        "seconds": round(seconds, 2),
        "energy": [round(before, 9), round(energy(system), 9)],
        "seconds_for_5m_steps_here": round(here_5m, 1),
        "pi4_seconds_for_5m_steps": PI4_SECONDS_5M,
        "pi4_slower_by": round(PI4_SECONDS_5M / here_5m, 1),
    }, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
