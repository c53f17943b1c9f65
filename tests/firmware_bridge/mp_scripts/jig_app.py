# Runs unchanged under CPython and MicroPython: boots the fairness jig's firmware through
# app.boot (what the board's main() runs) from a jig.json written where the board keeps it,
# on fake hardware and a fake USB serial host, and drives it by command and by its start
# button; prints, as one JSON document, what it said and what its pins did.
import json
import os
import sys

from firmware_bridge.jig.app import boot
from firmware_bridge.jig.fake import FakeMachine, FakeSerial, FakeTime

if sys.implementation.name == "micropython":
    BASE = "/jigtest"
    os.mkdir(BASE)
else:
    import shutil
    import tempfile

    BASE = tempfile.mkdtemp()

SMALL = b'{"offsets_us": [100, 250], "pairs": 2, "gap_ms": 100, "lead_in_ms": 20}'


def start(name, data):
    path = BASE + "/" + name + ".json"
    if data is not None:
        with open(path, "wb") as f:
            f.write(data)
    clock = FakeTime(5000000)
    machine = FakeMachine(clock)
    serial = FakeSerial(clock)
    jig = boot(machine, clock, serial, path)
    return jig, machine, serial, clock


def observed(jig, machine, serial):
    return {
        # Where the files were written differs between the two: BASE says where.
        "said": json.loads(json.dumps(serial.said()).replace(BASE, "BASE")),
        "runs": jig.runs,
        "events": [[t, pin, state] for t, pin, state in machine.events],
        "modes": {str(pin.id): [pin.mode, pin.pull] for pin in machine.pins.values()},
    }


def commands():
    jig, machine, serial, _ = start("commands", SMALL)
    steps = []

    def step(data=None, turns=1):
        if data is not None:
            serial.send(data)
        for _ in range(turns):
            jig.step(serial, serial)
        steps.append(len(serial.said()))

    step(b"status\r\n")
    step(b"report\n")
    step(b"Bogus\n")
    step(b"x" * 100 + b"\n")
    step(turns=3)  # nothing to read: each turn waits its 10 ms
    # Typed twice: one run, and the second start (sent before it ended) is dropped.
    step(b"start\nstart\n")
    step(b"report\n")
    out = observed(jig, machine, serial)
    out["steps"] = steps
    return out


def button():
    jig, machine, serial, clock = start("button", SMALL)
    machine.outside[15] = 0  # held since power-on: not a start (it must be seen up first)
    for _ in range(10):
        jig.step(serial, serial)
    machine.outside[15] = 1
    jig.step(serial, serial)
    machine.outside[15] = 0  # a brush: 3 turns, 30 ms, under START_HOLD_MS
    for _ in range(3):
        jig.step(serial, serial)
    machine.outside[15] = 1
    jig.step(serial, serial)
    pressed_at = clock.now_us
    machine.outside[15] = 0  # held: one run, however long it stays down
    for _ in range(20):
        jig.step(serial, serial)
    machine.outside[15] = 1
    jig.step(serial, serial)
    out = observed(jig, machine, serial)
    out["pressed_at_us"] = pressed_at
    return out


def broken(name, data):
    jig, machine, serial, _ = start(name, data)
    jig.say(jig.status())
    serial.send(b"start\n")
    for _ in range(60):
        jig.step(serial, serial)
    machine.outside[15] = 0
    for _ in range(10):
        jig.step(serial, serial)
    return observed(jig, machine, serial)


def missing():
    jig, machine, serial, _ = start("missing", None)
    turns = [0]

    def running():  # what the board's main() runs, for three turns
        turns[0] += 1
        return turns[0] <= 3

    serial.send(b"status\n")
    jig.serve(serial, serial, running)
    return observed(jig, machine, serial)


print(
    json.dumps(
        {
            "commands": commands(),
            "button": button(),
            "unknown_key": broken("unknown_key", b'{"pairs": 4, "pins": [16, 17]}'),
            "board_pin": broken("board_pin", b'{"line_a_pin": 25}'),
            "short_gap": broken("short_gap", b'{"gap_ms": 60}'),
            "odd_pairs": broken("odd_pairs", b'{"pairs": 3}'),
            "not_json": broken("not_json", b'{"pairs": 4'),
            "missing": missing(),
        }
    )
)

if sys.implementation.name != "micropython":
    shutil.rmtree(BASE)
