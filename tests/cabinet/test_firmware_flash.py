"""``spit-cabinet firmware flash`` checks the light configuration with the firmware's own code
before it copies anything: a bad file gets one line naming it (and the key), exit status 2,
and nothing reaches the board.

Every test goes through ``cabinet.commands.cli.main`` with mpremote replaced (as in
``test_light_commands.py``, the staged ``lights.json`` is read back from its ``-r`` argument):
no board is needed, and a test sees exactly what would have been copied.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from unittest.mock import patch

import pytest

from cabinet.commands import cli, firmware
from firmware_bridge.firmware.config import (
    DEFAULTS,
    MAX_CONFIG_BYTES,
    boot_config,
)

ROOT = Path(__file__).resolve().parents[2]
PROG = "spit-cabinet firmware flash"
NOT_COPIED = "; nothing was copied to the board\n"
KEYS = ", ".join(sorted(DEFAULTS))


@dataclass
class Flash:
    """What one ``spit-cabinet firmware flash`` did."""

    status: int
    out: str
    err: str
    calls: list[list[str]] = field(default_factory=list)
    staged: list[str] = field(default_factory=list)  # each call's lights.json


def flash(config: Path | None, *extra: str) -> Flash:
    """Run ``spit-cabinet firmware flash --config CONFIG EXTRA...`` through the real entry
    point, with mpremote replaced by a recorder."""
    calls: list[list[str]] = []
    staged: list[str] = []

    def fake_mpremote(argv: Sequence[str]) -> int:
        calls.append(list(argv))
        root = Path(argv[argv.index("-r") + 1]).parent
        staged.append((root / "lights.json").read_text(encoding="utf-8"))
        return 0

    argv = ["firmware", "flash", "--port", "/dev/ttyACM0"]
    if config is not None:
        argv += ["--config", str(config)]
    out, err = io.StringIO(), io.StringIO()
    with (
        patch.object(firmware, "call_mpremote", fake_mpremote),
        redirect_stdout(out),
        redirect_stderr(err),
    ):
        status = cli.main([*argv, *extra])
    return Flash(status, out.getvalue(), err.getvalue(), calls, staged)


def assert_refused(result: Flash, message: str) -> None:
    """Exit status 2, nothing copied, and exactly one line on stderr: ``message``'s."""
    assert result.status == firmware.EXIT_NOT_COPIED == 2
    assert result.calls == [], "nothing may be copied"
    assert result.out == ""
    assert result.err == f"{PROG}: error: {message}{NOT_COPIED}"
    assert result.err.count("\n") == 1
    assert "Traceback" not in result.err


def test_the_shipped_config_is_checked_and_copied(tmp_path: Path) -> None:
    result = flash(None, "--data-dir", str(tmp_path))
    assert (result.status, result.err) == (0, "")
    assert len(result.calls) == 1 and result.calls[0][-1] == "reset"
    (staged,) = result.staged
    assert json.loads(staged) == DEFAULTS
    board_file = tmp_path / "lights.json"
    board_file.write_text(staged, encoding="utf-8")
    assert boot_config(str(board_file))[1] is None


def test_the_driver_option_replaces_the_files_driver(tmp_path: Path) -> None:
    config = tmp_path / "mine.json"
    config.write_text('{"driver": "laser", "pins": [10, 11]}', encoding="utf-8")
    result = flash(config, "--driver", "plain")
    assert result.status == 0
    assert json.loads(result.staged[0]) == {"driver": "plain", "pins": [10, 11]}


