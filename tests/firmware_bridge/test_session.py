"""LinkSession, the host's protocol logic, driven with explicit timestamps (no I/O, no clock).

The far end is the firmware's own :class:`Board` logic, so what the session sends is what a
board accepts, and what it receives is what a board answers.
"""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import codec
from firmware_bridge.firmware.board import Board
from firmware_bridge.lights import GREEN, RED, Light, LightState
from firmware_bridge.session import LinkSession, Timing, TimingError
from game.units import MS

OFF = LightState.all_off()
STUCK = OFF.with_lights(stuck1=Light.on(RED))
SPIT = OFF.with_lights(spit=Light.blink(300, GREEN))


def frames(data: bytes) -> list[tuple[int, int, bytes]]:
    """The frames in ``data``; fails on anything that is not a whole, valid frame."""
    decoder = codec.FrameDecoder()
    got = decoder.feed(data)
    assert (decoder.crc_errors, decoder.bad_lengths, decoder.overruns) == (0, 0, 0)
    return got


def make_board() -> Board:
    return Board(15, codec.CAP_PWM, 0, selftest_step_ms=0)


def answer(session: LinkSession, board: Board, data: bytes, at_ns: int) -> None:
    """``data`` reaches the board at ``at_ns``; its replies reach the session then too."""
    session.receive(b"".join(board.feed(data, at_ns // MS)), at_ns)


def ready_session(at_ns: int = 10 * MS, **kwargs: object) -> tuple[LinkSession, Board]:
    """A session that said HELLO at 0 and got the board's reply at ``at_ns``."""
    session = LinkSession(OFF, 0, **kwargs)  # type: ignore[arg-type]
    board = make_board()
    answer(session, board, session.poll(0), at_ns)
    assert session.ready
    return session, board


def reply(ftype: int, seq: int, payload: bytes = b"") -> bytes:
    return codec.encode_frame(ftype, seq, payload)


# ---- handshake -------------------------------------------------------------------------------


def test_hello_follows_a_delimiter_and_is_repeated_until_answered() -> None:
    session = LinkSession(OFF, 0)
    out = session.poll(0)
    assert out[:1] == b"\x00", "a leading 0x00 ends whatever the board half-received"
    assert frames(out) == [(codec.HELLO, 0, codec.pack_hello())]
    assert session.deadline(0) == 250 * MS
    assert session.poll(249 * MS) == b""
    assert frames(session.poll(250 * MS)) == [(codec.HELLO, 1, codec.pack_hello())]
    assert not session.ready
    assert session.snapshots_sent == 0, "no snapshot before the board has answered"


def test_the_reply_to_the_latest_hello_makes_the_session_ready() -> None:
    session = LinkSession(OFF, 0)
    board = make_board()
    first = session.poll(0)
    second = session.poll(250 * MS)
    answer(session, board, first, 260 * MS)  # a late answer to the first HELLO
    assert not session.ready and session.board is None
    answer(session, board, second, 262 * MS)
    assert session.ready
    assert session.board is not None
    assert session.board.firmware == "1.0.0"
    assert session.board.light_count == 15
    assert session.board.capabilities == frozenset({"pwm"})
    assert session.board.max_frame == codec.MAX_FRAME
    assert session.rtt_ns == 12 * MS
    assert session.failure(262 * MS) is None
    assert session.errors == 0


def test_no_hello_reply_within_the_handshake_timeout_drops_the_connection() -> None:
    session = LinkSession(OFF, 5 * MS, Timing(handshake_timeout_ms=600, hello_retry_ms=250))
    session.poll(5 * MS)
    assert session.deadline(5 * MS) == 255 * MS  # the next HELLO comes first
    session.poll(505 * MS)
    assert session.deadline(505 * MS) == 605 * MS  # then giving up
    assert session.failure(604 * MS) is None
    assert session.failure(605 * MS) == "no HELLO reply within 600 ms"


def test_a_board_speaking_another_protocol_is_refused() -> None:
    session = LinkSession(OFF, 0)
    session.poll(0)
    payload = struct.pack(">BBBBBBB", 2, 1, 4, 0, 15, codec.CAP_WS2812, 128)
    session.receive(reply(codec.HELLO_REPLY, 0, payload), 3 * MS)
    assert not session.ready
    assert session.board is not None and session.board.protocol_version == 2
    reason = session.failure(3 * MS)
    assert reason is not None
    assert "board speaks protocol 2, the host speaks 1" in reason and "flash" in reason


# ---- snapshots and heartbeats ----------------------------------------------------------------


def test_the_wanted_state_goes_out_at_once_then_as_a_heartbeat() -> None:
    session = LinkSession(STUCK, 0, Timing(heartbeat_ms=200))
    answer(session, make_board(), session.poll(0), 10 * MS)
    assert frames(session.poll(10 * MS)) == [(codec.SNAPSHOT, 1, STUCK.payload())]
    assert session.poll(10 * MS) == b"", "nothing changed: nothing to send"
    assert session.deadline(10 * MS) == 210 * MS
    assert session.poll(209 * MS) == b""
    assert frames(session.poll(210 * MS)) == [(codec.SNAPSHOT, 2, STUCK.payload())]
    assert session.snapshots_sent == 2


def test_the_heartbeat_counts_from_a_snapshot_sent_at_time_zero() -> None:
    session = LinkSession(STUCK, 0)
    answer(session, make_board(), session.poll(0), 0)
    assert frames(session.poll(0))[0][0] == codec.SNAPSHOT
    assert session.deadline(50 * MS) == 200 * MS


def test_a_change_is_due_at_once_and_the_same_state_again_is_not() -> None:
    session, _ = ready_session()
    session.poll(10 * MS)
    session.show(SPIT)
    assert session.deadline(50 * MS) == 50 * MS
    assert frames(session.poll(50 * MS)) == [(codec.SNAPSHOT, 2, SPIT.payload())]
    session.show(OFF.with_lights(spit=Light.blink(300, GREEN)))  # equal to SPIT
    assert session.deadline(51 * MS) == 250 * MS
    assert session.poll(51 * MS) == b""


def test_ack_gives_the_round_trip_and_the_acknowledged_state() -> None:
    session, board = ready_session()
    session.show(STUCK)
    sent = session.poll(100 * MS)
    assert session.acked is None
    answer(session, board, sent, 103 * MS)
    assert session.rtt_ns == 3 * MS
    assert session.acked == STUCK
    assert session.acks == 1
    assert board.modes[:3] == [codec.MODE_ON, codec.MODE_OFF, codec.MODE_OFF]
    assert session.errors == 0


def test_an_ack_supersedes_every_earlier_snapshot() -> None:
    session, board = ready_session()
    first = session.poll(10 * MS)  # seq 1, all off
    session.show(STUCK)
    second = session.poll(20 * MS)  # seq 2
    answer(session, board, second, 25 * MS)
    assert session.acked == STUCK and session.rtt_ns == 5 * MS
    answer(session, board, first, 26 * MS)  # its ACK arrives late: nothing waits for it
    assert session.acked == STUCK
    assert session.errors == 1
    assert session.last_error == "ACK for unknown sequence number 1"


def test_at_most_32_unanswered_snapshots_are_remembered() -> None:
    session, board = ready_session()
    sent = []
    for i in range(40):
        session.show(OFF.with_lights(stuck2=Light.blink(100 + i)))
        sent.append(session.poll((20 + i) * MS))
    answer(session, board, sent[7], 70 * MS)  # the eighth: forgotten
    assert session.acks == 0
    assert session.last_error == "ACK for unknown sequence number 8"
    answer(session, board, sent[8], 71 * MS)  # the ninth: still remembered
    assert session.acks == 1 and session.rtt_ns == (71 - 28) * MS
    # A board working through a backlog answers what the host forgot: it is not silent.
    answer(session, board, sent[0], 900 * MS)
    assert session.failure(1899 * MS) is None


def test_counters_are_requested_once_and_read() -> None:
    session, board = ready_session()
    session.poll(10 * MS)
    session.request_counters()
    assert session.deadline(20 * MS) == 20 * MS
    out = session.poll(20 * MS)
    assert [ftype for ftype, _, _ in frames(out)] == [codec.GET_COUNTERS]
    assert session.poll(20 * MS) == b""
    answer(session, board, out, 22 * MS)
    assert session.counters is not None
    assert session.counters.frames_ok == 2  # HELLO and GET_COUNTERS reached the board
    assert session.counters.uptime_ms == 22
    assert session.counters.crc_errors == 0


# ---- silence and errors ----------------------------------------------------------------------


def test_a_silent_board_is_dropped_after_the_silence_timeout() -> None:
    session, board = ready_session(10 * MS, timing=Timing(silence_timeout_ms=1000))
    assert session.failure(1009 * MS) is None
    assert session.failure(1010 * MS) == "board silent for 1000 ms"
    answer(session, board, session.poll(500 * MS), 500 * MS)  # an ACK: the board lives
    assert session.failure(1499 * MS) is None
    assert session.failure(1500 * MS) == "board silent for 1000 ms"


def test_the_next_wake_up_is_the_heartbeat_or_the_silence_limit() -> None:
    session, _ = ready_session(10 * MS, timing=Timing(heartbeat_ms=250, silence_timeout_ms=100))
    session.poll(10 * MS)
    assert session.deadline(10 * MS) == 110 * MS  # silence first, then the heartbeat


def test_error_replies_are_counted_with_what_the_board_refused() -> None:
    session, board = ready_session()
    answer(session, board, reply(0x42, 9, b"abc"), 20 * MS)
    assert session.last_error == "board rejected message type 0x42: unknown message type"
    answer(session, board, reply(codec.SNAPSHOT, 10, b"\x02\x01"), 21 * MS)
    assert session.last_error == "board rejected message type 0x02: bad length"
    answer(session, board, reply(codec.SNAPSHOT, 11, b"\x01\x07" + bytes(5)), 22 * MS)
    assert session.last_error == "board rejected message type 0x02: bad value"
    session.receive(reply(codec.ERROR, 12, codec.pack_error(9, 0x03)), 23 * MS)
    assert session.last_error == "board rejected message type 0x03: error 9"
    assert session.errors == 4
    assert session.failure(1022 * MS) is None, "an error reply still shows the board is alive"


def test_unexpected_damaged_and_malformed_replies_are_counted_not_raised() -> None:
    session, _ = ready_session()
    session.receive(reply(0x10, 1), 20 * MS)
    assert session.last_error == "unexpected message type 0x10 from the board"
    damaged = bytearray(reply(codec.ACK, 1))
    damaged[2] ^= 0x01
    session.receive(bytes(damaged) + b"\x05\x05\x00", 21 * MS)
    assert session.last_error == "2 damaged frame(s) from the board"
    session.receive(reply(codec.HELLO_REPLY, 0, b"\x01\x01\x00"), 22 * MS)
    assert session.last_error == (
        "bad reply from the board: HELLO_REPLY payload must be 7 bytes, got 3"
    )
    session.receive(reply(codec.COUNTERS, 3, bytes(5)), 23 * MS)
    assert session.errors == 4
    assert session.counters is None
    assert session.ready


@given(st.binary(max_size=400))
def test_any_bytes_from_the_board_never_raise(data: bytes) -> None:
    session, _ = ready_session()
    session.receive(data, 20 * MS)
    decoder = session.decoder
    if decoder.crc_errors + decoder.bad_lengths + decoder.overruns:
        assert session.errors >= 1 and session.last_error is not None
    # Whatever came, the session still says what to send and when.
    assert session.deadline(20 * MS) >= 20 * MS
    assert frames(session.poll(20 * MS))[0][0] == codec.SNAPSHOT


# ---- sequence numbers ------------------------------------------------------------------------


def test_sequence_numbers_wrap_at_16_bits() -> None:
    session, board = ready_session(first_seq=0xFFFE)
    assert session.board is not None  # the HELLO went out as 0xFFFE and was answered
    first = session.poll(10 * MS)
    session.show(STUCK)
    second = session.poll(20 * MS)
    assert [seq for _, seq, _ in frames(first + second)] == [0xFFFF, 0x0000]
    answer(session, board, second, 22 * MS)
    assert session.acked == STUCK
    answer(session, board, first, 23 * MS)  # 0xFFFF came before 0x0000: superseded
    assert session.last_error == "ACK for unknown sequence number 65535"
    session.show(SPIT)
    assert [seq for _, seq, _ in frames(session.poll(30 * MS))] == [1]


def test_timing_limits_are_explained() -> None:
    with pytest.raises(TimingError, match=r"heartbeat_ms must be 1\.\.250 .* got 251"):
        Timing(heartbeat_ms=251)
    with pytest.raises(TimingError, match=r"heartbeat_ms must be 1\.\.250 .* got 0"):
        Timing(heartbeat_ms=0)
    with pytest.raises(TimingError, match="silence_timeout_ms must be a positive number of ms"):
        Timing(silence_timeout_ms=0)
    assert issubclass(TimingError, ValueError)
