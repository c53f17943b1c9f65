"""Light link benchmark: codec cost, snapshot→ACK round trip through the pty simulator, and
game event → snapshot written. Prints one JSON document.

    python bench/lights.py [--round-trips 2000] [--events 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import serial

from firmware_bridge import codec
from firmware_bridge.firmware.config import Config
from firmware_bridge.lights import RED, Light, LightState
from firmware_bridge.link import LightLink
from firmware_bridge.sim import Simulator
from firmware_bridge.transport import SerialTransport


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def codec_cost(n: int) -> dict[str, float]:
    state = LightState(tuple(Light.blink(400 + i, RED) for i in range(15)))
    payload = state.payload()
    start = time.perf_counter_ns()
    for seq in range(n):
        frame = codec.encode_frame(codec.SNAPSHOT, seq, payload)
    encode_us = (time.perf_counter_ns() - start) / n / 1000
    decoder = codec.FrameDecoder()
    start = time.perf_counter_ns()
    for _ in range(n):
        decoder.feed(frame)
    decode_us = (time.perf_counter_ns() - start) / n / 1000
    return {"frame_bytes": len(frame), "encode_us": encode_us, "decode_us": decode_us}


def round_trip(n: int) -> dict[str, float]:
    with Simulator(Config({"selftest_step_ms": 0})) as sim:
        port = serial.Serial(sim.port, timeout=1)
        payload = LightState.all_off().with_lights(stuck1=Light.on(RED)).payload()
        decoder = codec.FrameDecoder()
        samples = []
        for seq in range(n):
            start = time.perf_counter_ns()
            port.write(codec.encode_frame(codec.SNAPSHOT, seq, payload))
            got: list[tuple[int, int, bytes]] = []
            while not got:
                got = decoder.feed(port.read(max(1, port.in_waiting)))
            samples.append((time.perf_counter_ns() - start) / 1e6)
            assert got[0][:2] == (codec.ACK, seq & 0xFFFF)
        port.close()
    return {"n": n, "p50_ms": pct(samples, 0.5), "p99_ms": pct(samples, 0.99),
            "max_ms": max(samples)}  # fmt: skip


class TimedTransport(SerialTransport):
    """Records when each SNAPSHOT frame leaves, and which state it carried."""

    def __init__(self, port: str) -> None:
        super().__init__(port)
        self.written: list[tuple[int, bytes]] = []
        self.event = threading.Event()

    def write(self, data: bytes) -> None:
        super().write(data)
        now = time.perf_counter_ns()
        for ftype, _, payload in codec.FrameDecoder().feed(data):
            if ftype == codec.SNAPSHOT:
                self.written.append((now, payload))
                self.event.set()


def event_to_write(n: int) -> dict[str, float]:
    """The board runs in its own process here, as a real board runs on its own chip."""
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "config.json")
        Path(config).write_text(json.dumps({"selftest_step_ms": 0}))
        sim = subprocess.Popen(
            [sys.executable, "-m", "firmware_bridge.sim", "--config", config],
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parent.parent,
        )
        assert sim.stdout is not None
        port = sim.stdout.readline().strip()
        try:
            return _event_to_write(n, port)
        finally:
            sim.terminate()
            sim.wait(5)


def _event_to_write(n: int, port: str) -> dict[str, float]:
    if True:
        transports: list[TimedTransport] = []

        def opener() -> TimedTransport:
            transports.append(TimedTransport(port))
            return transports[-1]

        link = LightLink(opener=opener).start()
        link.wait_for(lambda h: h.connected, 5)
        samples = []
        for i in range(n):
            state = LightState.all_off().with_lights(stuck1=Light.blink(100 + i % 1000, RED))
            want = state.payload()
            t = transports[-1]
            t.event.clear()
            start = time.perf_counter_ns()
            link.show(state)
            while True:
                t.event.wait(1)
                t.event.clear()
                hits = [w for w, p in t.written if p == want and w >= start]
                if hits:
                    samples.append((hits[0] - start) / 1e6)
                    break
            t.written.clear()
        link.stop()
    return {"n": n, "p50_ms": pct(samples, 0.5), "p99_ms": pct(samples, 0.99),
            "max_ms": max(samples)}  # fmt: skip


def machine() -> dict[str, object]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": model, "python": platform.python_version()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--codec-frames", type=int, default=20000)
    parser.add_argument("--round-trips", type=int, default=2000)
    parser.add_argument("--events", type=int, default=2000)
    args = parser.parse_args()
    result = {
        "machine": machine(),
        "codec_snapshot_frame": codec_cost(args.codec_frames),
        "snapshot_to_ack_round_trip_pty_sim": round_trip(args.round_trips),
        "game_event_to_snapshot_written": event_to_write(args.events),
        "goals": {"round_trip_p99_ms": 5.0, "event_to_write_p99_ms": 1.0},
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
