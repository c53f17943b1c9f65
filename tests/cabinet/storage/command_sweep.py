"""Every ``spit-cabinet`` command that touches the books, run against every kind of damaged,
foreign, locked, read-only and full data directory: did anything change without a copy
kept and a message saying so?

Each case makes a fresh data directory with one kind of damage (:data:`.sweep_cases.DAMAGES`,
which takes in the corpus of ``test_damaged_databases.py``), snapshots every file under
the case's folder (names, bytes, modes, links), runs one command
(:data:`.sweep_cases.COMMANDS`) in a child process as an operator would
(``SPIT_CABINET_DATA``, or ``--data-dir``), snapshots again and judges
(:func:`.sweep_judge.judge`):

- ``unchanged``: nothing changed (SQLite's ``-shm`` index is not data, and not looked at;
  a database is compared by what it holds, so a checkpoint of its WAL changes nothing);
- ``created``: only new files (a database where there was none);
- ``written``: a command that writes did its work on books it can use as they are
  (:data:`.sweep_cases.SOUND`: healthy, locked, full…);
- ``set aside``: what changed or went is still there, as it was, under a name the
  command printed (moved aside, or a copy kept before a migration or a repair);
- ``CHANGED``: anything else: data changed or lost, with no copy kept or none named.
  The sweep fails on any.

The suite runs a representative part (``test_command_sweep.py``); a maintainer runs the
whole of it (a few minutes; ``--jobs`` at most the cores)::

    .venv/bin/python -m tests.cabinet.storage.command_sweep [--jobs 2] [--command NAME]
        [--damage NAME] [--verbose]

The full-disk cases mount a small tmpfs, as root only (skipped otherwise); the file-size
limit cases (``RLIMIT_FSIZE``) run for anyone. The read-only cases use the kernel's
immutable flag as root (whom permissions do not stop) and permissions otherwise.

This module runs the cases; the damage is made by :mod:`.sweep_damages` and
:mod:`.sweep_machine_damages`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.cabinet.storage.sweep_cases import COMMANDS, DAMAGES, SOUND, write_inputs
from tests.cabinet.storage.sweep_damages import Case, Unavailable
from tests.cabinet.storage.sweep_judge import Result, judge, snapshot

ROOT = Path(__file__).resolve().parents[3]


# -- running a case -----------------------------------------------------------------------


def run_case(name: str, damage: str, base: Path, *, timeout_s: float = 120.0) -> Result:
    """Make ``damage`` in a new folder under ``base``, run command ``name`` on it, judge."""
    command = COMMANDS[name]
    folder = Path(tempfile.mkdtemp(dir=base, prefix="case-"))
    case = Case(folder / "root", folder / "io", contextlib.ExitStack())
    case.root.mkdir()
    write_inputs(case.io)
    started = time.monotonic()
    with case.cleanup:
        try:
            DAMAGES[damage](case)
        except Unavailable as exc:
            return Result(name, damage, None, "", "", "skipped", str(exc), 0.0)
        before = snapshot(case.root)
        argv = command.argv(case)
        env = dict(
            os.environ,
            SPIT_CABINET_DATA=str(case.data),
            HOME=str(case.io),
            SDL_VIDEODRIVER="dummy",
            SDL_AUDIODRIVER="dummy",
            PYGAME_HIDE_SUPPORT_PROMPT="1",
            PYTHONPATH=str(ROOT),
        )
        try:
            done = subprocess.run(
                [sys.executable, "-m", "cabinet", *argv],
                capture_output=True,
                text=True,
                env=env,
                cwd=case.io,
                timeout=timeout_s,
                preexec_fn=case.preexec,
                check=False,
            )
            status, out, err = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as exc:
            status, out, err = None, str(exc.stdout or ""), str(exc.stderr or "")
        after = snapshot(case.root)
        intended = command.writes and damage in SOUND and status in command.done
        verdict, detail = judge(before, after, out + err, intended)
        if status is not None and "Traceback" in err:
            detail = (detail + "; " if detail else "") + "a traceback"
    shutil.rmtree(folder, ignore_errors=True)
    return Result(name, damage, status, out, err, verdict, detail, time.monotonic() - started)


def sweep(
    commands: Sequence[str], damages: Sequence[str], *, jobs: int = 1, base: Path | None = None
) -> list[Result]:
    """Every command of ``commands`` against every damage of ``damages``."""
    with contextlib.ExitStack() as stack:
        if base is None:
            base = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="sweep-")))
        pairs = [(c, d) for c in commands for d in damages]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(lambda pair: run_case(*pair, base), pairs))


def report(results: Sequence[Result], *, verbose: bool = False) -> Iterator[str]:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.verdict] = counts.get(r.verdict, 0) + 1
        if verbose or r.bad or "traceback" in r.detail:
            yield (
                f"{r.verdict:<10} {r.command} × {r.damage}: exit {r.status}, {r.seconds:.1f} s"
                + (f"; {r.detail}" if r.detail else "")
            )
            if r.bad or "traceback" in r.detail:
                for line in (r.err.strip().splitlines() or ["(nothing on stderr)"])[-6:]:
                    yield f"           | {line[:300]}"
    yield f"{len(results)} cases: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--command", action="append", choices=COMMANDS, help="(all)")
    parser.add_argument("--damage", action="append", choices=DAMAGES, help="(all)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="a line for every case")
    args = parser.parse_args(argv)
    results = sweep(args.command or list(COMMANDS), args.damage or list(DAMAGES), jobs=args.jobs)
    for line in report(results, verbose=args.verbose):
        print(line, flush=True)
    return 1 if any(r.bad for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
