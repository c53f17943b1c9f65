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


def run(name, data):
    path = BASE + "/" + name + ".json"
    if data == "dir":
        os.mkdir(path)
    elif data is not None:
        with open(path, "wb") as f:
            f.write(data)
    obs = {}
    clock = Clock()
    machine, neopixel, upy = StubMachine(), StubNeopixelModule(), StubMicropython()
    neopixel_loads = []

    def load_neopixel():
        neopixel_loads.append(1)
        return neopixel

    fw = boot(machine, upy, clock, load_neopixel, path)
    host = Host()
    error = fw.config_error
    # JSON syntax and OS messages are the interpreter's own; the rest must match word for word.
    if error is not None and " is not valid JSON (" in error:
        error = error[: error.index(" (")]
    if data == "dir":
        error = None if error is None else "unreadable"
    obs["error"] = None if error is None else error.replace(BASE + "/", "")
    obs["driver"] = fw.config.driver
    obs["pins"] = fw.config.pins
    obs["neopixel_loaded"] = len(neopixel_loads)
    obs["kbd_intr"] = upy.kbd_intr_char
    obs["watchdog_ms"] = machine.watchdog.timeout_ms

    def step():
        fw.step(host, host, host, 0)

    def shown():
        if fw.config.driver == "pwm":
            return [machine.pwms[p].duty for p in fw.config.pins]
        return [machine.pins[p].level for p in fw.config.pins]

    step()
    obs["selftest"] = shown()
    end = fw.board.selftest_until_ms
    # After the self test, no host yet: sample the idle pattern through one 1.2 s cycle.
    idle = []
    for t in (0, 100, 200, 350, 500, 800, 1100, 1200, 1300):
        clock.now = end + t
        step()
        idle.append(shown())
    obs["idle"] = idle
    # The serial protocol is served all the same.
    now = end + 2000
    clock.now = now
    host.send(b"\x00" + codec.encode_frame(codec.HELLO, 1, codec.pack_hello()))
    step()
    t, s, p = host.replies[-1]
    obs["hello_reply"] = [t, s, list(codec.unpack_hello_reply(p))]
    records = [(codec.MODE_ON, 255, 0, 0, 0), (codec.MODE_OFF, 0, 0, 0, 0)]
    host.send(codec.encode_frame(codec.SNAPSHOT, 2, codec.pack_snapshot(records)))
    step()
    obs["ack"] = list(host.replies[-1][:2])
    obs["applied"] = shown()
    host.send(codec.encode_frame(codec.GET_COUNTERS, 3))
    clock.now = now + 500
    step()
    t, s, p = host.replies[-1]
    obs["counters"] = [t, s, list(codec.unpack_counters(p))]
    # The host goes quiet: 1 s later the idle pattern is back.
    after = []
    for t in (1500, 1600, 1700):
        clock.now = now + t
        step()
        after.append(shown())
    obs["after_host"] = after
    obs["watchdog_fed"] = machine.watchdog.feeds > 0
    return obs


result = {}
for case_name, case_data in CASES:
    result[case_name] = run(case_name, case_data)
if sys.implementation.name != "micropython":
    shutil.rmtree(BASE)
print(json.dumps(result))
