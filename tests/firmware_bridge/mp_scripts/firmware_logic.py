# Runs unchanged under CPython and MicroPython: boots the real firmware with stub hardware
# and a scripted host, on a virtual clock, and prints what it observed as one JSON document.
import json

from mp_wire import Clock, Host

from firmware_bridge import codec
from firmware_bridge.firmware.app import Firmware
from firmware_bridge.firmware.config import Config
from firmware_bridge.sim.hardware import StubMachine, StubMicropython, StubNeopixelModule


class Bench:
    """The firmware for one driver on stub hardware, a scripted host and a virtual clock."""

    def __init__(self, driver):
        self.driver = driver
        self.clock = Clock()
        self.machine, self.neopixel = StubMachine(), StubNeopixelModule()
        self.upy = StubMicropython()
        config = Config({"driver": driver})
        self.fw = Firmware(config, self.machine, self.neopixel, self.upy, self.clock)
        self.host = Host()

    def step(self, n=1):
        for _ in range(n):
            self.fw.step(self.host, self.host, self.host, 0)

    def shown(self):
        if self.driver == "ws2812":
            return [list(c) for c in self.neopixel.chains[0].shown]
        if self.driver == "pwm":
            return [self.machine.pwms[p].duty for p in self.fw.config.pins]
        return [self.machine.pins[p].level for p in self.fw.config.pins]


def run(driver):
    obs = {}
    bench = Bench(driver)
    obs["kbd_intr"] = bench.upy.kbd_intr_char
    obs["watchdog_ms"] = bench.machine.watchdog.timeout_ms
    before_host(bench, obs)
    snapshots(bench, obs)
    link_lost(bench, obs)
    errors_and_counters(bench, obs)
    obs["watchdog_fed"] = bench.machine.watchdog.feeds > 0
    return obs


def before_host(bench, obs):
    # Power-on self test: light 0, then light 1 after one step time.
    bench.step()
    obs["selftest_0"] = bench.shown()
    bench.clock.now = 130
    bench.step()
    obs["selftest_1"] = bench.shown()
    # After the self test, with no host: the link-lost pattern (all alike, breathing).
    bench.clock.now = 3000
    bench.step()
    obs["lost_before_host"] = bench.shown()


def snapshots(bench, obs):
    host = bench.host
    host.send(b"\x00" + codec.encode_frame(codec.HELLO, 1, codec.pack_hello()))
    bench.step()
    t, s, p = host.replies[-1]
    obs["hello_reply"] = [t, s, list(codec.unpack_hello_reply(p))]
    records = [(codec.MODE_ON, 255, 0, 0, 0), (codec.MODE_BLINK, 0, 255, 0, 400)]
    records.append((codec.MODE_PULSE, 0, 0, 255, 1000))
    host.send(codec.encode_frame(codec.SNAPSHOT, 2, codec.pack_snapshot(records)))
    bench.step()
    obs["ack"] = list(host.replies[-1][:2])
    obs["applied"] = bench.shown()
    bench.clock.now = 3200  # blink half period later: off; pulse 200 ms into 1000 ms
    bench.step()
    obs["later"] = bench.shown()
    # The same snapshot again does not restart the blink.
    host.send(codec.encode_frame(codec.SNAPSHOT, 3, codec.pack_snapshot(records)))
    bench.clock.now = 3210
    bench.step()
    obs["same_again"] = bench.shown()


def link_lost(bench, obs):
    # Silence for 1 s after the last valid frame (at 3210 ms): link lost.
    clock = bench.clock
    clock.now = 3210 + 999
    bench.step()
    obs["lost_at_999"] = bench.fw.board.link_lost(clock.now)
    clock.now = 3210 + 1000
    bench.step()
    obs["lost_at_1000"] = bench.fw.board.link_lost(clock.now)
    obs["lost_pattern"] = bench.shown()


def errors_and_counters(bench, obs):
    # Errors: unknown type, bad length, bad value, a damaged frame; then counters.
    host = bench.host
    host.send(codec.encode_frame(0x42, 10, b"abc"))
    host.send(codec.encode_frame(codec.SNAPSHOT, 11, b"\x02\x01"))
    host.send(codec.encode_frame(codec.SNAPSHOT, 12, b"\x01\x07\x00\x00\x00\x00\x00"))
    damaged = bytearray(codec.encode_frame(codec.HELLO, 13, codec.pack_hello()))
    damaged[4] ^= 0x40  # a payload byte: COBS still valid, CRC wrong
    host.send(bytes(damaged))
    host.send(bytes([0x03] * 300) + b"\x00")  # Ctrl-C bytes and an overrun
    host.send(codec.encode_frame(codec.GET_COUNTERS, 14))
    bench.step(3)
    obs["error_replies"] = [
        [t, s, list(codec.unpack_error(p))] for t, s, p in host.replies if t == codec.ERROR
    ]
    t, s, p = host.replies[-1]
    obs["counters"] = [t, s, list(codec.unpack_counters(p))]


def config_errors():
    """The messages a bad configuration file gets on the board."""
    messages = []
    for values in ({"driver": "rgb"}, {"pins": [2, 40]}, {"pins": [4, 5, 4]}, {"pins": 3}):
        try:
            Config(values)
            messages.append(None)
        except ValueError as exc:
            messages.append(str(exc))
    return messages


print(
    json.dumps(
        {
            "pwm": run("pwm"),
            "plain": run("plain"),
            "ws2812": run("ws2812"),
            "config_errors": config_errors(),
        }
    )
)
