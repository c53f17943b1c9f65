"""How long whole ``spit-cabinet`` commands take, each in a fresh process, side by side with
a bare ``python -c pass``. Prints JSON.

- ``python``: ``python -c pass``, the floor: the interpreter starting and stopping.
- ``replay``: ``spit-cabinet replay RECORD`` (what an operator runs to settle a dispute).
- ``simulate``: ``spit-cabinet simulate --games 1`` (run in loops to tune CPU levels).
- ``help``: ``spit-cabinet --help``.

Each is run ``--runs`` times (after one untimed warm-up run each, which also writes the
bytecode caches), in turns (python, replay, simulate, help, python, …) so that the load of
a shared machine falls on all of them alike. Wall time from ``subprocess.run`` to its
return, by ``time.perf_counter``; median and p90 (nearest rank) in ms, and the ratio of
replay's median to python's (goal: at most 3).

Bytecode: by default every process reads and writes its compiled modules in a fresh
temporary ``PYTHONPYCACHEPREFIX`` (filled by the warm-up runs), as an installed cabinet
reads the ``.pyc`` files compiled at install, whatever ``PYTHONDONTWRITEBYTECODE`` says
here. ``--no-bytecode-cache`` sets ``PYTHONDONTWRITEBYTECODE=1`` instead: every run
compiles the repository's modules from source (unless its ``__pycache__`` directories
hold them already), as a checkout run with that variable does; the standard library's and
the installed packages' ``.pyc`` files are read as usual.

Usage: ``python bench/cli_start.py [--runs 30] [--record FILE] [--root DIR]
[--no-bytecode-cache]``. ``--root`` times the code of another copy of the repository (e.g.
an older commit unpacked with ``git archive``): it goes first on ``PYTHONPATH``, ahead of
this checkout's editable install.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine_info import machine

ROOT = Path(__file__).resolve().parent.parent
GOAL_RATIO = 3.0


def spit_cabinet() -> list[str]:
    """The ``spit-cabinet`` console script next to this interpreter (as installed), else
    ``python -m cabinet``."""
    script = Path(sys.executable).parent / "spit-cabinet"
    if script.exists():
        return [str(script)]
    found = shutil.which("spit-cabinet")
    return [found] if found else [sys.executable, "-m", "cabinet"]


def commands(record: Path) -> dict[str, list[str]]:
    cli = spit_cabinet()
    return {
        "python": [sys.executable, "-c", "pass"],
        "replay": [*cli, "replay", str(record)],
        "simulate": [*cli, "simulate", "--games", "1"],
        "help": [*cli, "--help"],
    }


def run_once(argv: list[str], env: dict[str, str]) -> float:
    """Seconds from start to exit of one fresh process; a failing command stops the bench."""
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode(errors='replace')}"
        )
    return elapsed


def figures(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p90 = ordered[max(math.ceil(0.9 * len(ordered)) - 1, 0)]
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 1),
        "p90_ms": round(p90 * 1000, 1),
        "min_ms": round(ordered[0] * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="timed runs of each command (30)")
    parser.add_argument(
        "--record",
        type=Path,
        default=ROOT / "tests" / "data" / "tie.json",
        help="the match record replay reads (tests/data/tie.json)",
    )
    parser.add_argument("--root", type=Path, help="time this copy's code instead of this one's")
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="compile every module from source in every run (no .pyc kept)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cli-start-pyc-") as pycache:
        env = dict(os.environ)
        if args.no_bytecode_cache:
            env["PYTHONDONTWRITEBYTECODE"] = "1"  # the standard library's .pyc are still read
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = pycache
        if args.root is not None:
            env["PYTHONPATH"] = os.pathsep.join(
                p for p in (str(args.root.resolve()), env.get("PYTHONPATH")) if p
            )
        out = bench(args.record.resolve(), args.runs, env)
    out["code"] = str((args.root or ROOT).resolve())
    out["bytecode_cache"] = not args.no_bytecode_cache
    print(json.dumps(out, indent=2))


def bench(record: Path, runs: int, env: dict[str, str]) -> dict[str, object]:
    todo = commands(record)
    samples: dict[str, list[float]] = {name: [] for name in todo}
    for argv in todo.values():
        run_once(argv, env)  # warm-up: bytecode caches, the page cache
    for _ in range(runs):
        for name, argv in todo.items():
            samples[name].append(run_once(argv, env))
    ratio = statistics.median(samples["replay"]) / statistics.median(samples["python"])
    return {
        "machine": machine(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "runs": runs,
        "commands": {name: " ".join(argv) for name, argv in todo.items()},
        "results": {name: figures(s) for name, s in samples.items()},
        "replay_over_python": round(ratio, 2),
        "goal_replay_over_python": GOAL_RATIO,
        "goal_met": ratio <= GOAL_RATIO,
    }


if __name__ == "__main__":
    main()
