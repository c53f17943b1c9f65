"""``spit-cabinet simulate``: CPU against CPU in virtual time, with a summary."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from pathlib import Path
from typing import Any

from cabinet.durations import format_margin
from cabinet.progress import Progress
from game.bots import LEVELS, LevelError, level
from game.cpu_match import play_cpu_game
from game.record import result_of
from game.rules import Rules
from game.tally import Tally

CHUNK = 50
"""Games per work unit handed to a worker process."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play CPU against CPU in virtual time and summarize",
        description="Play CPU against CPU in virtual time through the real referee and "
        "engine, and print a summary. Game i uses seed SEED+i.",
    )
    parser.add_argument("--games", type=_positive, default=100, help="how many games (100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (0)")
    parser.add_argument(
        "--levels",
        type=_levels,
        default=(4, 4),
        help=f"CPU levels of players 1 and 2, 1 to {len(LEVELS)}, e.g. 2,4 (4,4)",
    )
    parser.add_argument("--jobs", type=_positive, default=1, help="worker processes (1)")
    parser.add_argument("--out", type=Path, help="write each game's match record here")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(func=run)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _levels(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"give two levels like 2,4, got {text!r}")
    try:
        a, b = int(parts[0]), int(parts[1])
        level(a)
        level(b)
    except (ValueError, LevelError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return (a, b)


def _play_chunk(task: tuple[int, int, tuple[int, int], str | None]) -> tuple[Tally, int]:
    first, count, levels, out = task
    tally = Tally()
    rules = Rules()
    pair = (level(levels[0]), level(levels[1]))
    for seed in range(first, first + count):
        game = play_cpu_game(seed, pair, rules)
        tally.add(game.summary, game.duration_ns)
        if out is not None:
            record = game.record.with_result(result_of(game.summary))
            record.save(Path(out) / f"game-{seed}.json")
    return tally, count


def run(args: argparse.Namespace) -> int:
    out: Path | None = args.out
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"simulate: cannot create {out}: {exc.strerror}", file=sys.stderr)
            return 2
    tasks = [
        (args.seed + i, min(CHUNK, args.games - i), args.levels, str(out) if out else None)
        for i in range(0, args.games, CHUNK)
    ]
    total = Tally()
    progress = Progress(args.games, "simulate")
    if args.jobs == 1:
        results = map(_play_chunk, tasks)
        for tally, count in results:
            total.merge(tally)
            progress.advance(count)
    else:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for tally, count in pool.imap_unordered(_play_chunk, tasks):
                total.merge(tally)
                progress.advance(count)
    progress.close()
    summary = total.to_json()
    summary["levels"] = [level(n).name for n in args.levels]
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_summary(summary))
    return 0


def format_summary(s: dict[str, Any]) -> str:
    races = s["races"]
    closest = races["closest_ns"]
    closest_text = "none" if closest is None else format_margin(closest)
    lines = [
        f"games            {s['games']} ({s['levels'][0]} vs {s['levels'][1]})",
        f"wins             player 1: {s['wins'][0]}, player 2: {s['wins'][1]}, "
        f"draws: {s['draws']}" + (f", unfinished: {s['unfinished']}" if s["unfinished"] else ""),
        f"blocked ends     {s['blocked_ends']}",
        f"mean game        {s['mean_plays']:.1f} plays, {s['mean_virtual_s']:.1f} s",
        f"spits per game   {s['spits_per_game']:.2f}",
        f"races            {races['beaten']} decided by timestamp "
        f"({races['decided_against_delivery_order']} against delivery order), "
        f"{races['ties']} exact ties; closest {closest_text}",
        f"late edges       {s['late_edges']}",
    ]
    return "\n".join(lines)
