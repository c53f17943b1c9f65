"""TOML a careless or hostile operator may hand the cabinet: too deep, too long, or made to
make a scanner backtrack. Every command that reads TOML answers with one line and exit 2,
and changes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cabinet.storage.settings_file import MAX_FILE_CHARS, SettingsFileError, read_text
from wiring.config import MAX_CONFIG_CHARS, parse_config
from wiring.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]


def deep(depth: int) -> str:
    return "x = " + "[" * depth + "]" * depth + "\n"


# A line of "[" and spaces inside a valid multi-line string: the settings file's old line
# finder (a regular expression) took time growing with the cube of its length.
BACKTRACKER = '[cabinet]\nvolume = 30\nnote.a = """\n[' + " " * 20_000 + '\n"""\n'

FILES: dict[str, tuple[str, str]] = {
    # name: (text, what the line says)
    "nested 3,000 deep": (deep(3000), "nested too deep"),
    "too long": ("# " + "x" * MAX_CONFIG_CHARS + "\n", "characters long"),
    "a backtracking trap": (BACKTRACKER, "line 3"),
}

COMMANDS: dict[str, Callable[[Path, Path], list[str]]] = {
    "settings import": lambda f, d: ["settings", "import", str(f), "--data-dir", str(d)],
    "wiring --config": lambda f, d: ["wiring", "--config", str(f)],
    "run --wiring": lambda f, d: ["run", "--wiring", str(f), "--input", "mock", "--seconds",
                                  "0.1", "--lights", "none", "--data-dir", str(d)],
}  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("name", FILES)
def test_one_line_and_exit_2_for_bad_toml(name: str, command: str, tmp_path: Path) -> None:
    text, says = FILES[name]
    if command != "settings import" and name == "a backtracking trap":
        says = "unknown key 'cabinet'"  # a pin map has no [cabinet]: found at once all the same
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    data = tmp_path / "data"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "cabinet", *COMMANDS[command](path, data)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith("ALSA")]
    assert len(lines) == 1 and says in lines[0], done.stderr
    assert len(lines[0]) < 300  # never the whole file back
    if command == "settings import":
        assert not data.exists() or not any(data.glob("*.bad-*"))


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="[]{}=.\"' \nab1,#", max_size=400))
def test_any_text_is_read_or_refused_with_one_line(text: str) -> None:
    for read, error in ((read_text, SettingsFileError), (parse_config, ConfigError)):
        try:
            read(text)
        except error as exc:
            assert "\n" not in str(exc)


def test_the_limits_are_the_documented_ones() -> None:
    assert MAX_FILE_CHARS == MAX_CONFIG_CHARS == 1_000_000
    docs = (ROOT / "docs" / "troubleshooting.md").read_text(encoding="utf-8")
    assert "1,000,000 characters" in docs
