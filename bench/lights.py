"""Light link benchmark: codec cost, snapshot→ACK round trip through the pty simulator, and
game event → snapshot written. Prints one JSON document.

    python bench/lights.py [--round-trips 2000] [--events 2000] [--frames 600] [--render-ms 4]

The event-to-write figure is taken twice: with a caller that waits for each write and
calls again at once, and in a 60 fps game loop that shows a new state at the start of each
frame, then computes for ``--render-ms`` (holding the GIL, as drawing does) and idles.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path

from board_sim import simulated_board
from machine_info import machine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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
    """SNAPSHOT written to ACK read, through the link's own transport (non-blocking
    writes, select-based reads), the simulated board in a thread of this process."""
    with Simulator(Config({"selftest_step_ms": 0})) as sim:
        transport = SerialTransport(sim.port)
        payload = LightState.all_off().with_lights(stuck1=Light.on(RED)).payload()
        decoder = codec.FrameDecoder()
        samples = []
        for seq in range(n):
            frame = codec.encode_frame(codec.SNAPSHOT, seq, payload)
            start = time.perf_counter_ns()
            if transport.write(frame) != len(frame):
                raise RuntimeError("the pty did not take a whole frame")
            got: list[tuple[int, int, bytes]] = []
            while not got:
                got = decoder.feed(transport.read(1.0))
            samples.append((time.perf_counter_ns() - start) / 1e6)
            assert got[0][:2] == (codec.ACK, seq & 0xFFFF)
        transport.close()
    return {"n": n, "p50_ms": pct(samples, 0.5), "p99_ms": pct(samples, 0.99),
            "max_ms": max(samples)}  # fmt: skip


class TimedTransport(SerialTransport):
    """Records when each SNAPSHOT frame leaves, and which state it carried."""

    def __init__(self, port: str) -> None:
        super().__init__(port)
        self.written: list[tuple[int, bytes]] = []
        self.event = threading.Event()

    def write(self, data: bytes) -> int:
        sent = super().write(data)
        now = time.perf_counter_ns()
        for ftype, _, payload in codec.FrameDecoder().feed(data):
            if ftype == codec.SNAPSHOT:
                self.written.append((now, payload))
                self.event.set()
        return sent


def event_to_write(n: int, frames: int, render_ms: float) -> dict[str, dict[str, float]]:
    """The board runs in its own process here, as a real board runs on its own chip."""
    with simulated_board() as port:
        transports: list[TimedTransport] = []

        def opener() -> TimedTransport:
            transports.append(TimedTransport(port))
            return transports[-1]

        link = LightLink(opener=opener).start()
        try:
            if not link.wait_for(lambda h: h.connected, 5):
                raise RuntimeError(f"the simulated board did not answer: {link.health()}")
            return {
                "idle_caller": _event_to_write(link, transports, n),
                f"game_loop_60fps_render_{render_ms:g}_ms": _event_to_write(
                    link, transports, frames, render_ms, FRAME_MS
                ),
            }
        finally:
            link.stop()


#: One frame of a 60 fps game loop, in milliseconds.
FRAME_MS = 1000 / 60


def _spin(ms: float) -> None:
    """Hold the CPU (and the GIL) for ``ms`` milliseconds, as a game loop drawing a frame."""
    end = time.perf_counter_ns() + int(ms * 1e6)
    while time.perf_counter_ns() < end:
        pass


def _event_to_write(
    link: LightLink,
    transports: list[TimedTransport],
    n: int,
    render_ms: float = 0.0,
    frame_ms: float = 0.0,
) -> dict[str, float]:
    """``link.show()`` of a new state, ``n`` times; the sample is the time from the call to
    the end of the write carrying that state. Without ``frame_ms`` the caller waits for the
    write and calls again at once; with it, each call starts a frame of a game loop that
    then computes for ``render_ms`` (holding the GIL) and idles to the frame's end."""
    samples = []
    idle = threading.Event()  # never set: waiting on it idles without holding the GIL
    for i in range(n):
        state = LightState.all_off().with_lights(stuck1=Light.blink(100 + i % 1000, RED))
        want = state.payload()
        t = transports[-1]
        t.event.clear()
        start = time.perf_counter_ns()
        link.show(state)
        if frame_ms:
            _spin(render_ms)
            idle.wait(max(0, start + int(frame_ms * 1e6) - time.perf_counter_ns()) / 1e9)
        while True:
            hits = [w for w, p in t.written if p == want and w >= start]
            if hits:
                samples.append((hits[0] - start) / 1e6)
                break
            t.event.wait(1)
            t.event.clear()
        t.written.clear()
    return {"n": n, "p50_ms": pct(samples, 0.5), "p99_ms": pct(samples, 0.99),
            "max_ms": max(samples)}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--codec-frames", type=int, default=20000)
    parser.add_argument("--round-trips", type=int, default=2000)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--frames", type=int, default=600, help="game loop frames (60 fps)")
    parser.add_argument(
        "--render-ms", type=float, default=4.0, help="the game loop's work in each frame"
    )
    args = parser.parse_args()
    result = {
        "machine": machine(),
        "codec_snapshot_frame": codec_cost(args.codec_frames),
        "snapshot_to_ack_round_trip_pty_sim": round_trip(args.round_trips),
        "game_event_to_snapshot_written": event_to_write(args.events, args.frames, args.render_ms),
        "goals": {"round_trip_p99_ms": 5.0, "event_to_write_p99_ms": 1.0},
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
