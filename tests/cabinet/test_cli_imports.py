"""The lazy command line: ``replay`` and ``simulate`` start without the cabinet's heavy parts
(pygame, gpiozero, sqlite3, pyserial, ``cabinet.display.app``), and ``--help`` without any command
module; the top-level help still lists every command with its one-line summary.

What is imported is read from ``sys.modules`` at the exit of a fresh process that ran
``python -m cabinet`` with the command, as a user runs it. How long anything takes is
``bench/cli_start.py``'s business, not these tests'.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

HEAVY = ("pygame", "gpiozero", "sqlite3", "_sqlite3", "serial", "cabinet.display.app")
"""Modules (and their submodules) that ``replay`` and ``simulate`` must not import."""
CPU_PLAYERS = ("game.bots", "game.cpu_match", "game.cpu_seat", "game.live_match")
"""What plays against people or itself: a replay only reads a record and referees it."""

COMMANDS = [
    "run",
    "simulate",
    "replay",
    "wiring",
    "lights",
    "firmware",
    "doctor",
    "fairness",
    "settings",
    "audits",
    "fleet",
    "release",
]
COMMAND_MODULES = [f"cabinet.commands.{name}" for name in COMMANDS]


DRIVER = """
import atexit, json, runpy, sys
out = sys.argv[1]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv = ["spit-cabinet", *sys.argv[2:]]
runpy.run_module("cabinet", run_name="__main__", alter_sys=True)
"""
"""``python -m cabinet ARGV``, writing every module in ``sys.modules`` at exit (in JSON) to
the file named first. ``python -X importtime`` would not do: it misses the modules
imported by ``importlib.import_module``, which is how the command line imports a command."""


def imported_by(tmp_path: Path, *argv: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``python -m cabinet ARGV`` in a fresh process: the finished process, and every
    module it had imported when it exited."""
    out = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(out), *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    modules: list[str] = json.loads(out.read_text(encoding="utf-8"))
    return done, set(modules)


def heavy_in(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_replay_imports_none_of_the_heavy_parts(tmp_path: Path) -> None:
    done, modules = imported_by(tmp_path, "replay", str(DATA / "tie.json"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "recorded result: matches" in done.stdout
    assert "game.record" in modules  # the parsing sees the imports
    assert heavy_in(modules) == []
    assert sorted(set(CPU_PLAYERS) & modules) == []


def test_the_game_package_loads_its_names_when_used() -> None:
    """``import game`` loads no module of its own; each name of ``game.__all__`` loads
    its module when first used, and is the module's own object."""
    code = (
        "import importlib, json, sys; import game; before = sorted(m for m in sys.modules "
        "if m.startswith('game.')); names = {n: getattr(game, n).__module__ "
        "if hasattr(getattr(game, n), '__module__') else None for n in game.__all__}; "
        "same = all(getattr(game, n) is getattr(importlib.import_module(m), n) "
        "for n, m in names.items() if m); print(json.dumps([before, same, sorted(dir(game))]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    before, same, listed = json.loads(done.stdout)
    assert before == []
    assert same is True
    assert set(listed) >= set(__import__("game").__all__)


def test_simulate_imports_none_of_the_heavy_parts(tmp_path: Path) -> None:
    done, modules = imported_by(tmp_path, "simulate", "--games", "1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("games            1 ")
    assert "game.cpu_match" in modules
    assert heavy_in(modules) == []


def test_help_imports_no_command_module(tmp_path: Path) -> None:
    done, modules = imported_by(tmp_path, "--help")
    assert done.returncode == 0, done.stderr[-2000:]
    listed = [line.split() for line in done.stdout.splitlines() if line.startswith("    ")]
    assert [words[0] for words in listed] == COMMANDS
    assert sorted(m for m in modules if m in COMMAND_MODULES) == []
    assert heavy_in(modules) == []


def test_a_command_imports_only_its_own_module(tmp_path: Path) -> None:
    done, modules = imported_by(tmp_path, "replay", "--help")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage: spit-cabinet replay [-h] [--json] file" in done.stdout
    assert sorted(m for m in modules if m in COMMAND_MODULES) == ["cabinet.commands.replay"]


def test_run_headless_in_software_imports_no_menu_tls_or_gpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The display process of ``run`` leaves out what a run that never opens the service
    menu or draws with the GPU does not need: the menu's pages (and the fleet page's TLS),
    ``pygame._sdl2`` and ctypes. Each is made or loaded when first used."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    done, modules = imported_by(
        tmp_path, "run", "--input", "mock", "--seconds", "1", "--lights", "none",
        "--data-dir", str(tmp_path / "data"), "--size", "640x360",
        "--display-backend", "software",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "cabinet.display.service_host" in modules  # the run got that far
    unneeded = ("cabinet.service.menu", "ssl", "pygame._sdl2", "ctypes")
    assert sorted(m for m in unneeded if m in modules) == []
