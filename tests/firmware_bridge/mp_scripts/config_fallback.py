# Runs unchanged under CPython and MicroPython: writes configuration files (good, missing and
# corrupt) where the board keeps lights.json, boots the real firmware from each one through
# app.boot (what the board's main() runs) with stub hardware and a scripted host, on a
# virtual clock, and prints what it observed as one JSON document.
import json
import os
import sys

from mp_wire import Clock, Host

from firmware_bridge import codec
from firmware_bridge.firmware.app import boot
from firmware_bridge.sim.hardware import StubMachine, StubMicropython, StubNeopixelModule

if sys.implementation.name == "micropython":
    BASE = "/cfgtest"
    os.mkdir(BASE)
else:
    import shutil
    import tempfile

    BASE = tempfile.mkdtemp()

#: name -> the file's bytes (None: no file at all; "dir": a directory in its place).
CASES = [
    ("missing", None),
    ("good", b'{"driver": "plain", "pins": [10, 11]}'),
    ("bad_json", b'{"driver": "pwm", "pins": [2, 3'),
    ("empty", b""),
    ("wrong_type", b'{"pins": "GP2"}'),
    ("active_low_text", b'{"active_low": "no"}'),
    ("driver_number", b'{"driver": 7}'),
    ("unknown_driver", b'{"driver": "laser"}'),
    ("unknown_key", b'{"driver": "pwm", "colour": [1, 2, 3]}'),
    ("bad_ws2812", b'{"driver": "ws2812", "pixel_count": 99}'),
    ("a_list", b"[1, 2]"),
    ("too_deep", b'{"pins": ' + b"[" * 40 + b"]" * 40 + b"}"),
    ("unclosed_deep", b"[" * 4000),
    ("too_large", b'{"driver": "pwm"}' + b" " * 5000),
    ("not_utf8", b'{"driver": "\xff\xfe"}'),
    ("a_directory", "dir"),
]


class Booted:
    """The firmware booted from the file at ``path`` with stub hardware, a scripted host
    and a virtual clock."""

    def __init__(self, path):
        self.clock = Clock()
        self.machine, neopixel, self.upy = StubMachine(), StubNeopixelModule(), StubMicropython()
        self.neopixel_loads = []

        def load_neopixel():
            self.neopixel_loads.append(1)
            return neopixel

        self.fw = boot(self.machine, self.upy, self.clock, load_neopixel, path)
        self.host = Host()

    def step(self):
        self.fw.step(self.host, self.host, self.host, 0)

    def shown(self):
        config = self.fw.config
        if config.driver == "pwm":
            return [self.machine.pwms[p].duty for p in config.pins]
        return [self.machine.pins[p].level for p in config.pins]

    def shown_at(self, now):
        self.clock.now = now
        self.step()
        return self.shown()


def write_case(name, data):
    path = BASE + "/" + name + ".json"
    if data == "dir":
        os.mkdir(path)
    elif data is not None:
        with open(path, "wb") as f:
            f.write(data)
    return path


def run(name, data):
    booted = Booted(write_case(name, data))
    obs = configured(booted, data)
    booted.step()
    obs["selftest"] = booted.shown()
    end = booted.fw.board.selftest_until_ms
    # After the self test, no host yet: sample the idle pattern through one 1.2 s cycle.
    idle = []
    for t in (0, 100, 200, 350, 500, 800, 1100, 1200, 1300):
        idle.append(booted.shown_at(end + t))
    obs["idle"] = idle
    # The serial protocol is served all the same.
    served(booted, end + 2000, obs)
    obs["watchdog_fed"] = booted.machine.watchdog.feeds > 0
    return obs


def configured(booted, data):
    """What the firmware made of the file (``data``): its error and configuration."""
    fw = booted.fw
    obs = {}
    error = fw.config_error
    # JSON syntax and OS messages are the interpreter's own; the rest must match word for word.
    if error is not None and " is not valid JSON (" in error:
        error = error[: error.index(" (")]
    if data == "dir":
        error = None if error is None else "unreadable"
    obs["error"] = None if error is None else error.replace(BASE + "/", "")
    obs["driver"] = fw.config.driver
    obs["pins"] = fw.config.pins
    obs["neopixel_loaded"] = len(booted.neopixel_loads)
    obs["kbd_intr"] = booted.upy.kbd_intr_char
    obs["watchdog_ms"] = booted.machine.watchdog.timeout_ms
    return obs


def served(booted, now, obs):
    """A host from ``now``: hello, a snapshot, the counters; then it goes quiet."""
    host, clock = booted.host, booted.clock
    clock.now = now
    host.send(b"\x00" + codec.encode_frame(codec.HELLO, 1, codec.pack_hello()))
    booted.step()
    t, s, p = host.replies[-1]
    obs["hello_reply"] = [t, s, list(codec.unpack_hello_reply(p))]
    records = [(codec.MODE_ON, 255, 0, 0, 0), (codec.MODE_OFF, 0, 0, 0, 0)]
    host.send(codec.encode_frame(codec.SNAPSHOT, 2, codec.pack_snapshot(records)))
    booted.step()
    obs["ack"] = list(host.replies[-1][:2])
    obs["applied"] = booted.shown()
    host.send(codec.encode_frame(codec.GET_COUNTERS, 3))
    clock.now = now + 500
    booted.step()
    t, s, p = host.replies[-1]
    obs["counters"] = [t, s, list(codec.unpack_counters(p))]
    # The host goes quiet: 1 s later the idle pattern is back.
    after = []
    for t in (1500, 1600, 1700):
        after.append(booted.shown_at(now + t))
    obs["after_host"] = after


result = {}
for case_name, case_data in CASES:
    result[case_name] = run(case_name, case_data)
if sys.implementation.name != "micropython":
    shutil.rmtree(BASE)
print(json.dumps(result))
