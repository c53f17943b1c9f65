"""One connection's protocol state on the host, with no I/O and no clock of its own.

:class:`LinkSession` is told what arrived and what time it is (integer nanoseconds on
CLOCK_MONOTONIC, or any clock in tests), and says what to write and when it next needs
attention. :class:`firmware_bridge.link.LightLink` drives one per connection from its
thread; tests drive it with explicit timestamps.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from firmware_bridge import codec
from firmware_bridge.lights import LightState

_MS = 1_000_000

_CAPABILITY_NAMES = (
    (codec.CAP_PLAIN, "plain"),
    (codec.CAP_PWM, "pwm"),
    (codec.CAP_WS2812, "ws2812"),
)
_ERROR_NAMES = {
    codec.E_UNKNOWN_TYPE: "unknown message type",
    codec.E_BAD_LENGTH: "bad length",
    codec.E_BAD_VALUE: "bad value",
}


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """What the board said in its HELLO_REPLY."""

    protocol_version: int
    firmware_version: tuple[int, int, int]
    light_count: int
    capabilities: frozenset[str]
    max_frame: int

    @property
    def firmware(self) -> str:
        """The firmware version as ``major.minor.patch``."""
        return ".".join(str(part) for part in self.firmware_version)


@dataclass(frozen=True, slots=True)
class BoardCounters:
    """The board's COUNTERS reply (counts since the board started; uptime in ms, mod 2**32)."""

    frames_ok: int
    crc_errors: int
    bad_lengths: int
    overruns: int
    unknown_types: int
    uptime_ms: int


class TimingError(ValueError):
    """A link timing the board cannot live with (see :class:`Timing`)."""


@dataclass(frozen=True, slots=True)
class Timing:
    """The link's timing, in milliseconds."""

    #: A snapshot goes out at least this often, changed or not (PROTOCOL.md: at most 250).
    heartbeat_ms: int = 200
    #: HELLO is repeated this often until the board answers.
    hello_retry_ms: int = 250
    #: No HELLO_REPLY for this long after connecting: give up on this connection.
    handshake_timeout_ms: int = 1000
    #: Connected, but nothing valid from the board for this long: give up on it.
    silence_timeout_ms: int = 1000

    def __post_init__(self) -> None:
        if not 1 <= self.heartbeat_ms <= 250:
            raise TimingError(
                f"heartbeat_ms must be 1..250 (PROTOCOL.md's most), got {self.heartbeat_ms}"
            )
        for name in ("hello_retry_ms", "handshake_timeout_ms", "silence_timeout_ms"):
            if getattr(self, name) <= 0:
                raise TimingError(
                    f"{name} must be a positive number of ms, got {getattr(self, name)}"
                )


class Phase(enum.Enum):
    HANDSHAKE = "handshake"
    READY = "ready"


#: Most snapshots remembered while waiting for their ACK (for the round-trip time).
_IN_FLIGHT = 32


