"""The whole product as a newcomer meets it: build the wheel, install it into a fresh
virtual environment, and run every command from there (issue 7). Marked slow; CI runs it.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv with the project's wheel installed; yields its bin directory."""
    work = tmp_path_factory.mktemp("wheel")
    wheels = work / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
        check=True,
        timeout=300,
    )
    (wheel,) = wheels.glob("spit_cabinet-*.whl")
    env_dir = work / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / "bin"
    subprocess.run([str(bin_dir / "pip"), "install", "-q", str(wheel)], check=True, timeout=600)
    yield bin_dir


def cabinet(
    bin_dir: Path,
    *args: str,
    timeout: float = 120,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    full_env.update(env or {})
    # Run from a folder without the source tree, so only the installed package is seen.
    return subprocess.run(
        [str(bin_dir / "spit-cabinet"), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd or bin_dir,
        env=full_env,
    )


def test_help_lists_every_command(installed: Path) -> None:
    done = cabinet(installed, "--help")
    assert done.returncode == 0, done.stderr
    for command in (
        "run",
        "simulate",
        "replay",
        "wiring",
        "lights",
        "firmware",
        "doctor",
        "settings",
        "audits",
        "fleet",
    ):
        assert command in done.stdout


def test_the_package_is_the_installed_one(installed: Path) -> None:
    done = subprocess.run(
        [str(installed / "python"), "-c", "import game, cabinet; print(game.__file__)"],
        capture_output=True,
        text=True,
        cwd=installed,
        timeout=60,
    )
    assert "site-packages" in done.stdout


def test_simulate_then_replay_a_record_it_produced(installed: Path, tmp_path: Path) -> None:
    done = cabinet(installed, "simulate", "--games", "20", "--seed", "3", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "wins" in done.stdout
    record = tmp_path / "game-7.json"
    replayed = cabinet(installed, "replay", "--json", str(record))
    assert replayed.returncode == 0, replayed.stderr
    out = json.loads(replayed.stdout)
    assert out["result_matches"] is True and out["finished"] is True


def test_wiring_prints_the_table_and_writes_the_diagram(installed: Path, tmp_path: Path) -> None:
    svg = tmp_path / "wiring.svg"
    done = cabinet(installed, "wiring", "--svg", str(svg))
    assert done.returncode == 0, done.stderr
    assert "GPIO17" in done.stdout
    assert svg.read_text().startswith("<?xml") or "<svg" in svg.read_text()


def test_doctor_with_mock_input(installed: Path, tmp_path: Path) -> None:
    done = cabinet(
        installed,
        "doctor",
        "--input",
        "mock",
        "--data-dir",
        str(tmp_path),
        "--lights",
        str(tmp_path / "no-board"),
    )
    assert "[ok  ] buttons: all 15 controls answered" in done.stdout, done.stdout + done.stderr
    assert "[ok  ] wiring" in done.stdout
    assert done.returncode == 1  # no LED board and a dummy display need attention


def test_lights_test_against_the_simulator(installed: Path, tmp_path: Path) -> None:
    link = tmp_path / "board"
    sim = subprocess.Popen(
        [str(installed / "python"), "-m", "firmware_bridge.sim", "--link", str(link)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=installed,
    )
    try:
        assert sim.stdout is not None
        sim.stdout.readline()  # the simulator prints its port once it is ready
        done = cabinet(installed, "lights", "test", "--port", str(link), "--step-ms", "5")
        assert done.returncode == 0, done.stderr
        assert "firmware 1.0.0" in done.stdout
    finally:
        sim.terminate()
        sim.wait(timeout=10)


def test_a_minute_of_attract_then_a_full_game_headless(installed: Path, tmp_path: Path) -> None:
    # The widest race window (R10): a shared machine's pauses of a few milliseconds are
    # no property of the cabinet, and would make a 2 ms window's edges late. A late edge
    # with 100 ms means the simulated presses are stamped wrong.
    widest = tmp_path / "window.toml"
    widest.write_text("[game]\nrace_window_ms = 100\n")
    imported = cabinet(installed, "settings", "import", "--data-dir", str(tmp_path), str(widest))
    assert imported.returncode == 0, imported.stderr
    done = cabinet(
        installed,
        "run",
        "--input",
        "mock",
        "--lights",
        "none",
        "--autoplay",
        "--autoplay-after",
        "60",
        "--games",
        "1",
        "--seconds",
        "400",
        "--seed",
        "4",
        "--data-dir",
        str(tmp_path),
        timeout=480,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "1 games recorded" in done.stderr
    frames = int(done.stderr.split("stopped after ")[1].split(" frames")[0])
    assert frames > 60 * 50  # a minute of attract alone is 3,600 frames at 60 fps
    # The game is in the books, and its stored record replays to its stored result.
    with contextlib.closing(sqlite3.connect(tmp_path / "cabinet.sqlite3")) as db:
        rows = db.execute("SELECT termination, record FROM games").fetchall()
    assert len(rows) == 1 and rows[0][0] in ("went_out", "blocked")
    record = tmp_path / "game.json"
    record.write_text(rows[0][1])
    replayed = cabinet(installed, "replay", "--json", str(record))
    assert replayed.returncode == 0, replayed.stderr
    out = json.loads(replayed.stdout)
    assert out["result_matches"] is True and out["late_edges"] == 0
    shown = cabinet(installed, "settings", "show", "--data-dir", str(tmp_path))
    assert shown.returncode == 0
