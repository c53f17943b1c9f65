# Runs unchanged under CPython and MicroPython; prints one JSON document of codec results,
# which the tests compare byte for byte between the two interpreters.
import json
from binascii import hexlify

from firmware_bridge import codec


def hx(data):
    return hexlify(bytes(data)).decode()


def lcg(seed):
    state = [seed]

    def next_byte():
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 16) & 0xFF

    return next_byte


rand = lcg(4)
out = {}
out["crc_check"] = codec.crc16(b"123456789")
out["cobs"] = [
    hx(codec.cobs_encode(data))
    for data in (
        b"",
        b"\x00",
        b"\x00\x00",
        b"\x11\x22\x00\x33",
        bytes(range(1, 255)),  # a run of 254 non-zero bytes
        bytes(range(1, 256)),  # 255
        bytes(range(1, 256)) + bytes(range(1, 256)),
        b"\x00" + bytes(range(1, 255)) + b"\x00",
    )
]
out["cobs_round_trip"] = [
    codec.cobs_decode(codec.cobs_encode(bytes([rand() for _ in range(n)]))) is not None
    for n in (0, 1, 253, 254, 255, 256, 600)
]
payloads = [
    b"",
    b"\x00",
    bytes(codec.MAX_PAYLOAD),
    bytes([0xFF] * codec.MAX_PAYLOAD),
    bytes([rand() for _ in range(40)]),
    codec.pack_hello(),
    codec.pack_hello_reply((1, 2, 3), 15, codec.CAP_PWM),
    codec.pack_snapshot([(1, 255, 0, 0, 0), (2, 0, 255, 0, 500), (3, 1, 2, 3, 65535)]),
    codec.pack_snapshot([(0, 0, 0, 0, 0)] * codec.MAX_LIGHTS),
    codec.pack_counters((1, 2, 3, 4, 5, 0x1FFFFFFFF)),
    codec.pack_error(codec.E_BAD_LENGTH, 0x02),
]
frames = []
for i, payload in enumerate(payloads):
    frames.append(codec.encode_frame(0x02 + i, 0xFFFF - 3 * i + (i << 12), payload))
out["frames"] = [hx(f) for f in frames]
out["decoded"] = []
for f in frames:
    t, s, p = codec.decode_frame(f[:-1])
    out["decoded"].append([t, s, hx(p)])

# A stream with garbage, a damaged CRC, a truncated frame and an overrun between good frames.
bad_crc = bytearray(frames[4])
bad_crc[3] ^= 0x01
stream = (
    b"\x00\x00"
    + frames[0]
    + bytes([rand() | 1 for _ in range(30)])
    + b"\x00"
    + bytes(bad_crc)
    + frames[1][:4]
    + b"\x00"
    + bytes([0x55] * (codec.MAX_ENCODED + 10))
    + b"\x00"
    + frames[7]
)
whole = codec.FrameDecoder()
got = whole.feed(stream)
bytewise = codec.FrameDecoder()
got2 = []
for i in range(len(stream)):
    got2.extend(bytewise.feed(stream[i : i + 1]))
out["stream"] = [[t, s, hx(p)] for t, s, p in got]
out["stream_same_bytewise"] = [[t, s, hx(p)] for t, s, p in got2] == out["stream"]
out["counters"] = [whole.frames_ok, whole.crc_errors, whole.bad_lengths, whole.overruns]

errors = []
for bad in (b"\x05\x01", b"\x01\x01\x01", b"\x02\x00"):
    try:
        codec.decode_frame(bad)
        errors.append("none")
    except codec.CrcError:
        errors.append("crc")
    except codec.BadLengthError:
        errors.append("length")
    except codec.FramingError:
        errors.append("framing")
out["errors"] = errors
for bad_payload in (b"", b"\x01\x01\x00\x00\x00\x00", b"\x01\x04\x00\x00\x00\x00\x00"):
    try:
        codec.unpack_snapshot(bad_payload)
        errors.append("none")
    except codec.BadLengthError:
        errors.append("length")
    except codec.BadValueError:
        errors.append("value")
print(json.dumps(out))
