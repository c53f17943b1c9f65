"""The LED board for benchmarks: the firmware simulator in a process of its own, as a
real board runs on its own chip."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def simulated_board() -> Iterator[str]:
    """Start ``python -m firmware_bridge.sim`` (no self-test delay) and yield its pty's
    path; stop it on the way out."""
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "config.json"
        config.write_text(json.dumps({"selftest_step_ms": 0}))
        sim = subprocess.Popen(
            [sys.executable, "-m", "firmware_bridge.sim", "--config", str(config)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        try:
            assert sim.stdout is not None
            yield sim.stdout.readline().strip()
        finally:
            sim.terminate()
            sim.wait(5)
