"""Shared fixtures for the light link: the real MicroPython interpreter, the pty simulator."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.firmware.config import Config
from firmware_bridge.link import LightLink
from firmware_bridge.session import Timing
from firmware_bridge.sim import Simulator

WAIT_S = 10.0
"""How long a test waits for something it expects (returning as soon as it comes): long,
so a busy machine (a first run on a fresh one, compiling everything) passes too."""


ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
RUNNER = HERE / "micropython_runner.mjs"
MP_PACKAGE = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def run_micropython(script: Path) -> Any:
    """Run ``script`` under real MicroPython (WebAssembly, on Node) and parse its JSON."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed to run MicroPython: install Node 20 or later")
    if not MP_PACKAGE.is_dir():
        pytest.fail(
            "MicroPython for the tests is missing: run `npm ci` at the repository root "
            "(it installs @micropython/micropython-webassembly-pyscript from package-lock.json)"
        )
    done = subprocess.run(
        [node, str(RUNNER), str(ROOT), str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, f"MicroPython failed:\n{done.stderr}"
    return json.loads(done.stdout)


def run_cpython(script: Path) -> Any:
    """Run ``script`` under this CPython, with the repository importable, and parse its JSON."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, f"CPython failed:\n{done.stderr}"
    return json.loads(done.stdout)


#: Fast self test so the pty tests see the wanted state soon after a (re)boot.
FAST_BOOT = Config({"selftest_step_ms": 0})


@pytest.fixture
def board_path(tmp_path: Path) -> str:
    """A stable port name: a symlink the simulator points at its current pty."""
    return str(tmp_path / "lightboard")


@pytest.fixture
def sim(board_path: str) -> Iterator[Simulator]:
    simulator = Simulator(FAST_BOOT, link_path=board_path)
    simulator.start()
    yield simulator
    simulator.stop()


@pytest.fixture
def make_link() -> Iterator[Callable[..., LightLink]]:
    links: list[LightLink] = []

    def make(*args: Any, **kwargs: Any) -> LightLink:
        kwargs.setdefault("timing", Timing(heartbeat_ms=100))
        link = LightLink(*args, **kwargs)
        links.append(link)
        return link.start()

    yield make
    for link in links:
        link.stop()


@pytest.fixture
def micropython() -> Callable[[Path], Any]:
    """``micropython(script)``: run a script under real MicroPython, return its JSON."""
    return run_micropython


@pytest.fixture
def cpython() -> Callable[[Path], Any]:
    """``cpython(script)``: run the same script under CPython, return its JSON."""
    return run_cpython


@pytest.fixture
def mp_script() -> Callable[[str], Path]:
    """``mp_script(name)``: the path of a script in ``mp_scripts/``."""
    return lambda name: HERE / "mp_scripts" / name
