# Runs unchanged under CPython and MicroPython: the firmware's answers to the questions
# PROTOCOL.md must settle exactly (what ends the link-lost pattern, when COUNTERS are taken,
# which error wins, SNAPSHOT counts of 16 and more, how levels reach each driver), observed
# through the real Firmware with stub hardware on a virtual clock, printed as one JSON document.
import json
import struct

from mp_wire import Clock, Host

from firmware_bridge import codec
from firmware_bridge.firmware.app import Firmware
from firmware_bridge.firmware.board import wave
from firmware_bridge.firmware.config import Config
from firmware_bridge.firmware.outputs import PixelOutput, PlainOutput, PwmOutput
from firmware_bridge.sim.hardware import StubMachine, StubMicropython, StubNeopixelModule


class Rig:
    """A powered-up board with stub hardware, a virtual clock and a host."""

    def __init__(self, values):
        self.clock = Clock()
        self.machine = StubMachine()
        self.neopixel = StubNeopixelModule()
        self.config = Config(values)
        self.fw = Firmware(self.config, self.machine, self.neopixel, StubMicropython(), self.clock)
        self.host = Host()

    def step(self):
        self.fw.step(self.host, self.host, self.host, 0)

    def at(self, t, data=b""):
        """At ``t`` ms the host's ``data`` (if any) arrives and the board takes a turn; the
        replies it sent in that turn, as [type, seq, payload bytes as a list]."""
        self.clock.now = t
        before = len(self.host.replies)
        self.host.send(data)
        self.step()
        return [[f, s, list(p)] for f, s, p in self.host.replies[before:]]

    def light0(self):
        """What the hardware of light 0 shows: a pin level, a PWM duty or a pixel colour."""
        driver = self.config.driver
        if driver == "ws2812":
            return list(self.neopixel.chains[0].shown[0])
        if driver == "pwm":
            return self.machine.pwms[self.config.pins[0]].duty
        return self.machine.pins[self.config.pins[0]].level


def frame(ftype, seq, payload=b""):
    return codec.encode_frame(ftype, seq, payload)


