"""``LightLink.show()`` writes in the caller's thread, never waits, and never raises.

The board is the simulator on a real pty. Two tests cut a write short or fail it at an
exact moment a real cable cannot be timed to; their transport is the real serial one with
that one write changed, as a full buffer or a pulled cable would change it.
"""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Callable

from firmware_bridge import codec
from firmware_bridge.lights import GREEN, RED, Light, LightState
from firmware_bridge.link import LightLink
from firmware_bridge.sim import Simulator
from firmware_bridge.transport import SerialTransport
from tests.firmware_bridge.conftest import WAIT_S

STUCK = LightState.all_off().with_lights(stuck1=Light.on(RED))
MakeLink = Callable[..., LightLink]


class RecordingTransport(SerialTransport):
    """The real transport, noting which thread wrote each SNAPSHOT and its payload, writes
    the OS took only in part, and writes that began while another was still going on."""

    def __init__(self, port: str) -> None:
        super().__init__(port)
        self.snapshots: list[tuple[int, bytes]] = []
        self.partial_writes = 0
        self.overlaps = 0
        self._writing = threading.Lock()
        #: Set to make the next write raise, as a write to a pulled cable does.
        self.cut = False
        #: Set to a byte count to make the next write take only that much (a full buffer).
        self.take: int | None = None

    def write(self, data: bytes) -> int:
        if self.cut:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        if self.take is not None:
            data, self.take = data[: self.take], None
        if not self._writing.acquire(blocking=False):
            self.overlaps += 1
            self._writing.acquire()
        try:
            sent = super().write(data)  # releases the GIL: another writer could run now
        finally:
            self._writing.release()
        self.partial_writes += 0 < sent < len(data)
        for ftype, _, payload in codec.FrameDecoder().feed(data):
            if ftype == codec.SNAPSHOT:
                self.snapshots.append((threading.get_ident(), payload))
        return sent


def recording(port: str, opened: list[RecordingTransport]) -> Callable[[], RecordingTransport]:
    def opener() -> RecordingTransport:
        opened.append(RecordingTransport(port))
        return opened[-1]

    return opener


def states(count: int, salt: int = 0) -> list[LightState]:
    """``count`` different states."""
    return [
        LightState.all_off().with_lights(stuck2=Light.blink(100 + salt * 1000 + i, GREEN))
        for i in range(count)
    ]


def test_a_change_is_written_by_the_caller_before_show_returns(
    sim: Simulator, make_link: MakeLink
) -> None:
    opened: list[RecordingTransport] = []
    link = make_link(opener=recording(sim.port, opened))
    assert link.wait_for(lambda h: h.connected and h.acks >= 1, WAIT_S)
    me = threading.get_ident()
    link.show(STUCK)
    mine = [payload for thread, payload in opened[-1].snapshots if thread == me]
    assert mine == [STUCK.payload()]
    link.show(STUCK)  # the same state again: the heartbeat carries it, show() writes nothing
    assert [p for t, p in opened[-1].snapshots if t == me] == [STUCK.payload()]
    assert link.wait_for(lambda h: h.acked == STUCK, WAIT_S)


def test_shows_from_many_threads_never_interleave_frames(
    sim: Simulator, make_link: MakeLink
) -> None:
    opened: list[RecordingTransport] = []
    link = make_link(opener=recording(sim.port, opened))
    assert link.wait_for(lambda h: h.connected, WAIT_S)

    def game(salt: int) -> None:
        for state in states(150, salt):
            link.show(state)

    threads = [threading.Thread(target=game, args=(salt,)) for salt in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert not any(thread.is_alive() for thread in threads)
    link.show(STUCK)
    assert link.wait_for(lambda h: h.acked == STUCK, WAIT_S)
    transport = opened[-1]
    assert transport.overlaps == 0
    # The board is flooded (600 frames at once) and the pty fills: some writes are dropped
    # and a few cut short. Only a cut write may leave a damaged frame; interleaved frames
    # would leave many more.
    damaged = sim.inspect(
        lambda fw: (
            fw.board.decoder.crc_errors + fw.board.decoder.bad_lengths + fw.board.decoder.overruns
        )
    )
    assert isinstance(damaged, int) and damaged <= transport.partial_writes


def test_a_full_buffer_drops_writes_and_the_heartbeat_repairs(
    sim: Simulator, make_link: MakeLink
) -> None:
    link = make_link(sim.port)
    assert link.wait_for(lambda h: h.connected, WAIT_S)
    wanted = states(1)[0]

    def fill_while_the_board_is_stalled(_: object) -> None:
        # The board's loop waits for this to return: nothing reads the pty meanwhile.
        def game() -> None:
            for state in states(5000, 1):
                link.show(state)
                if link.health().dropped_writes:
                    break
            link.show(wanted)

        thread = threading.Thread(target=game)
        thread.start()
        thread.join(10)
        assert not thread.is_alive(), "show() waited for a board that does not read"

    sim.inspect(fill_while_the_board_is_stalled)
    assert link.health().dropped_writes >= 1
    assert link.wait_for(lambda h: h.acked == wanted, WAIT_S)
    assert sim.inspect(lambda fw: fw.board.periods[1]) == 100


def test_a_frame_cut_short_is_ended_before_the_next(sim: Simulator, make_link: MakeLink) -> None:
    opened: list[RecordingTransport] = []
    link = make_link(opener=recording(sim.port, opened))
    assert link.wait_for(lambda h: h.connected and h.acks >= 1, WAIT_S)
    first, second = states(2)
    opened[-1].take = 10  # the OS takes only the first 10 bytes of the next write
    link.show(first)
    assert link.health().dropped_writes == 1
    link.show(second)  # starts with 0x00: the board drops the broken frame, not this one
    assert link.wait_for(lambda h: h.acked == second, WAIT_S)
    damaged = sim.inspect(lambda fw: fw.board.decoder.crc_errors + fw.board.decoder.bad_lengths)
    assert damaged == 1


def test_a_failed_write_drops_the_connection_and_never_raises(
    sim: Simulator, make_link: MakeLink
) -> None:
    opened: list[RecordingTransport] = []
    link = make_link(opener=recording(sim.port, opened))
    assert link.wait_for(lambda h: h.connected, WAIT_S)
    opened[-1].cut = True
    link.show(STUCK)  # the game's call returns; the supervisor drops the connection
    assert link.wait_for(lambda h: len(opened) >= 2 and h.acked == STUCK, WAIT_S)
    health = link.health()
    assert health.reconnects == 1
    assert health.errors >= 1
    assert health.last_error is not None and "write failed: OSError" in health.last_error