@pytest.mark.parametrize(
    ("data", "extra", "message"),
    [
        # The tester's three files.
        (b"[1, 2]", ["--driver", "pwm"], "{path} must hold a JSON object, not a list"),
        (b"[" * 100_000, ["--driver", "pwm"], "{path} is larger than 4096 bytes"),
        (
            b'{"driver": "laser", "colour": 3}',
            [],
            "{path}: unknown configuration key 'colour'; the keys are " + KEYS,
        ),
        # More of the same kind.
        (b"[" * 1000 + b"]" * 1000, ["--driver", "pwm"], "{path} nests deeper than 8 levels"),
        (b'{"pins": [[[[[[[[[2]]]]]]]]]}', [], "{path} nests deeper than 8 levels"),
        (
            b'{"driver": "laser"}',
            [],
            "{path}: driver must be one of plain, pwm, ws2812; got 'laser'",
        ),
        (b'{"pins": [2, 40]}', [], "{path}: pins[1] must be a whole number from 0 to 29, got 40"),
        (b'{"active_low": "yes"}', [], "{path}: active_low must be true or false, got 'yes'"),
        (
            b'{"pins": "2,3"}',
            ["--driver", "plain"],
            "{path}: pins must be a list of whole numbers, got '2,3'",
        ),
        (b'"pwm"', ["--driver", "pwm"], "{path} must hold a JSON object, not a string"),
        (b"null", [], "{path} must hold a JSON object, not null"),
        (b"\xff{}", [], "{path} is not UTF-8 text"),
        (b"", [], "{path} is not valid JSON (Expecting value: line 1 column 1 (char 0))"),
        (
            b'{"driver": "pwm",}',
            [],
            "{path} is not valid JSON (Expecting property name enclosed in double quotes: "
            "line 1 column 18 (char 17))",
        ),
        (b"{}" + b" " * MAX_CONFIG_BYTES, [], "{path} is larger than 4096 bytes"),
    ],
)
def test_a_bad_config_gets_one_line_and_nothing_is_copied(
    tmp_path: Path, data: bytes, extra: list[str], message: str
) -> None:
    config = tmp_path / "my-lights.json"
    config.write_bytes(data)
    assert_refused(flash(config, *extra), message.format(path=config))


def test_what_is_copied_stays_within_the_limit(tmp_path: Path) -> None:
    """The copy is rewritten (indented, the driver replaced): it is checked again as written.
    Indented, a long list outgrows the limit, so it goes compact; over the limit even then,
    it is refused."""
    config = tmp_path / "my-lights.json"
    pins = [0] * ((MAX_CONFIG_BYTES - 40) // 2)  # ws2812 takes (and ignores) any pin list
    config.write_text(json.dumps({"driver": "ws2812", "pins": pins}, separators=(",", ":")))
    assert config.stat().st_size <= MAX_CONFIG_BYTES
    result = flash(config)
    assert result.status == 0
    (staged,) = result.staged
    assert len(staged.encode()) <= MAX_CONFIG_BYTES < len(json.dumps(json.loads(staged), indent=2))
    (tmp_path / "lights.json").write_text(staged, encoding="utf-8")
    assert boot_config(str(tmp_path / "lights.json"))[1] is None
    # Just under the limit, without a driver: --driver adds one, over the limit.
    config.write_text(json.dumps({"pins": [0] * 2040}, separators=(",", ":")))
    assert MAX_CONFIG_BYTES - 10 < config.stat().st_size <= MAX_CONFIG_BYTES
    assert_refused(
        flash(config, "--driver", "ws2812"),
        f"{config}, as written for the board, is larger than {MAX_CONFIG_BYTES} bytes",
    )


def test_a_missing_config_file(tmp_path: Path) -> None:
    config = tmp_path / "nowhere.json"
    assert_refused(flash(config), f"no configuration file at {config}")
    assert_refused(flash(tmp_path), f"no configuration file at {tmp_path}")


def test_the_real_command_prints_no_traceback(tmp_path: Path) -> None:
    """The tester's first file through a real process (it stops before mpremote; the port
    does not exist, so even if it did not, no board would be touched)."""
    config = tmp_path / "list.json"
    config.write_text("[1, 2]\n", encoding="utf-8")
    argv = ["firmware", "flash", "--port", str(tmp_path / "no-port"), "--config", str(config)]
    done = subprocess.run(
        [sys.executable, "-m", "cabinet.commands.cli", *argv, "--driver", "pwm"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        f"{PROG}: error: {config} must hold a JSON object, not a list{NOT_COPIED}"
    )


def test_the_exit_statuses_are_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["firmware", "flash", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "exit status: 0 copied; 1 mpremote failed; 2 nothing copied" in help_text
