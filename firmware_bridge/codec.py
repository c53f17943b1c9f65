"""The light link's frame codec, shared byte for byte by the host and the board's firmware.

PROTOCOL.md (beside this file) is the specification; this module is its implementation.
A frame is ``type (1 byte) | seq (2 bytes, big-endian) | payload | CRC-16 (2 bytes,
big-endian)``, COBS-encoded and followed by one 0x00 delimiter.

This module is written in the subset of Python that MicroPython runs: no ``__future__``
imports, no ``typing`` at run time, no dataclasses, no ``bytes.hex``-only helpers, no
deletion from bytearrays. Annotations are fine: MicroPython parses and ignores them. It is
copied onto the board as ``firmware_bridge/codec.py`` by ``spit-cabinet firmware flash``.
"""

import struct

#: Version of the byte layout in PROTOCOL.md; bumped on any incompatible change.
PROTOCOL_VERSION = 1

#: Largest decoded frame, in bytes: type + seq + payload + CRC. Bounds the board's buffers.
MAX_FRAME = 128
#: Bytes around the payload: type (1) + seq (2) before it, CRC (2) after it.
HEADER_LEN = 3
CRC_LEN = 2
#: Largest payload, in bytes.
MAX_PAYLOAD = MAX_FRAME - HEADER_LEN - CRC_LEN
#: Largest COBS-encoded frame, in bytes, without its 0x00 delimiter.
MAX_ENCODED = MAX_FRAME + 1 + MAX_FRAME // 254

# Message types. Host to board have the top bit clear; board to host have it set.
HELLO = 0x01
SNAPSHOT = 0x02
GET_COUNTERS = 0x03
HELLO_REPLY = 0x81
ACK = 0x82
COUNTERS = 0x83
ERROR = 0xFF

# Error codes carried by an ERROR frame.
E_UNKNOWN_TYPE = 1
E_BAD_LENGTH = 2
E_BAD_VALUE = 3

# Light modes in a SNAPSHOT record.
MODE_OFF = 0
MODE_ON = 1
MODE_BLINK = 2
MODE_PULSE = 3
#: Shortest blink or pulse period the board accepts, in milliseconds.
MIN_PERIOD_MS = 20

# Capability bits in a HELLO_REPLY.
CAP_PLAIN = 0x01
CAP_PWM = 0x02
CAP_WS2812 = 0x04

#: Most lights a SNAPSHOT can carry (the cabinet names fifteen).
MAX_LIGHTS = 15
#: Bytes per light in a SNAPSHOT: mode, red, green, blue, period (u16).
RECORD_LEN = 6

_SEQ_MASK = 0xFFFF


class CodecError(ValueError):
    """A frame or payload that does not follow PROTOCOL.md."""


class FramingError(CodecError):
    """COBS data that cannot be decoded (a code byte points past the end, or a 0x00 inside)."""


class CrcError(CodecError):
    """A frame whose CRC-16 does not match its contents (it was damaged on the way)."""


class BadLengthError(CodecError):
    """A frame or payload whose length is wrong: too short, too long, or wrong for its type."""


class BadValueError(CodecError):
    """A payload field outside its range, such as an unknown light mode."""


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


#: CRC-16/CCITT-FALSE lookup table (polynomial 0x1021, MSB first).
CRC_TABLE = _crc_table()


