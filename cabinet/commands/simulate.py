"""``spit-cabinet simulate``: CPU against CPU in virtual time, with a summary."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from cabinet.commands.arg_types import int_range
from cabinet.commands.durations import format_margin
from cabinet.commands.progress import Progress
from game.bots import LEVELS, LevelError, level
from game.cpu_match import play_cpu_game
from game.record_parts import RecordResult
from game.rules import Rules
from game.tally import SimulationReport, Tally

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult

CHUNK = 50
"""Games per work unit handed to a worker process."""

MAX_GAMES = 100_000_000
"""The most games one run plays: about two days on one CPU (some 600 games a second),
an hour or so with every CPU of a big machine. More is a typo."""

IN_FLIGHT = 4
"""Chunks handed to the pool ahead per worker: enough that no worker waits for the next,
few enough that the work is never all made up front (see :func:`play_chunks`)."""


def max_jobs() -> int:
    """The most worker processes: twice this machine's CPUs (the games are pure CPU work,
    so more only wait on each other, and each is a Python process of its own)."""
    return 2 * (os.cpu_count() or 1)


EPILOG = (
    "Exit status: 0 done; 1 a match record could not be written, or the worker processes "
    "could not start; 2 bad arguments, or an --out directory that cannot be written."
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play CPU against CPU in virtual time and summarize",
        description="Play CPU against CPU in virtual time through the real referee and "
        "engine, and print a summary. Game i uses seed SEED+i.",
        epilog=EPILOG,
    )
    parser.add_argument(
        "--games",
        type=int_range(1, MAX_GAMES),
        default=100,
        help=f"how many games, 1 to {MAX_GAMES} (100)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (0)")
    parser.add_argument(
        "--levels",
        type=_levels,
        default=(4, 4),
        help=f"CPU levels of players 1 and 2, 1 to {len(LEVELS)}, e.g. 2,4 (4,4)",
    )
    jobs = max_jobs()
    parser.add_argument(
        "--jobs",
        type=int_range(1, jobs, "(twice the CPUs)"),
        default=1,
        help=f"worker processes, 1 to {jobs}: twice the CPUs (1)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="write each game's match record in this directory (made if missing; checked "
        "writable before any game is played)",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(func=run)


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


class Chunk(NamedTuple):
    """A work unit: ``games`` games from seed ``first``, records written in ``out``."""

    first: int
    games: int
    levels: tuple[int, int]
    out: str | None


class RecordWriteError(Exception):
    """A worker could not write a match record (the message says which and why)."""


def chunks(seed: int, games: int, levels: tuple[int, int], out: str | None) -> Iterator[Chunk]:
    """The run's work, :data:`CHUNK` games at a time, each made only when asked for."""
    for i in range(0, games, CHUNK):
        yield Chunk(seed + i, min(CHUNK, games - i), levels, out)


def _play_chunk(task: Chunk) -> tuple[Tally, int]:
    tally = Tally()
    rules = Rules()
    pair = (level(task.levels[0]), level(task.levels[1]))
    for seed in range(task.first, task.first + task.games):
        game = play_cpu_game(seed, pair, rules)
        tally.add(game.summary, game.duration_ns)
        if task.out is not None:
            record = game.record.with_result(RecordResult.of(game.summary))
            path = Path(task.out) / f"game-{seed}.json"
            try:
                record.save(path)
            except OSError as exc:
                where = exc.filename or path
                raise RecordWriteError(f"cannot write {where}: {exc.strerror or exc}") from None
    return tally, task.games


def play_chunks(
    tasks: Iterable[Chunk],
    jobs: int,
    play: Callable[[Chunk], tuple[Tally, int]] = _play_chunk,
) -> Generator[tuple[Tally, int], None, None]:
    """``play`` each chunk (in ``jobs`` worker processes when more than one) and yield its
    result, in order. ``tasks`` is read only as results are taken: at most
    :data:`IN_FLIGHT` chunks per worker are handed out ahead, so a run of any length holds
    a few chunks, never the whole list. A worker's exception is raised here; closing the
    generator stops the workers."""
    if jobs == 1:
        yield from map(play, tasks)
        return
    import multiprocessing  # only for several workers: one plays in this process

    ahead = jobs * IN_FLIGHT
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        pending: deque[AsyncResult[tuple[Tally, int]]] = deque()
        for task in tasks:
            pending.append(pool.apply_async(play, (task,)))
            if len(pending) >= ahead:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def unwritable(out: Path) -> str | None:
    """Why match records cannot be written in ``out`` (made if missing), or ``None``. A
    file is made there and removed: the only sure test (root, read-only mounts, ACLs)."""
    if out.exists() and not out.is_dir():
        return "not a directory"
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".simulate-", suffix=".tmp"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def _error(message: str) -> None:
    print(f"spit-cabinet simulate: error: {message}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    out: Path | None = args.out
    if out is not None:
        reason = unwritable(out)
        if reason is not None:
            _error(f"cannot write match records in {out}: {reason}")
            return 2
    tasks = chunks(args.seed, args.games, args.levels, str(out) if out else None)
    total = Tally()
    progress = Progress(args.games, "simulate")
    try:
        for tally, count in play_chunks(tasks, args.jobs, _play_chunk):
            total.merge(tally)
            progress.advance(count)
    except RecordWriteError as exc:
        progress.close()
        _error(str(exc))
        return 1
    except OSError as exc:  # the pool itself: too many processes for this machine now
        if args.jobs == 1:
            raise
        progress.close()
        _error(f"cannot start {args.jobs} worker processes: {exc.strerror or exc}")
        return 1
    progress.close()
    first, second = (level(n).name for n in args.levels)
    report = SimulationReport(total, (first, second))
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(format_summary(report))
    return 0


def format_summary(report: SimulationReport) -> str:
    t = report.tally
    closest = t.closest_race_ns
    closest_text = "none" if closest is None else format_margin(closest)
    lines = [
        f"games            {t.games} ({report.levels[0]} vs {report.levels[1]})",
        f"wins             player 1: {t.wins[0]}, player 2: {t.wins[1]}, "
        f"draws: {t.draws}" + (f", unfinished: {t.unfinished}" if t.unfinished else ""),
        f"blocked ends     {t.blocked_ends}",
        f"mean game        {t.mean_plays:.1f} plays, {t.mean_virtual_s:.1f} s",
        f"spits per game   {t.spits_per_game:.2f}",
        f"races            {t.beaten} decided by timestamp "
        f"({t.reordered_races} against delivery order), "
        f"{t.ties} exact ties; closest {closest_text}",
        f"late edges       {t.late_edges}",
    ]
    return "\n".join(lines)
