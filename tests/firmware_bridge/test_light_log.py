"""The simulator's light log: a line per change of the lit lights, what outside checks read
(the virtual Pi's, docs/virtual-pi.md)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from firmware_bridge.lights import GREEN, RED, Light, LightState
from firmware_bridge.link import LightLink
from firmware_bridge.sim.light_log import LightLog, lit_names
from tests.firmware_bridge.conftest import ROOT, WAIT_S

OFF = (0, 0, 0)
ON = (255, 255, 255)


def shown(*lit: int) -> list[tuple[int, int, int]]:
    return [ON if i in lit else OFF for i in range(15)]


def test_lit_names_follow_the_protocol_order() -> None:
    assert lit_names(shown(0, 2)) == ("stuck1", "spit")
    assert lit_names([(0, 0, 1), *shown()[1:]]) == ("stuck1",)  # dim is still on
    assert lit_names(shown()) == ()


def test_a_line_is_written_only_when_the_lit_set_changes() -> None:
    out = io.StringIO()
    log = LightLog(out)
    assert log.sample(shown(), 10)  # the first sample is always written
    assert not log.sample(shown(), 15)
    assert log.sample(shown(1), 20)
    assert not log.sample([(9, 9, 9) if i == 1 else OFF for i in range(15)], 25)
    assert log.sample(shown(1, 2), 30)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines == [
        {"t_ms": 10, "lit": []},
        {"t_ms": 20, "lit": ["stuck2"]},
        {"t_ms": 30, "lit": ["stuck2", "spit"]},
    ]


def wait_for(what: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + WAIT_S
    while not what():
        if time.monotonic() > deadline:
            return False
    return True


def test_the_command_logs_what_a_host_shows_over_the_pty(tmp_path: Path) -> None:
    port, log = tmp_path / "board", tmp_path / "lights.jsonl"
    sim = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.sim", "--link", str(port), "--log", str(log)],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert sim.stdout is not None
        assert sim.stdout.readline().strip()  # the pty: the board is up
        link = LightLink(str(port)).start()
        try:
            state = LightState.all_off().with_lights(stuck1=Light.on(RED), spit=Light.on(GREEN))
            link.show(state)
            assert link.wait_for(lambda h: h.acked == state, WAIT_S)

            def logged() -> list[list[str]]:
                text = log.read_text(encoding="utf-8") if log.exists() else ""
                return [json.loads(line)["lit"] for line in text.splitlines()]

            assert wait_for(lambda: ["stuck1", "spit"] in logged()), logged()
        finally:
            link.stop()
    finally:
        sim.terminate()
        sim.wait(WAIT_S)
