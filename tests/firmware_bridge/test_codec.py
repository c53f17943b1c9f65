"""The shared frame codec: CRC, COBS, frames, payloads and the streaming decoder."""

from __future__ import annotations

import binascii
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import codec

PROTOCOL_MD = Path(codec.__file__).with_name("PROTOCOL.md")


def test_crc_matches_the_ccitt_false_check_value_and_crc_hqx() -> None:
    assert codec.crc16(b"123456789") == 0x29B1
    assert codec.crc16(b"") == 0xFFFF


@given(st.binary(max_size=300))
def test_crc_equals_binascii_crc_hqx(data: bytes) -> None:
    assert codec.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


@given(st.binary(max_size=1200))
def test_cobs_round_trips_and_never_holds_zero(data: bytes) -> None:
    encoded = codec.cobs_encode(data)
    assert b"\x00" not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert codec.cobs_decode(encoded) == data


def test_cobs_runs_of_254_and_255_non_zero_bytes() -> None:
    run254 = bytes(range(1, 255))
    assert codec.cobs_encode(run254) == b"\xff" + run254 + b"\x01"
    run255 = bytes(range(1, 256))
    assert codec.cobs_encode(run255) == b"\xff" + run254 + b"\x02\xff"
    for data in (run254, run255, run254 + b"\x00", b"\x00" + run255 + b"\x00" + run254):
        assert codec.cobs_decode(codec.cobs_encode(data)) == data


def test_cobs_empty_and_zeros() -> None:
    assert codec.cobs_encode(b"") == b"\x01"
    assert codec.cobs_encode(b"\x00") == b"\x01\x01"
    assert codec.cobs_decode(b"\x01") == b""


@pytest.mark.parametrize("bad", [b"\x05\x01", b"\x02\x00", b"\x00"])
def test_cobs_rejects_broken_blocks(bad: bytes) -> None:
    with pytest.raises(codec.FramingError):
        codec.cobs_decode(bad)


def test_empty_payload_frame_is_exact() -> None:
    # ACK, seq 0x0102, no payload: raw 82 01 02 + CRC.
    crc = binascii.crc_hqx(b"\x82\x01\x02", 0xFFFF)
    raw = b"\x82\x01\x02" + crc.to_bytes(2, "big")
    assert codec.encode_frame(codec.ACK, 0x0102) == codec.cobs_encode(raw) + b"\x00"
    assert codec.decode_frame(codec.encode_frame(codec.ACK, 0x0102)[:-1]) == (0x82, 0x0102, b"")


def test_maximum_payload_round_trips_and_one_more_byte_is_refused() -> None:
    payload = bytes(range(1, codec.MAX_PAYLOAD + 1))
    frame = codec.encode_frame(codec.SNAPSHOT, 7, payload)
    assert len(frame) - 1 <= codec.MAX_ENCODED
    assert codec.decode_frame(frame[:-1]) == (codec.SNAPSHOT, 7, payload)
    with pytest.raises(codec.BadLengthError, match="longer than"):
        codec.encode_frame(codec.SNAPSHOT, 7, payload + b"\x01")


def test_sequence_wraps_at_16_bits() -> None:
    assert codec.decode_frame(codec.encode_frame(codec.HELLO, 0x1FFFF, b"\x01")[:-1])[1] == 0xFFFF


frames = st.tuples(
    st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=codec.MAX_PAYLOAD)
)


@given(frames)
def test_frames_round_trip(frame: tuple[int, int, bytes]) -> None:
    encoded = codec.encode_frame(*frame)
    assert encoded.endswith(b"\x00") and b"\x00" not in encoded[:-1]
    assert codec.FrameDecoder().feed(encoded) == [frame]


@given(garbage=st.binary(max_size=600), frame=frames)
def test_garbage_then_a_good_frame_decodes(garbage: bytes, frame: tuple[int, int, bytes]) -> None:
    decoder = codec.FrameDecoder()
    decoder.feed(garbage)  # never raises
    # A delimiter ends whatever the garbage left half-done; the next frame is good.
    assert decoder.feed(b"\x00" + codec.encode_frame(*frame)) == [frame]


@given(frame=frames, cut=st.integers(1, 200))
def test_truncated_frame_is_counted_and_the_next_decodes(
    frame: tuple[int, int, bytes], cut: int
) -> None:
    encoded = codec.encode_frame(*frame)
    truncated = encoded[: max(1, min(cut, len(encoded) - 2))]
    decoder = codec.FrameDecoder()
    got = decoder.feed(truncated + b"\x00" + encoded)
    assert got[-1] == frame
    # Each delimited chunk is either a frame or a counted error. (A chunk can pass: when the
    # CRC's low byte is 0x00, dropping it leaves a shorter frame whose CRC holds, the usual
    # 2**-16 chance; payload length checks then reject it, e.g. a SNAPSHOT's 1 + 6n.)
    assert decoder.frames_ok + decoder.crc_errors + decoder.bad_lengths == 2
    assert decoder.frames_ok == len(got)


@given(frame=frames, data=st.data())
def test_bad_crc_is_counted_and_the_next_decodes(
    frame: tuple[int, int, bytes], data: st.DataObject
) -> None:
    raw = bytearray(codec.cobs_decode(codec.encode_frame(*frame)[:-1]))
    at = data.draw(st.integers(0, len(raw) - 1))
    raw[at] ^= data.draw(st.integers(1, 255))
    damaged = codec.cobs_encode(raw) + b"\x00"
    decoder = codec.FrameDecoder()
    assert decoder.feed(damaged + codec.encode_frame(*frame)) == [frame]
    assert (decoder.crc_errors, decoder.bad_lengths, decoder.frames_ok) == (1, 0, 1)


def test_overrun_is_counted_and_the_next_frame_decodes() -> None:
    decoder = codec.FrameDecoder()
    good = codec.encode_frame(codec.HELLO, 1, b"\x01")
    assert decoder.feed(b"\x07" * 1000 + b"\x00" + good) == [(codec.HELLO, 1, b"\x01")]
    assert decoder.overruns == 1
    assert decoder.bad_lengths == 0


def test_snapshot_payload_round_trip_and_checks() -> None:
    records = [(1, 255, 0, 0, 0), (2, 0, 255, 0, 400), (3, 0, 0, 255, 65535)]
    assert codec.unpack_snapshot(codec.pack_snapshot(records)) == records
    with pytest.raises(codec.BadLengthError):
        codec.unpack_snapshot(b"\x02" + bytes(6))
    with pytest.raises(codec.BadValueError, match="mode 4"):
        codec.unpack_snapshot(b"\x01\x04\x00\x00\x00\x00\x00")
    with pytest.raises(codec.BadValueError, match="at least 20 ms"):
        codec.pack_snapshot([(2, 1, 1, 1, 19)])
    with pytest.raises(codec.BadLengthError, match="at most 15"):
        codec.pack_snapshot([(0, 0, 0, 0, 0)] * 16)


def test_protocol_md_examples_are_what_the_codec_sends() -> None:
    """Every ``frame:`` example in PROTOCOL.md decodes, and re-encodes to the same bytes."""
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    examples = re.findall(r"^frame: ([0-9a-f ]+)$", text, flags=re.MULTILINE)
    assert len(examples) >= 6
    for example in examples:
        wire = bytes.fromhex(example)
        assert wire.endswith(b"\x00")
        ((ftype, seq, payload),) = codec.FrameDecoder().feed(wire)
        assert codec.encode_frame(ftype, seq, payload) == wire
