"""The table's core of its own: the display leaves it, and a table process started after
that (inheriting the display's narrower affinity) still finds and takes it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from cabinet.table.process import CORES_VAR

needs_two = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="one core: the table has no core of its own"
)

CHILD = """
import os, sys
from cabinet.table.process import leave_table_core, take_core
leave_table_core()
display = sorted(os.sched_getaffinity(0))
table = os.popen(sys.executable + ' -c "from cabinet.table.process import take_core; '
                 'import os; print(take_core(), sorted(os.sched_getaffinity(0)))"').read()
print(display, table.strip())
"""


@needs_two
def test_a_table_started_after_the_display_left_its_core_takes_that_core() -> None:
    cores = sorted(os.sched_getaffinity(0))
    env = {k: v for k, v in os.environ.items() if k != CORES_VAR}
    done = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, check=True
    )
    display, table = done.stdout.strip().split("] ", 1)
    assert display + "]" == str(cores[:-1])
    assert table == f"{cores[-1]} [{cores[-1]}]"  # the last core, and only it
