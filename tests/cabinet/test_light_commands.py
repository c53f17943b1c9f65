"""``spit-cabinet lights test`` against the simulated board, and ``firmware flash``'s plan."""

from __future__ import annotations

import argparse
import ast
import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.commands import firmware, lights
from firmware_bridge.firmware.config import Config
from firmware_bridge.sim import Simulator
from tests.cabinet.cli_input import (
    UNTIMED,
    accepted,
    assert_one_error,
    float_in,
    float_texts,
    refused,
)
from tests.cabinet.test_game_commands import run_cli


def parse(module: object, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="spit-cabinet")
    module.register(parser.add_subparsers(dest="command"))  # type: ignore[attr-defined]
    return parser.parse_args(argv)


@pytest.fixture
def board() -> Iterator[Simulator]:
    with Simulator(Config({"selftest_step_ms": 0})) as sim:
        yield sim


def test_lights_test_cycles_every_light(
    board: Simulator, capsys: pytest.CaptureFixture[str]
) -> None:
    args = parse(lights, ["lights", "test", "--port", board.port, "--step-ms", "1"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "firmware 1.0.0" in out
    assert "p2_pile2" in out and "stuck1" in out
    snapshots = board.inspect(lambda fw: fw.board.snapshots)
    assert isinstance(snapshots, int) and snapshots >= 17  # 15 single lights, blink, off
    assert board.inspect(lambda fw: fw.board.modes) == [0] * 15


def test_lights_test_without_a_board_fails_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = parse(
        lights, ["lights", "test", "--port", str(tmp_path / "none"), "--connect-timeout-s", "0.3"]
    )
    assert args.func(args) == 1
    assert "no light board answered" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "high", "unit"),
    [("--connect-timeout-s", lights.MAX_CONNECT_TIMEOUT_S, "seconds")],
)
@UNTIMED
@given(text=float_texts())
def test_the_connect_timeout_is_finite_and_within_its_limits(
    option: str, high: int, unit: str, text: str
) -> None:
    if float_in(text, 0, high):
        assert accepted("lights", "test", f"{option}={text}").connect_timeout_s == float(text)
    else:
        err = refused("lights", "test", f"{option}={text}")
        assert_one_error(
            err,
            f"spit-cabinet lights test: error: argument {option}: must be a number from 0 to "
            f"{high} {unit}, got ",
        )


@UNTIMED
@given(st.one_of(st.integers(min_value=-(10**40), max_value=10**40).map(str), float_texts()))
def test_the_step_is_whole_milliseconds_within_its_limits(text: str) -> None:
    try:
        whole: int | None = int(text)
    except ValueError:
        whole = None
    if whole is not None and 0 <= whole <= lights.MAX_STEP_MS:
        assert accepted("lights", "test", f"--step-ms={text}").step_ms == whole
    else:
        err = refused("lights", "test", f"--step-ms={text}")
        assert_one_error(err, "spit-cabinet lights test: error: argument --step-ms: ")
        assert f"0 to {lights.MAX_STEP_MS} ms, got " in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--connect-timeout-s", "nan"],  # waited for ever
        ["--connect-timeout-s", "inf"],
        ["--connect-timeout-s=-1"],
        ["--step-ms", str(10**30)],  # slept for an overflowing time
    ],
)
def test_bad_numbers_in_a_real_process_fail_at_once_with_one_line(
    tmp_path: Path, argv: list[str]
) -> None:
    done = run_cli("lights", "test", "--port", str(tmp_path / "none"), *argv)
    assert done.returncode == 2
    assert done.stdout == ""
    assert_one_error(done.stderr, "spit-cabinet lights test: error: argument --")


def test_lights_test_help_gives_the_limits_and_exit_status() -> None:
    done = run_cli("lights", "test", "--help")
    text = " ".join(done.stdout.split())
    assert f"0 to {lights.MAX_STEP_MS} ms" in text
    assert f"0 to {lights.MAX_CONNECT_TIMEOUT_S} s" in text
    assert "Exit status: 0 done; 1 no board answered" in text


def test_flash_stages_only_board_files_and_runs_mpremote_once(tmp_path: Path) -> None:
    calls: list[list[str]] = []
    staged: dict[str, bytes] = {}

    def runner(argv: Sequence[str]) -> int:
        calls.append(list(argv))
        root = Path(argv[argv.index("-r") + 1]).parent
        staged.update(
            {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}
        )
        return 0

    args = parse(
        firmware, ["firmware", "flash", "--port", "/dev/ttyACM0", "--data-dir", str(tmp_path)]
    )
    assert firmware.run(args, runner=runner) == 0
    (argv,) = calls
    assert argv[1:5] == ["-m", "mpremote", "connect", "/dev/ttyACM0"]
    assert argv[-1] == "reset"
    assert set(staged) == {target for _, target in firmware.BOARD_FILES} | {"lights.json"}
    # Nothing on the board imports what only the host has (pyserial, threads, typing).
    for name, data in staged.items():
        if name.endswith(".py"):
            tree = ast.parse(data)
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module:
                    assert node.module.split(".")[0] not in {"serial", "typing", "__future__"}, name


def test_flash_reports_mpremote_failure(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = parse(firmware, ["firmware", "flash", "--data-dir", str(tmp_path)])
    assert firmware.run(args, runner=lambda argv: 1) == 1
    assert "mpremote failed" in capsys.readouterr().err


def test_flash_installs_the_led_type_setting_unless_told_otherwise(tmp_path: Path) -> None:
    from cabinet.storage.setting_table import LED_TYPE
    from cabinet.storage.store import CabinetStore

    store = CabinetStore.open(tmp_path)
    store.settings.set(LED_TYPE, "ws2812")
    store.save_settings()
    store.close()
    drivers: list[str] = []

    def runner(argv: Sequence[str]) -> int:
        staged = Path(argv[argv.index("-r") + 1]).parent / "lights.json"
        drivers.append(json.loads(staged.read_text())["driver"])
        return 0

    for extra in ([], ["--driver", "plain"]):
        args = parse(firmware, ["firmware", "flash", "--data-dir", str(tmp_path), *extra])
        assert firmware.run(args, runner=runner) == 0
    assert drivers == ["ws2812", "plain"]
