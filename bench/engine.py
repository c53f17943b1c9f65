"""Engine and referee speed, in virtual time, on one core. Prints JSON.

- ``engine_games_per_s``: CPU-vs-CPU games played straight onto the engine (the pure
  decision picks each play; no referee, no timing model).
- ``referee_games_per_s``: whole CPU-vs-CPU games through the timing model and the
  referee, exactly as ``spit-cabinet simulate`` plays them.
- ``referee_step_us``: the cost of one referee call (taking one edge, or one clock tick),
  median and p99, measured call by call over whole games.

Usage: ``python bench/engine.py [--games N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from machine_info import machine

from game.bots import choose_play, level
from game.cpu_match import play_cpu_game
from game.engine import Game, fitting_ranks
from game.rules import Rules
from game.units import MS, US

REPEATS = 3


def engine_game(seed: int, rules: Rules, fits: tuple[frozenset[int], ...]) -> int:
    """Play one game onto the engine alone; returns the number of plays."""
    game = Game.from_seed(seed, rules)
    game.start(0)
    t = 0
    plays = 0
    player = seed & 1
    while game.outcome is None:
        t += MS
        moved = False
        tops = (game.pile_top(0), game.pile_top(1))
        for p in (player, 1 - player):
            choice = choose_play(game.layout(p), tops, fits)
            if choice is not None:
                game.play(p, choice[0], choice[1], t)
                plays += 1
                moved = True
                break
        player = 1 - player
        if not moved:
            due = game.spit_due_ns
            assert due is not None
            t = due
            game.advance(t)
        game.take_events()
    return plays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    rules = Rules()
    fits = fitting_ranks(rules.ace_wraps)

    # Each rate is timed over REPEATS runs: the best is the machine's speed, the median
    # shows how much a shared machine's load moved it.
    engine_rates: list[float] = []
    plays = 0
    for _ in range(REPEATS):
        start = time.perf_counter()
        plays = sum(engine_game(seed, rules, fits) for seed in range(args.games))
        engine_rates.append(args.games / (time.perf_counter() - start))

    pair = (level(4), level(4))
    n_ref = max(args.games // 4, 1)
    referee_rates: list[float] = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for seed in range(n_ref):
            play_cpu_game(seed, pair, rules)
        referee_rates.append(n_ref / (time.perf_counter() - start))

    # One referee step at a time: replay recorded games, timing each call.
    from game.record import start_match

    steps: list[int] = []
    clock = time.perf_counter_ns
    for seed in range(min(n_ref, 200)):
        record = play_cpu_game(seed, pair, rules).record
        referee = start_match(record.rules, record.decks, record.seed)
        for edge in record.edges:
            assert edge.delivered_ns is not None
            t0 = clock()
            referee.take(edge, edge.delivered_ns)
            steps.append(clock() - t0)
    steps.sort()
    print(
        json.dumps(
            {
                "machine": machine(),
                "engine_games": args.games,
                "repeats": REPEATS,
                "engine_games_per_s": round(max(engine_rates), 1),
                "engine_games_per_s_median": round(statistics.median(engine_rates), 1),
                "engine_plays_per_game": round(plays / args.games, 1),
                "referee_games": n_ref,
                "referee_games_per_s": round(max(referee_rates), 1),
                "referee_games_per_s_median": round(statistics.median(referee_rates), 1),
                "referee_step_us": {
                    "steps": len(steps),
                    "p50": round(statistics.median(steps) / US, 2),
                    "p99": round(steps[int(len(steps) * 0.99)] / US, 2),
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