def raw_frame(ftype, seq, payload):
    """A frame encoded without the codec's length check (for frames too long to send)."""
    body = bytes([ftype, seq >> 8, seq & 0xFF]) + bytes(payload)
    crc = codec.crc16(body)
    return codec.cobs_encode(body + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


def snapshot_payload(count, records):
    """A SNAPSHOT payload with any count byte and any records (no range checks)."""
    out = bytes([count])
    for mode, red, green, blue, period_ms in records:
        out += struct.pack(">BBBBH", mode, red, green, blue, period_ms)
    return out


ON_WHITE = (codec.MODE_ON, 255, 255, 255, 0)
HELLO = codec.pack_hello()
#: Light 0 blinking green: what each board shows before the frame under test arrives.
BLINKING = snapshot_payload(1, [(codec.MODE_BLINK, 0, 255, 0, 400)])


def liveness():
    """Which frames end the link-lost pattern and keep the link alive: [t, what the host
    sent, the replies (see describe), link lost?, light 0's PWM duty]."""
    rig = Rig({"selftest_step_ms": 0})
    on = snapshot_payload(1, [ON_WHITE])
    script = [
        (0, "nothing", b""),
        (100, "HELLO", frame(codec.HELLO, 1, HELLO)),
        (200, "GET_COUNTERS", frame(codec.GET_COUNTERS, 2)),
        (300, "bad value", frame(codec.SNAPSHOT, 3, snapshot_payload(1, [(4, 9, 9, 9, 0)]))),
        (350, "unknown type", frame(0x42, 4)),
        (400, "SNAPSHOT", frame(codec.SNAPSHOT, 5, on)),
        (900, "HELLO", frame(codec.HELLO, 6, HELLO)),
        (1300, "GET_COUNTERS", frame(codec.GET_COUNTERS, 7)),
        (1399, "nothing", b""),
        (1400, "nothing", b""),
        (1500, "SNAPSHOT", frame(codec.SNAPSHOT, 8, on)),
    ]
    rows = []
    for t, what, data in script:
        replies = [describe(f, p) for f, s, p in rig.at(t, data)]
        rows.append([t, what, replies, rig.fw.board.link_lost(t), rig.light0()])
    return rows


def pipelined_stream():
    """GET_COUNTERS pipelined with good, damaged and refused frames, and an overrun."""
    damaged = bytearray(frame(codec.HELLO, 90, HELLO))
    damaged[4] ^= 0x40  # a payload byte: COBS still valid, CRC wrong
    return (
        frame(codec.SNAPSHOT, 1, snapshot_payload(1, [ON_WHITE]))
        + frame(codec.GET_COUNTERS, 2)
        + bytes(damaged)
        + frame(0x42, 3)
        + frame(codec.SNAPSHOT, 4, b"\x02\x01")
        + b"\x00\x00"
        + frame(codec.GET_COUNTERS, 5)
        + bytes([0x03] * 300)
        + b"\x00"
        + frame(codec.GET_COUNTERS, 6)
    )


def counters_replies(rig):
    return [
        [s, list(codec.unpack_counters(bytes(p)))]
        for f, s, p in rig.host.replies
        if f == codec.COUNTERS
    ]


def counters():
    """COUNTERS for the pipelined stream read in one turn of the board's loop, and read one
    byte per turn; and a fresh board's answer to a GET_COUNTERS as its first frame."""
    stream = pipelined_stream()
    whole = Rig({"selftest_step_ms": 0})
    whole.at(777, stream)
    by_byte = Rig({"selftest_step_ms": 0})
    by_byte.clock.now = 777
    by_byte.host.send(stream)
    by_byte.host.limit = 0
    turns = 0
    while by_byte.host.at < len(stream):
        by_byte.host.limit = by_byte.host.at + 1
        by_byte.step()
        turns += 1
    first = Rig({"selftest_step_ms": 0})
    first.at(50, frame(codec.GET_COUNTERS, 1))
    return {
        "stream_bytes": len(stream),
        "one_read": counters_replies(whole),
        "one_read_reply_types": [f for f, s, p in whole.host.replies],
        "byte_reads": turns,
        "by_byte": counters_replies(by_byte),
        "first_frame": counters_replies(first),
    }


#: name -> (type, payload) of frames wrong in more than one way, or nearly so.
PRECEDENCE = [
    ("length_and_value", codec.SNAPSHOT, snapshot_payload(1, [(7, 1, 1, 1, 0)])[:-1]),
    ("count_2_one_bad_record", codec.SNAPSHOT, snapshot_payload(2, [(9, 1, 1, 1, 0)])),
    ("count_16_bad_period", codec.SNAPSHOT, snapshot_payload(16, [(2, 1, 1, 1, 5)] * 16)),
    ("empty_snapshot", codec.SNAPSHOT, b""),
    ("unknown_type_empty", 0x42, b""),
    ("unknown_type_long", 0x04, b"\x07" * 40),
    ("board_type_to_board", codec.HELLO_REPLY, b"\x01" * 7),
    ("hello_empty", codec.HELLO, b""),
    ("hello_two_bytes", codec.HELLO, b"\x01\x01"),
    ("hello_version_9", codec.HELLO, b"\x09"),
    ("counters_with_payload", codec.GET_COUNTERS, b"\x00"),
    ("mode_4", codec.SNAPSHOT, snapshot_payload(1, [(4, 1, 1, 1, 0)])),
    ("blink_period_19", codec.SNAPSHOT, snapshot_payload(1, [(2, 1, 1, 1, 19)])),
    ("pulse_period_0", codec.SNAPSHOT, snapshot_payload(1, [(3, 1, 1, 1, 0)])),
    ("on_with_period", codec.SNAPSHOT, snapshot_payload(1, [(1, 255, 255, 255, 500)])),
]


def describe(ftype, payload):
    """A reply as [type], or an ERROR as ["ERROR", code, rejected type]."""
    if ftype != codec.ERROR:
        return [ftype]
    code, rejected = codec.unpack_error(bytes(payload))
    return ["ERROR", code, rejected]


def precedence():
    """Each frame alone on a fresh board, in PRECEDENCE order: its reply (see describe), the
    first five counters after it, and light 0's mode (2 before it)."""
    out = []
    for name, ftype, payload in PRECEDENCE:
        rig = Rig({"selftest_step_ms": 0})
        rig.at(0, frame(codec.HELLO, 1, HELLO) + frame(codec.SNAPSHOT, 2, BLINKING))
        ((rtype, seq, rpayload),) = rig.at(10, frame(ftype, 3, payload))
        ((_, _, cpayload),) = rig.at(20, frame(codec.GET_COUNTERS, 4))
        out.append(
            {
                "name": name,
                "reply": describe(rtype, rpayload),
                "seq": seq,
                "counters": list(codec.unpack_counters(bytes(cpayload)))[:5],
                "mode0": rig.fw.board.modes[0],
            }
        )
    return out


def big_counts():
    """SNAPSHOTs of ``count`` red lights with exactly 1 + 6 x count payload bytes, each sent
    to a fresh 15-light board (and count 15 to a 2-light one): the replies, the counters
    (bad_lengths, overruns), what light 0 shows."""
    out = {}
    for count in (15, 16, 17, 18, 19, 20, 21):
        payload = snapshot_payload(count, [(codec.MODE_ON, 255, 0, 0, 0)] * count)
        rig = Rig({"selftest_step_ms": 0})
        rig.at(0, frame(codec.HELLO, 1, HELLO) + frame(codec.SNAPSHOT, 2, BLINKING))
        replies = rig.at(10, raw_frame(codec.SNAPSHOT, 3, payload))
        ((_, _, cpayload),) = rig.at(20, frame(codec.GET_COUNTERS, 4))
        c = codec.unpack_counters(bytes(cpayload))
        out[str(count)] = {
            "payload_bytes": len(payload),
            "replies": [describe(f, p) for f, s, p in replies],
            "bad_lengths": c[2],
            "overruns": c[3],
            "mode0": rig.fw.board.modes[0],
        }
    small = Rig({"driver": "plain", "pins": [10, 11], "selftest_step_ms": 0})
    payload = snapshot_payload(15, [(codec.MODE_ON, 255, 0, 0, 0)] * 15)
    replies = small.at(0, frame(codec.SNAPSHOT, 1, payload))
    out["15_on_2_lights"] = {"replies": [r[0] for r in replies], "shown": small.light0()}
    return out


#: Times (ms after the snapshot) at which the pulse and blink examples are sampled.
PULSE_TIMES = (0, 11, 12, 24, 25, 125, 250, 375, 500, 625, 750, 875, 1000)
#: Times (ms after power-on, the 1.8 s self test included) of the link-lost samples.
LOST_TIMES = (1800, 2100, 2400, 2700, 3000, 3300, 3600, 3900, 4200)
T0 = 5000
PULSE = (codec.MODE_PULSE, 200, 100, 0, 1000)
BLINK = (codec.MODE_BLINK, 0, 0, 255, 25)

DRIVERS = {
    "ws2812": {"driver": "ws2812"},
    "pwm": {"driver": "pwm"},
    "plain": {"driver": "plain"},
    "pwm_active_low": {"driver": "pwm", "active_low": True},
    "plain_active_low": {"driver": "plain", "active_low": True},
}


def light(rig, i):
    driver = rig.config.driver
    if driver == "ws2812":
        return list(rig.neopixel.chains[0].shown[i])
    if driver == "pwm":
        return rig.machine.pwms[rig.config.pins[i]].duty
    return rig.machine.pins[rig.config.pins[i]].level


def rgb_examples():
    """Per driver: the link-lost pattern at LOST_TIMES after power-on (the colour the logic
    wants, and what light 0's hardware shows), then a pulse (light 0) and a blink (light 1)
    from a snapshot at T0, sampled at T0 + PULSE_TIMES (the same snapshot again at T0 + 500
    as a heartbeat)."""
    out = {}
    payload = codec.pack_snapshot([PULSE, BLINK])
    for name, values in DRIVERS.items():
        rig = Rig(values)
        lost = []
        for t in LOST_TIMES:
            rig.at(t)
            level = wave(t, rig.config.link_lost_period_ms)
            lost.append([t, level, list(rig.fw.shown[0]), light(rig, 0)])
        rig.at(T0, frame(codec.HELLO, 1, HELLO) + frame(codec.SNAPSHOT, 2, payload))
        timed = []
        for t in PULSE_TIMES:
            data = frame(codec.SNAPSHOT, 3, payload) if t == 500 else b""
            rig.at(T0 + t, data)
            shown = rig.fw.shown
            level = wave(t, PULSE[4])
            timed.append([t, level, list(shown[0]), light(rig, 0), list(shown[1]), light(rig, 1)])
        out[name] = {"lost": lost, "timed": timed}
    return out


def formulas():
    """The pulse level at every ms of some periods, the blink state at every ms of odd and
    even periods, and what each output makes of every brightness 0..255."""
    levels = {}
    for period in (20, 21, 1000, 2400):
        levels[str(period)] = [wave(t, period) for t in range(period)]
    blinks = {}
    for period in (20, 21, 25):
        rig = Rig({"selftest_step_ms": 0})
        rig.at(0, frame(codec.SNAPSHOT, 1, codec.pack_snapshot([(2, 255, 255, 255, period)])))
        states = []
        for t in range(2 * period):
            rig.at(t)
            states.append(1 if rig.fw.shown[0] != (0, 0, 0) else 0)
        blinks[str(period)] = states
    outputs = {}
    colours = [(b // 3, b, b // 2) for b in range(256)] + [(b, 0, 0) for b in range(256)]
    colours += [(0, 0, b) for b in range(256)]
    for name, values in DRIVERS.items():
        machine, neopixel = StubMachine(), StubNeopixelModule()
        if values["driver"] == "ws2812":
            output = PixelOutput(machine, neopixel, 22, 1)
        elif values["driver"] == "pwm":
            output = PwmOutput(machine, [2], 1000, "active_low" in values)
        else:
            output = PlainOutput(machine, [2], "active_low" in values)
        seen = []
        for colour in colours:
            output.show([colour])
            if values["driver"] == "ws2812":
                seen.append(list(neopixel.chains[0].shown[0]))
            elif values["driver"] == "pwm":
                seen.append(machine.pwms[2].duty)
            else:
                seen.append(machine.pins[2].level)
        outputs[name] = seen
    return {
        "levels": levels,
        "blinks": blinks,
        "colours": [list(c) for c in colours],
        "outputs": outputs,
    }


print(
    json.dumps(
        {
            "liveness": liveness(),
            "counters": counters(),
            "precedence": precedence(),
            "big_counts": big_counts(),
            "rgb": rgb_examples(),
            "formulas": formulas(),
        }
    )
)
