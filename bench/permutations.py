"""The permutation stress, long: random bursts of presses inside one race window, each
replayed in every delivery order, and twice at random moments inside the window
(tests/game/bursts.py; the suite runs 1,000 bursts). Prints JSON: bursts, orders tried,
bursts whose game changed with the order and deliveries that changed it with the moments
(the goal is 0 for both), and the time taken.

Usage: ``python bench/permutations.py [--bursts N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

from machine_info import machine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.game.bursts import changed_moments, changed_orders, make_burst


def run(bursts: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    orders = changed = moments = 0
    sizes = [0] * 6
    start = time.perf_counter()
    for _ in range(bursts):
        burst = make_burst(rng)
        sizes[len(burst.burst)] += 1
        orders += math.factorial(len(burst.burst))
        if changed_orders(burst):
            changed += 1
        moments += changed_moments(burst, rng)
    return {
        "bursts": bursts,
        "burst_sizes": {str(n): sizes[n] for n in range(2, 6)},
        "orders": orders,
        "changed": changed,
        "moment_deliveries": 2 * bursts,
        "moments_changed": moments,
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bursts", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(json.dumps({"machine": machine(), **run(args.bursts, args.seed)}, indent=1))


if __name__ == "__main__":
    main()
