"""``spit-cabinet wiring``: the table, ``--config`` and ``--svg``, and exit 2 on a bad config."""

from __future__ import annotations

import argparse
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cabinet.commands import cli
from cabinet.commands import wiring as wiring_command
from wiring.config import load_config
from wiring.default import DEFAULT_PIN_MAP
from wiring.diagram import render_svg
from wiring.table import format_table

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str]) -> int:
    """Parse ``argv`` with a ``spit-cabinet`` parser holding this command, as cli.main does,
    and run it."""
    parser = argparse.ArgumentParser(prog="spit-cabinet")
    wiring_command.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status


def test_the_command_is_registered() -> None:
    assert "cabinet.commands.wiring" in cli.COMMAND_MODULES


def test_prints_the_default_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["wiring"]) == 0
    out, err = capsys.readouterr()
    assert out == format_table(DEFAULT_PIN_MAP)
    assert ["slot1", "1", "GPIO17", "11", "brown"] in [line.split() for line in out.splitlines()]
    assert ["door", "switch", "operator", "GPIO20", "38", "white"] in [
        line.split() for line in out.splitlines()
    ]
    assert err == ""


def test_config_overrides_the_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "cabinet.toml"
    config.write_text("[player1]\nslot1 = 4\n[operator]\ncoin1 = false\n", encoding="utf-8")
    assert run(["wiring", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Spit cabinet wiring: default pin map changed by cabinet.toml\n")
    assert ["slot1", "1", "GPIO4", "7", "brown"] in [line.split() for line in out.splitlines()]


def test_svg_writes_the_diagram(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "wiring.svg"
    assert run(["wiring", "--svg", str(target)]) == 0
    written = target.read_text(encoding="utf-8")
    assert written == render_svg(DEFAULT_PIN_MAP)
    assert ET.fromstring(written).tag.endswith("svg")
    assert capsys.readouterr().out.endswith(f"Wrote the wiring diagram to {target}\n")


def test_svg_of_an_override_draws_the_override(tmp_path: Path) -> None:
    config = tmp_path / "mine.toml"
    config.write_text("[operator]\ndoor = false\n", encoding="utf-8")
    target = tmp_path / "mine.svg"
    assert run(["wiring", "--config", str(config), "--svg", str(target)]) == 0
    expected = render_svg(load_config(config), "default pin map changed by mine.toml")
    assert target.read_text(encoding="utf-8") == expected
    assert "not fitted" in expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[player1]\nslot1 = 18\n", "line 2: GPIO18 is used twice: for player 2 slot1"),
        ("[player1]\nslot1 = 14\n", "line 2: GPIO14 for player 1 slot1 is reserved for UART"),
        ("[player1]\nslot1 = \n", "line 2: not valid TOML: Invalid value"),
    ],
)
def test_a_bad_config_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(text, encoding="utf-8")
    assert run(["wiring", "--config", str(config)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"spit-cabinet wiring: error: {config} {message}")
    assert err.count("\n") == 1


def test_a_missing_config_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.toml"
    assert run(["wiring", "--config", str(missing)]) == 2
    err = capsys.readouterr().err
    reason = "cannot read the file: No such file or directory"
    assert err == f"spit-cabinet wiring: error: {missing}: {reason}\n"


def test_an_unwritable_svg_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no-such-dir" / "wiring.svg"
    assert run(["wiring", "--svg", str(target)]) == 2
    err = capsys.readouterr().err
    assert err == f"spit-cabinet wiring: error: cannot write {target}: No such file or directory\n"


def test_no_traceback_in_a_real_process(tmp_path: Path) -> None:
    """Run the command module in a fresh interpreter: a bad config gives status 2 and one
    line on stderr, nothing else."""
    config = tmp_path / "bad.toml"
    config.write_text("[player2]\npile1 = 40\n", encoding="utf-8")
    code = (
        "import argparse, sys\n"
        "from cabinet.commands import wiring\n"
        "parser = argparse.ArgumentParser(prog='spit-cabinet')\n"
        "wiring.register(parser.add_subparsers())\n"
        "args = parser.parse_args(sys.argv[1:])\n"
        "sys.exit(args.func(args))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "wiring", "--config", str(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        f"spit-cabinet wiring: error: {config} line 2: 40 for player 2 pile1 is not a GPIO of "
        "the 40-pin header: give its BCM number, 0 to 27 (the number after 'GPIO' on a pinout "
        "chart); if you meant physical pin 40, that is GPIO21\n"
    )
