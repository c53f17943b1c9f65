"""``spit-cabinet lights test`` against the simulated board, and ``firmware flash``'s plan."""

from __future__ import annotations

import argparse
import ast
import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from cabinet.commands import firmware, lights
from firmware_bridge.firmware.config import Config
from firmware_bridge.sim import Simulator


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
