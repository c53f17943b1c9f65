"""A corrupt ``lights.json`` on the simulated board, read at boot as the board reads it: the
board comes up on its defaults, shows the configuration-error pattern and serves the host."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_bridge.firmware.config import Config
from firmware_bridge.lights import RED, Light, LightState
from firmware_bridge.link import LightLink
from firmware_bridge.session import Timing
from firmware_bridge.sim import Simulator, VirtualClock
from tests.firmware_bridge.conftest import WAIT_S

# Light 1: the self test's first frame lights light 0, and must not pass for the host's.
STUCK = LightState.all_off().with_lights(stuck2=Light.on(RED))
FULL, DARK = (255, 255, 255), (0, 0, 0)


def wait_shown(sim: Simulator, wanted: Callable[[list[tuple[int, int, int]]], bool]) -> bool:
    """Whether the board's loop comes to show something ``wanted`` within WAIT_S (it renders
    on its next turn after the clock moves; no sleeping, just looking again)."""
    deadline = time.monotonic() + WAIT_S
    while not wanted(sim.shown()):
        if time.monotonic() > deadline:
            return False
    return True


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{"driver": "laser", "colour": 3}', "unknown configuration key 'colour'"),
        ('{"driver": "pwm", "pins": [2, 3', "is not valid JSON"),
        ('{"pins": "GP2"}', "pins must be a list of whole numbers, got 'GP2'"),
        ('{"driver": "laser"}', "driver must be one of plain, pwm, ws2812; got 'laser'"),
    ],
)
def test_a_corrupt_config_falls_back_and_keeps_serving(
    tmp_path: Path, board_path: str, text: str, error: str
) -> None:
    config = tmp_path / "lights.json"
    config.write_text(text, encoding="utf-8")
    clock = VirtualClock(10_000)
    sim = Simulator(link_path=board_path, clock_ms=clock, config_path=str(config))
    sim.start()
    link = LightLink(board_path, timing=Timing(heartbeat_ms=50)).start()
    try:
        problem = sim.inspect(lambda fw: fw.config_error)
        assert isinstance(problem, str) and error in problem
        assert vars(sim.config) == vars(Config())  # the built-in defaults
        # The host finds the board and its lights follow the host.
        assert link.wait_for(lambda h: h.connected, WAIT_S)
        health = link.health()
        assert health.firmware_version == "1.0.0"
        assert health.board is not None and health.board.light_count == 15
        link.show(STUCK)
        assert link.wait_for(lambda h: h.acked == STUCK, WAIT_S)
        selftest_end = sim.inspect(lambda fw: fw.board.selftest_until_ms)
        assert selftest_end == 10_000 + 15 * 120
        now = clock.advance(2_000)  # past the self test; the heartbeats keep the link alive
        deadline = time.monotonic() + WAIT_S
        while sim.inspect(lambda fw: fw.board.last_valid_ms) != now:
            assert time.monotonic() < deadline, "no heartbeat after the clock moved"
        assert wait_shown(sim, lambda shown: shown[:3] == [DARK, FULL, DARK])
        link.stop()  # the Pi side goes down
        last = sim.inspect(lambda fw: fw.board.last_valid_ms)
        assert isinstance(last, int) and isinstance(selftest_end, int)
        # Link lost, 50 ms into a cycle of the error pattern: every light flashed on.
        target = last + 1_000
        target += (50 - (target - selftest_end)) % 1_200
        clock.advance(target - clock())
        assert wait_shown(sim, lambda shown: shown == [FULL] * 15)
        clock.advance(150)  # 200 ms: the gap between the two flashes
        assert wait_shown(sim, lambda shown: shown == [DARK] * 15)
        clock.advance(150)  # 350 ms: the second flash
        assert wait_shown(sim, lambda shown: shown == [FULL] * 15)
        clock.advance(200)  # 550 ms: dark until the next cycle
        assert wait_shown(sim, lambda shown: shown == [DARK] * 15)
    finally:
        link.stop()
        sim.stop()


def test_the_board_reads_its_config_again_at_every_boot(tmp_path: Path, board_path: str) -> None:
    config = tmp_path / "lights.json"
    config.write_text("[1, 2]", encoding="utf-8")
    with Simulator(link_path=board_path, config_path=str(config)) as sim:
        problem = sim.inspect(lambda fw: fw.config_error)
        assert isinstance(problem, str) and "must hold a JSON object, not a list" in problem
        config.write_text('{"driver": "plain", "pins": [10, 11]}', encoding="utf-8")
        sim.replug()
        assert sim.inspect(lambda fw: fw.config_error) is None
        assert (sim.config.driver, sim.config.pins) == ("plain", [10, 11])
        config.unlink()  # no file at all: the defaults, and no error
        sim.replug()
        assert sim.inspect(lambda fw: fw.config_error) is None
        assert vars(sim.config) == vars(Config())


def test_a_config_or_a_file_not_both(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not both"):
        Simulator(Config(), config_path=str(tmp_path / "lights.json"))
