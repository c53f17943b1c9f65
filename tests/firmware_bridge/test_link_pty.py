"""The host link against the simulated board over real pseudo-terminals."""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from serial.tools.list_ports_common import ListPortInfo

from firmware_bridge.firmware.config import Config
from firmware_bridge.lights import GREEN, RED, Light, LightState
from firmware_bridge.link import LightLink
from firmware_bridge.session import Timing
from firmware_bridge.sim import Simulator, VirtualClock
from firmware_bridge.transport import SerialOpener, find_board
from tests.firmware_bridge.conftest import WAIT_S

STUCK = LightState.all_off().with_lights(stuck1=Light.on(RED))
MakeLink = Callable[..., LightLink]


def test_handshake_reports_the_board(sim: Simulator, make_link: MakeLink) -> None:
    link = make_link(sim.port)
    assert link.wait_for(lambda h: h.connected, WAIT_S)
    health = link.health()
    assert health.port == sim.port
    assert health.firmware_version == "1.0.0"
    assert health.board is not None and health.board.light_count == 15
    assert health.board.capabilities == frozenset({"pwm"})
    assert health.rtt_ms is not None and health.rtt_ms >= 0
    assert health.errors == 0


def test_player_one_stuck_is_shown_after_the_ack(sim: Simulator, make_link: MakeLink) -> None:
    link = make_link(sim.port)
    assert link.wait_for(lambda h: h.connected, WAIT_S)
    link.show(STUCK)
    assert link.wait_for(lambda h: h.acked == STUCK, WAIT_S)
    # The ACK is sent after the board applied it; the next turn of its loop drives the pins.
    # (How soon is the latency benchmark's to say: a deadline here fails on a busy machine.)
    deadline = time.monotonic() + WAIT_S
    while sim.shown()[0] != (255, 255, 255) and time.monotonic() < deadline:
        pass
    assert sim.shown()[:3] == [(255, 255, 255), (0, 0, 0), (0, 0, 0)]


def test_heartbeats_keep_coming_without_changes(sim: Simulator, make_link: MakeLink) -> None:
    link = make_link(sim.port, timing=Timing(heartbeat_ms=20))
    assert link.wait_for(lambda h: h.acks >= 10, WAIT_S)


def test_pulled_cable_heals_with_the_full_state(
    sim: Simulator, board_path: str, make_link: MakeLink
) -> None:
    link = make_link(board_path)
    link.show(STUCK)
    assert link.wait_for(lambda h: h.acked == STUCK, WAIT_S)
    sim.unplug()
    assert link.wait_for(lambda h: not h.connected, WAIT_S)
    both = STUCK.with_lights(spit=Light.blink(300, GREEN))
    link.show(both)  # the game goes on while the cable is out
    sim.replug()  # a new pty behind the same symlink; the board rebooted blank
    assert link.wait_for(lambda h: h.acked == both, WAIT_S)
    assert sim.inspect(lambda fw: fw.board.modes[:3]) == [1, 0, 2]
    health = link.health()
    assert health.reconnects == 1
    assert health.errors >= 1 and health.last_error is not None


def test_link_lost_pattern_after_one_second_of_silence(board_path: str) -> None:
    clock = VirtualClock(10_000)
    sim = Simulator(Config({"selftest_step_ms": 0}), link_path=board_path, clock_ms=clock)
    sim.start()
    try:
        link = LightLink(board_path, timing=Timing(heartbeat_ms=50)).start()
        link.show(STUCK)
        assert link.wait_for(lambda h: h.acked == STUCK, WAIT_S)
        link.stop()  # the Pi side goes down
        last = sim.inspect(lambda fw: fw.board.last_valid_ms)
        assert last == 10_000
        clock.advance(999)
        assert sim.inspect(lambda fw: fw.board.link_lost(clock())) is False
        clock.advance(1 + 600)  # 1.6 s after the last frame: a quarter into the breath
        deadline = time.monotonic() + WAIT_S
        while sim.shown()[0] == (255, 255, 255) and time.monotonic() < deadline:
            pass
        shown = sim.shown()
        assert len(set(shown)) == 1, "every light shows the same breathing level"
        assert shown[0] != (255, 255, 255)
    finally:
        sim.stop()


@pytest.fixture
def babbling_board(board_path: str) -> Iterator[str]:
    """A pty whose far end answers every read with random bytes, some of them 0x00."""
    master, slave = os.openpty()
    os.symlink(os.ttyname(slave), board_path)
    stop = threading.Event()
    rng = random.Random(7)

    def babble() -> None:
        os.set_blocking(master, False)
        while not stop.wait(0.002):
            try:
                os.read(master, 4096)
            except BlockingIOError:
                pass
            except OSError:
                return
            with contextlib.suppress(OSError):
                os.write(master, rng.randbytes(64))

    thread = threading.Thread(target=babble, daemon=True)
    thread.start()
    yield board_path
    stop.set()
    thread.join(2)
    os.close(master)
    os.close(slave)


def test_a_babbling_board_is_survived(babbling_board: str, make_link: MakeLink) -> None:
    link = make_link(babbling_board)
    assert link.wait_for(lambda h: h.errors >= 3, WAIT_S)
    start = time.monotonic()
    for _ in range(100):
        link.show(STUCK)
    assert time.monotonic() - start < 0.05, "show() must not wait for the board"
    assert not link.health().connected
    assert link.health().last_error is not None


def test_a_missing_board_is_retried_and_never_raises(tmp_path: object, make_link: MakeLink) -> None:
    link = make_link(os.path.join(str(tmp_path), "nothing-here"))
    assert link.wait_for(lambda h: h.errors >= 2, WAIT_S)
    link.show(STUCK)
    health = link.health()
    assert not health.connected
    assert health.last_error is not None and "cannot open" in health.last_error


def test_board_found_by_usb_id(sim: Simulator, make_link: MakeLink) -> None:
    other = ListPortInfo("/dev/ttyUSB9")
    other.vid, other.pid = 0x0403, 0x6001
    pico = ListPortInfo(sim.port)
    pico.vid, pico.pid = 0x2E8A, 0x0005
    ports = [other, pico]
    assert find_board(comports=lambda: ports) == sim.port
    assert find_board(0x1234, 0x5678, comports=lambda: ports) is None
    link = make_link(opener=SerialOpener(comports=lambda: ports))
    assert link.wait_for(lambda h: h.connected, WAIT_S)
    assert link.health().port == sim.port