class LinkSession:
    """The host's side of one connection: handshake, snapshots, heartbeats, ACKs, errors.

    ``state`` is the wanted state at ``now_ns``, when the port opened; ``first_seq`` the
    first frame's sequence number (tests start near the 16-bit wrap)."""

    def __init__(
        self,
        state: LightState,
        now_ns: int,
        timing: Timing | None = None,
        *,
        first_seq: int = 0,
    ) -> None:
        self.timing = timing if timing is not None else Timing()
        self.phase = Phase.HANDSHAKE
        self.decoder = codec.FrameDecoder()
        self.board: BoardInfo | None = None
        self.counters: BoardCounters | None = None
        self.desired = state
        self.acked: LightState | None = None
        self.rtt_ns: int | None = None
        self.errors = 0
        self.last_error: str | None = None
        self.snapshots_sent = 0
        self.acks = 0
        self._seq = first_seq & 0xFFFF
        self._started_ns = now_ns
        self._hello_ns: int | None = None
        self._hello_seq = -1
        self._last_rx_ns = now_ns
        self._last_snapshot_ns: int | None = None
        self._sent_state: LightState | None = None
        self._in_flight: dict[int, tuple[int, LightState]] = {}
        self._want_counters = False

    # ---- inputs --------------------------------------------------------------------------

    def show(self, state: LightState) -> None:
        """Make ``state`` the wanted state; it goes out on the next :meth:`poll`."""
        self.desired = state

    def request_counters(self) -> None:
        """Ask the board for its counters on the next :meth:`poll` (once ready)."""
        self._want_counters = True

    def receive(self, data: bytes, now_ns: int) -> None:
        """Bytes from the board. Never raises: damaged or unexpected frames are counted."""
        before = self._decoder_errors()
        for ftype, seq, payload in self.decoder.feed(data):
            self._last_rx_ns = now_ns  # any whole frame, even a refusal: the board is alive
            self._frame(ftype, seq, payload, now_ns)
        damaged = self._decoder_errors() - before
        if damaged:
            self._error(f"{damaged} damaged frame(s) from the board")

    # ---- outputs -------------------------------------------------------------------------

    def poll(self, now_ns: int) -> bytes:
        """The bytes to write now (possibly none)."""
        out = b""
        if self.phase is Phase.HANDSHAKE:
            retry_ns = self.timing.hello_retry_ms * _MS
            if self._hello_ns is None or now_ns - self._hello_ns >= retry_ns:
                self._hello_seq = self._next_seq()
                self._hello_ns = now_ns
                # A leading 0x00 ends whatever partial frame the board may hold.
                out = b"\x00" + codec.encode_frame(codec.HELLO, self._hello_seq, codec.pack_hello())
            return out
        if self._snapshot_due(now_ns):
            seq = self._next_seq()
            out += codec.encode_frame(codec.SNAPSHOT, seq, self.desired.payload())
            self._in_flight[seq] = (now_ns, self.desired)
            if len(self._in_flight) > _IN_FLIGHT:
                del self._in_flight[next(iter(self._in_flight))]
            self._sent_state = self.desired
            self._last_snapshot_ns = now_ns
            self.snapshots_sent += 1
        if self._want_counters:
            self._want_counters = False
            out += codec.encode_frame(codec.GET_COUNTERS, self._next_seq())
        return out

    def deadline(self, now_ns: int) -> int:
        """When :meth:`poll` or :meth:`failure` next has something to say (ns)."""
        if self.phase is Phase.HANDSHAKE:
            hello = (self._hello_ns if self._hello_ns is not None else now_ns) + (
                self.timing.hello_retry_ms * _MS
            )
            give_up = self._started_ns + self.timing.handshake_timeout_ms * _MS
            return min(hello, give_up)
        last = self._last_snapshot_ns
        if last is None or self.desired != self._sent_state or self._want_counters:
            return now_ns
        beat = last + self.timing.heartbeat_ms * _MS
        silence = self._last_rx_ns + self.timing.silence_timeout_ms * _MS
        return min(beat, silence)

    def failure(self, now_ns: int) -> str | None:
        """Why this connection should be dropped now, or None while it is healthy."""
        if self.phase is Phase.HANDSHAKE:
            if now_ns - self._started_ns >= self.timing.handshake_timeout_ms * _MS:
                return f"no HELLO reply within {self.timing.handshake_timeout_ms} ms"
            if self.board is not None and self.board.protocol_version != codec.PROTOCOL_VERSION:
                return (
                    f"board speaks protocol {self.board.protocol_version}, "
                    f"the host speaks {codec.PROTOCOL_VERSION}: flash matching firmware"
                )
            return None
        if now_ns - self._last_rx_ns >= self.timing.silence_timeout_ms * _MS:
            return f"board silent for {self.timing.silence_timeout_ms} ms"
        return None

    @property
    def ready(self) -> bool:
        return self.phase is Phase.READY

    # ---- internals -----------------------------------------------------------------------

    def _next_seq(self) -> int:
        seq = self._seq
        self._seq = (self._seq + 1) & 0xFFFF
        return seq

    def _decoder_errors(self) -> int:
        d = self.decoder
        return d.crc_errors + d.bad_lengths + d.overruns

    def _error(self, message: str) -> None:
        self.errors += 1
        self.last_error = message

    def _snapshot_due(self, now_ns: int) -> bool:
        if self.desired != self._sent_state or self._last_snapshot_ns is None:
            return True
        return now_ns - self._last_snapshot_ns >= self.timing.heartbeat_ms * _MS

    def _frame(self, ftype: int, seq: int, payload: bytes, now_ns: int) -> None:
        try:
            if ftype == codec.HELLO_REPLY:
                self._hello_reply(seq, payload, now_ns)
            elif ftype == codec.ACK:
                self._ack(seq, now_ns)
            elif ftype == codec.COUNTERS:
                self.counters = BoardCounters(*codec.unpack_counters(payload))
            elif ftype == codec.ERROR:
                code, bad_type = codec.unpack_error(payload)
                what = _ERROR_NAMES.get(code, f"error {code}")
                self._error(f"board rejected message type 0x{bad_type:02X}: {what}")
            else:
                self._error(f"unexpected message type 0x{ftype:02X} from the board")
        except codec.CodecError as exc:
            self._error(f"bad reply from the board: {exc}")

    def _hello_reply(self, seq: int, payload: bytes, now_ns: int) -> None:
        version, firmware, count, caps, max_frame = codec.unpack_hello_reply(payload)
        if self.phase is not Phase.HANDSHAKE or seq != self._hello_seq:
            return  # a late answer to an earlier HELLO
        names = frozenset(name for bit, name in _CAPABILITY_NAMES if caps & bit)
        self.board = BoardInfo(version, firmware, count, names, max_frame)
        if version == codec.PROTOCOL_VERSION:
            self.phase = Phase.READY
            if self._hello_ns is not None:
                self.rtt_ns = now_ns - self._hello_ns

    def _ack(self, seq: int, now_ns: int) -> None:
        sent = self._in_flight.pop(seq, None)
        if sent is None:
            self._error(f"ACK for unknown sequence number {seq}")
            return
        sent_ns, state = sent
        # Everything sent before this snapshot is superseded by it.
        for older in [s for s in self._in_flight if (seq - s) & 0xFFFF < 0x8000]:
            del self._in_flight[older]
        self.rtt_ns = now_ns - sent_ns
        self.acked = state
        self.acks += 1