def crc16(data: bytes | bytearray | memoryview, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data``: poly 0x1021, init 0xFFFF, no reflection, no final XOR.

    Equal to ``binascii.crc_hqx(data, 0xFFFF)`` on CPython; ``crc16(b"123456789") == 0x29B1``.
    """
    table = CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data: bytes | bytearray) -> bytes:
    """COBS-encode ``data`` (any length): the result holds no 0x00 byte.

    Each block is a code byte ``n`` (1..255) followed by ``n - 1`` non-zero bytes; a block
    with a code below 255 stands for its bytes followed by one 0x00, except the last block.
    """
    out = bytearray(len(data) + len(data) // 254 + 2)
    code_at = 0
    code = 1
    o = 1
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at = o
            o += 1
            code = 1
        else:
            out[o] = byte
            o += 1
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = o
                o += 1
                code = 1
    out[code_at] = code
    return bytes(out[:o])


def cobs_decode(data: bytes | bytearray | memoryview) -> bytes:
    """Decode one COBS block sequence (without its 0x00 delimiter).

    Raises :class:`FramingError` if a code byte is 0x00 or points past the end.
    """
    n = len(data)
    out = bytearray(n)
    o = 0
    i = 0
    while i < n:
        code = data[i]
        if code == 0:
            raise FramingError("COBS data holds a 0x00 byte, which only delimits frames")
        end = i + code
        if end > n:
            raise FramingError("COBS code byte points past the end of the frame (truncated)")
        i += 1
        while i < end:
            byte = data[i]
            if byte == 0:
                raise FramingError("COBS data holds a 0x00 byte, which only delimits frames")
            out[o] = byte
            o += 1
            i += 1
        if code != 0xFF and i < n:
            out[o] = 0
            o += 1
    return bytes(out[:o])


def encode_frame(ftype: int, seq: int, payload: bytes | bytearray = b"") -> bytes:
    """One whole frame on the wire: COBS(type, seq, payload, CRC) followed by 0x00.

    ``seq`` is taken modulo 65536. Raises :class:`BadLengthError` if the payload is longer
    than :data:`MAX_PAYLOAD` bytes, :class:`BadValueError` if ``ftype`` is not a byte.
    """
    if len(payload) > MAX_PAYLOAD:
        raise BadLengthError(
            f"payload of {len(payload)} bytes is longer than the {MAX_PAYLOAD}-byte maximum"
        )
    if not 0 <= ftype <= 0xFF:
        raise BadValueError(f"message type {ftype} is not a byte (0..255)")
    raw = bytearray(HEADER_LEN + len(payload) + CRC_LEN)
    raw[0] = ftype
    seq &= _SEQ_MASK
    raw[1] = seq >> 8
    raw[2] = seq & 0xFF
    end = HEADER_LEN + len(payload)
    raw[HEADER_LEN:end] = payload
    crc = crc16(memoryview(raw)[:end])
    raw[end] = crc >> 8
    raw[end + 1] = crc & 0xFF
    return cobs_encode(raw) + b"\x00"


def decode_frame(encoded: bytes | bytearray | memoryview) -> tuple[int, int, bytes]:
    """Decode one frame's COBS bytes (without the 0x00 delimiter) to ``(type, seq, payload)``.

    Raises :class:`FramingError`, :class:`BadLengthError` (shorter than type + seq + CRC, or
    longer than :data:`MAX_FRAME`) or :class:`CrcError`.
    """
    if len(encoded) > MAX_ENCODED:
        raise BadLengthError(f"frame of {len(encoded)} encoded bytes is too long")
    raw = cobs_decode(encoded)
    n = len(raw)
    if n < HEADER_LEN + CRC_LEN:
        raise BadLengthError(f"frame of {n} bytes is shorter than type, seq and CRC (5)")
    if n > MAX_FRAME:
        raise BadLengthError(f"frame of {n} bytes is longer than the {MAX_FRAME}-byte maximum")
    body = memoryview(raw)[: n - CRC_LEN]
    if crc16(body) != (raw[n - 2] << 8) | raw[n - 1]:
        raise CrcError("frame CRC does not match its contents")
    return raw[0], (raw[1] << 8) | raw[2], raw[HEADER_LEN : n - CRC_LEN]


class FrameDecoder:
    """Splits a byte stream at 0x00 delimiters and decodes each frame, counting what fails.

    Never raises on bad input: damaged frames are counted and dropped, and decoding goes on
    at the next delimiter. Memory is bounded by :data:`MAX_ENCODED` bytes.

    Counters (all ints, since creation): ``frames_ok``, ``crc_errors``, ``bad_lengths``
    (too short, too long after decoding, or broken COBS), ``overruns`` (more than
    :data:`MAX_ENCODED` bytes without a delimiter; the rest up to the next 0x00 is dropped).
    """

    def __init__(self) -> None:
        self._buf = bytearray(MAX_ENCODED)
        self._len = 0
        self._overrun = False
        self.frames_ok = 0
        self.crc_errors = 0
        self.bad_lengths = 0
        self.overruns = 0

    def feed(self, data: bytes | bytearray) -> list[tuple[int, int, bytes]]:
        """Consume ``data``; return the frames it completed, as ``(type, seq, payload)``."""
        frames = []
        buf = self._buf
        for byte in data:
            if byte != 0:
                if self._overrun:
                    continue
                if self._len == MAX_ENCODED:
                    self._overrun = True
                    self.overruns += 1
                    self._len = 0
                    continue
                buf[self._len] = byte
                self._len += 1
                continue
            if self._overrun:
                self._overrun = False
                continue
            n = self._len
            self._len = 0
            if n == 0:
                continue  # repeated delimiters are idle fill, not errors
            try:
                frame = decode_frame(memoryview(buf)[:n])
            except CrcError:
                self.crc_errors += 1
                continue
            except CodecError:
                self.bad_lengths += 1
                continue
            self.frames_ok += 1
            frames.append(frame)
        return frames


# ---- payloads ----------------------------------------------------------------------------


def pack_hello(version: int = PROTOCOL_VERSION) -> bytes:
    """HELLO payload: the host's protocol version (1 byte)."""
    return struct.pack(">B", version)


def unpack_hello(payload: bytes | bytearray) -> int:
    """The host's protocol version from a HELLO payload."""
    if len(payload) != 1:
        raise BadLengthError(f"HELLO payload must be 1 byte, got {len(payload)}")
    return int(payload[0])


def pack_hello_reply(
    firmware_version: tuple[int, int, int], light_count: int, capabilities: int
) -> bytes:
    """HELLO_REPLY payload: protocol version, firmware major/minor/patch, light count,
    capability bits and the largest frame the board accepts, one byte each (7 bytes)."""
    major, minor, patch = firmware_version
    return struct.pack(
        ">BBBBBBB", PROTOCOL_VERSION, major, minor, patch, light_count, capabilities, MAX_FRAME
    )


def unpack_hello_reply(
    payload: bytes | bytearray,
) -> tuple[int, tuple[int, int, int], int, int, int]:
    """``(protocol_version, (major, minor, patch), light_count, capabilities, max_frame)``."""
    if len(payload) != 7:
        raise BadLengthError(f"HELLO_REPLY payload must be 7 bytes, got {len(payload)}")
    v, major, minor, patch, count, caps, max_frame = struct.unpack(">BBBBBBB", payload)
    return v, (major, minor, patch), count, caps, max_frame


def pack_snapshot(records: list[tuple[int, int, int, int, int]]) -> bytes:
    """SNAPSHOT payload: a count byte, then per light ``mode, red, green, blue`` (one byte
    each) and ``period_ms`` (u16 big-endian). Records are in light-index order."""
    if len(records) > MAX_LIGHTS:
        raise BadLengthError(f"a snapshot holds at most {MAX_LIGHTS} lights, got {len(records)}")
    out = bytearray(1 + RECORD_LEN * len(records))
    out[0] = len(records)
    at = 1
    for mode, red, green, blue, period_ms in records:
        _check_record(mode, red, green, blue, period_ms)
        struct.pack_into(">BBBBH", out, at, mode, red, green, blue, period_ms)
        at += RECORD_LEN
    return bytes(out)


def unpack_snapshot(payload: bytes | bytearray) -> list[tuple[int, int, int, int, int]]:
    """The ``(mode, red, green, blue, period_ms)`` records of a SNAPSHOT payload.

    Raises :class:`BadLengthError` if the length is not ``1 + 6 * count`` or the count is
    above :data:`MAX_LIGHTS`, and :class:`BadValueError` for an unknown mode or a blink or
    pulse period below :data:`MIN_PERIOD_MS`.
    """
    if len(payload) < 1:
        raise BadLengthError("SNAPSHOT payload is empty; it needs at least its count byte")
    count = payload[0]
    if count > MAX_LIGHTS or len(payload) != 1 + RECORD_LEN * count:
        raise BadLengthError(
            f"SNAPSHOT of {count} lights must be {1 + RECORD_LEN * count} bytes, got {len(payload)}"
        )
    records = []
    at = 1
    for _ in range(count):
        mode, red, green, blue, period_ms = struct.unpack_from(">BBBBH", payload, at)
        _check_record(mode, red, green, blue, period_ms)
        records.append((mode, red, green, blue, period_ms))
        at += RECORD_LEN
    return records


def _check_record(mode: int, red: int, green: int, blue: int, period_ms: int) -> None:
    if not MODE_OFF <= mode <= MODE_PULSE:
        raise BadValueError(f"light mode {mode} is not off (0), on (1), blink (2) or pulse (3)")
    for channel in (red, green, blue):
        if not 0 <= channel <= 255:
            raise BadValueError(f"colour channel {channel} is outside 0..255")
    if not 0 <= period_ms <= 0xFFFF:
        raise BadValueError(f"period {period_ms} ms is outside 0..65535")
    if mode >= MODE_BLINK and period_ms < MIN_PERIOD_MS:
        raise BadValueError(
            f"blink and pulse need a period of at least {MIN_PERIOD_MS} ms, got {period_ms}"
        )


#: Names of the COUNTERS fields, in wire order (each a u32, big-endian).
COUNTER_FIELDS = (
    "frames_ok",
    "crc_errors",
    "bad_lengths",
    "overruns",
    "unknown_types",
    "uptime_ms",
)


def pack_counters(values: tuple[int, ...]) -> bytes:
    """COUNTERS payload: the :data:`COUNTER_FIELDS`, each a u32 taken modulo 2**32."""
    if len(values) != len(COUNTER_FIELDS):
        raise BadLengthError(f"COUNTERS needs {len(COUNTER_FIELDS)} values, got {len(values)}")
    out = bytearray(4 * len(values))
    for i, value in enumerate(values):
        struct.pack_into(">I", out, 4 * i, value & 0xFFFFFFFF)
    return bytes(out)


def unpack_counters(payload: bytes | bytearray) -> tuple[int, ...]:
    """The :data:`COUNTER_FIELDS` values of a COUNTERS payload."""
    if len(payload) != 4 * len(COUNTER_FIELDS):
        raise BadLengthError(
            f"COUNTERS payload must be {4 * len(COUNTER_FIELDS)} bytes, got {len(payload)}"
        )
    return tuple(struct.unpack(">IIIIII", payload))


def pack_error(code: int, ftype: int) -> bytes:
    """ERROR payload: the error code and the type of the frame that caused it (2 bytes)."""
    return struct.pack(">BB", code, ftype)


def unpack_error(payload: bytes | bytearray) -> tuple[int, int]:
    """``(code, offending_type)`` from an ERROR payload."""
    if len(payload) != 2:
        raise BadLengthError(f"ERROR payload must be 2 bytes, got {len(payload)}")
    return int(payload[0]), int(payload[1])
