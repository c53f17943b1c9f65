"""The table's core of its own: the display leaves it and names it, and a table process
started after that (inheriting the display's narrower affinity) takes that core."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cabinet.commands.cli import build_parser
from cabinet.commands.run import table_args
from cabinet.inputs.select import InputKind
from cabinet.table.process import build_parser as table_parser

needs_two = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="one core: the table has no core of its own"
)

CHILD = """
import os, subprocess, sys
from cabinet.table.process import leave_table_core
core = leave_table_core()
display = sorted(os.sched_getaffinity(0))
told = [str(core)] if sys.argv[1] == "told" else []
table = subprocess.run(
    [sys.executable, "-c",
     "import os, sys; from cabinet.table.process import take_core; "
     "core = int(sys.argv[1]) if len(sys.argv) > 1 else None; "
     "print(take_core(core), sorted(os.sched_getaffinity(0)))", *told],
    capture_output=True, text=True, check=True,
).stdout.strip()
print(core, display, table, sep="|")
"""


def run_child(how: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, how], capture_output=True, text=True, check=True
    )
    return done.stdout.strip().split("|")


@needs_two
def test_a_table_told_its_core_takes_it_though_it_inherits_the_display_narrower_set() -> None:
    cores = sorted(os.sched_getaffinity(0))
    core, display, table = run_child("told")
    assert core == str(cores[-1])
    assert display == str(cores[:-1])  # the display keeps off the table's core
    assert table == f"{cores[-1]} [{cores[-1]}]"  # the table runs there, and only there


@needs_two
def test_without_being_told_the_table_would_share_the_display_cores() -> None:
    """Why ``--core`` exists: from its inherited affinity the table finds a core the
    display also runs on (on 2 cores, none at all)."""
    cores = sorted(os.sched_getaffinity(0))
    _, display, table = run_child("untold")
    taken = table.split(" ", 1)[0]
    assert taken == "None" or int(taken) in ast.literal_eval(display)
    assert str(cores[-1]) not in table.split(" ", 1)[1].strip("[]").split(", ")


def test_run_passes_the_table_its_core_and_the_table_reads_it(tmp_path: Path) -> None:
    args = build_parser().parse_args(["run", "--input", "mock"])
    told = table_args(args, InputKind.MOCK, None, tmp_path, 3)
    assert table_parser().parse_args(["--fd", "5", *told]).core == 3
    untold = table_args(args, InputKind.MOCK, None, tmp_path, None)
    assert "--core" not in untold
    assert table_parser().parse_args(["--fd", "5", *untold]).core is None
