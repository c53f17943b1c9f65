"""The table's reports to the display, pickled two ways: Python's own (``pickle.dumps``)
and the table's (:func:`cabinet.table.messages.pickle_report`, a dataclass as a call of
its class). Prints JSON: per report kind, the µs to pickle and to read back one report
(the median of ``--rounds``), and its size in bytes.

The reports are those of games fed random presses and releases an edge at a time, as
the table's loop builds them (:mod:`cabinet.table.sample_reports`): a ``Decided`` and a
``Health`` (the switches' snapshot) per edge.

Usage: ``python bench/reports.py [--edges 2000] [--rounds 7] [--seed 1]``
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from machine_info import machine

# Run from a checkout: import this repository's packages, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cabinet.table.messages import Decided, Health, pickle_report
from cabinet.table.sample_reports import played_reports


def per_report_us(work: Callable[[], object], count: int, rounds: int) -> float:
    """The median over ``rounds`` of ``work()``'s time, per report (µs)."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        work()
        times.append((time.perf_counter_ns() - start) / count / 1000)
    return round(statistics.median(times), 2)


def figures(dumps: Callable[[Any], bytes], items: list[Any], rounds: int) -> dict[str, float]:
    """``items`` pickled by ``dumps``: µs to pickle and to read back one, and its bytes."""
    blobs = [dumps(r) for r in items]
    assert [pickle.loads(b) for b in blobs] == items  # read back equal

    def dump_all() -> object:
        return [dumps(r) for r in items]

    def load_all() -> object:
        return [pickle.loads(b) for b in blobs]

    return {
        "dumps_us": per_report_us(dump_all, len(items), rounds),
        "loads_us": per_report_us(load_all, len(items), rounds),
        "bytes": round(statistics.mean(map(len, blobs)), 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    ways: dict[str, Callable[[Any], bytes]] = {
        "python": lambda r: pickle.dumps(r, pickle.HIGHEST_PROTOCOL),
        "pickle_report": pickle_report,
    }
    out: dict[str, Any] = {"machine": machine()}
    played = played_reports(args.edges, args.seed)
    for kind in (Decided, Health):
        items = [r for r in played if isinstance(r, kind)]
        out[kind.__name__] = {
            name: figures(dumps, items, args.rounds) for name, dumps in ways.items()
        }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
