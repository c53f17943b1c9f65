"""PROTOCOL.md's link liveness and COUNTERS sampling, end to end through the pty simulator:
a bare host written from the document, the firmware's real loop, a virtual clock."""

from __future__ import annotations

import os
import select
import time
from collections.abc import Iterator

import pytest

from firmware_bridge import codec
from firmware_bridge.firmware.config import Config
from firmware_bridge.sim import Simulator, VirtualClock
from tests.firmware_bridge.conftest import WAIT_S


class BareHost:
    """A host that writes frames to the board's port and reads whole frames back."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        self.decoder = codec.FrameDecoder()
        self.pending: list[tuple[int, int, bytes]] = []

    def send(self, data: bytes) -> None:
        assert os.write(self.fd, data) == len(data)

    def receive(self, n: int) -> list[tuple[int, int, bytes]]:
        """The next ``n`` frames from the board (fails after WAIT_S without them)."""
        deadline = time.monotonic() + WAIT_S
        while len(self.pending) < n:
            left = deadline - time.monotonic()
            assert left > 0, f"the board sent {len(self.pending)} of {n} frames"
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                self.pending.extend(self.decoder.feed(os.read(self.fd, 4096)))
        got, self.pending = self.pending[:n], self.pending[n:]
        return got

    def close(self) -> None:
        os.close(self.fd)


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock(5_000)


@pytest.fixture
def board(board_path: str, clock: VirtualClock) -> Iterator[Simulator]:
    sim = Simulator(Config({"selftest_step_ms": 0}), link_path=board_path, clock_ms=clock)
    sim.start()
    yield sim
    sim.stop()


@pytest.fixture
def host(board: Simulator) -> Iterator[BareHost]:
    bare = BareHost(board.port)
    yield bare
    bare.close()


WHITE = codec.pack_snapshot([(codec.MODE_ON, 255, 255, 255, 0)])


def lost(board: Simulator, clock: VirtualClock) -> object:
    return board.inspect(lambda fw: fw.board.link_lost(clock()))


def test_hello_and_get_counters_do_not_end_the_link_lost_pattern(
    board: Simulator, host: BareHost, clock: VirtualClock
) -> None:
    host.send(b"\x00" + codec.encode_frame(codec.HELLO, 1, codec.pack_hello()))
    host.send(codec.encode_frame(codec.GET_COUNTERS, 2))
    assert [f[:2] for f in host.receive(2)] == [(codec.HELLO_REPLY, 1), (codec.COUNTERS, 2)]
    assert lost(board, clock) is True
    host.send(codec.encode_frame(codec.SNAPSHOT, 3, WHITE))
    assert host.receive(1)[0][:2] == (codec.ACK, 3)
    assert lost(board, clock) is False
    # 999 ms later the host says HELLO and asks for counters: answered, but they do not
    # extend the link; 1000 ms after the snapshot the pattern is back.
    clock.advance(999)
    host.send(codec.encode_frame(codec.HELLO, 4, codec.pack_hello()))
    host.send(codec.encode_frame(codec.GET_COUNTERS, 5))
    assert [f[:2] for f in host.receive(2)] == [(codec.HELLO_REPLY, 4), (codec.COUNTERS, 5)]
    assert lost(board, clock) is False
    clock.advance(1)
    assert lost(board, clock) is True
    host.send(codec.encode_frame(codec.SNAPSHOT, 6, WHITE))
    assert host.receive(1)[0][:2] == (codec.ACK, 6)
    assert lost(board, clock) is False


def test_counters_pipelined_in_one_write_count_only_what_came_before(
    board: Simulator, host: BareHost, clock: VirtualClock
) -> None:
    damaged = bytearray(codec.encode_frame(codec.HELLO, 9, codec.pack_hello()))
    damaged[4] ^= 0x40  # a payload byte: COBS still valid, CRC wrong
    host.send(
        b"\x00"
        + codec.encode_frame(codec.GET_COUNTERS, 1)
        + bytes(damaged)
        + codec.encode_frame(0x42, 2)
        + codec.encode_frame(codec.GET_COUNTERS, 3)
    )
    replies = host.receive(3)
    assert [f[:2] for f in replies] == [(codec.COUNTERS, 1), (codec.ERROR, 2), (codec.COUNTERS, 3)]
    assert codec.unpack_counters(replies[0][2]) == (1, 0, 0, 0, 0, 0)
    assert codec.unpack_counters(replies[2][2]) == (3, 1, 0, 0, 1, 0)
