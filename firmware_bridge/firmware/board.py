"""The board's frame handling and light state: pure logic, driven by explicit times.

Nothing here touches hardware or reads a clock: :meth:`Board.feed` takes the bytes from
the host and the time in milliseconds, and returns the reply frames; :meth:`Board.render`
says what colour each light shows at a given time. MicroPython subset.
"""

from firmware_bridge import codec
from firmware_bridge.firmware import FIRMWARE_VERSION

OFF = (0, 0, 0)
FULL = (255, 255, 255)

#: The configuration-error pattern, shown instead of the link-lost one when the board runs
#: on its built-in defaults because its configuration file was unusable: every light flashes
#: red twice, hard on and off (no fading, so plain on/off LEDs show it too), then stays dark:
#: on 0-150 ms and 300-450 ms of each 1200 ms cycle.
CONFIG_ERROR_RGB = (255, 0, 0)
CONFIG_ERROR_FLASH_MS = 150
CONFIG_ERROR_PERIOD_MS = 1200


def config_error_lit(t_ms: int) -> bool:
    """Whether the configuration-error pattern is lit ``t_ms`` into it: two short flashes,
    then a pause, every :data:`CONFIG_ERROR_PERIOD_MS`."""
    phase = t_ms % CONFIG_ERROR_PERIOD_MS
    return phase < CONFIG_ERROR_FLASH_MS or (
        2 * CONFIG_ERROR_FLASH_MS <= phase < 3 * CONFIG_ERROR_FLASH_MS
    )


def wave(t_ms: int, period_ms: int) -> int:
    """Breathing level 0..255 at ``t_ms`` into a ``period_ms`` cycle: a squared triangle,
    dark at the start of the cycle, brightest halfway. Integer maths only."""
    phase = (t_ms % period_ms) * 512 // period_ms
    tri = phase if phase < 256 else 511 - phase
    return tri * tri // 255


def scale(colour: tuple[int, int, int], level: int) -> tuple[int, int, int]:
    """``colour`` dimmed to ``level``/255."""
    return (colour[0] * level // 255, colour[1] * level // 255, colour[2] * level // 255)


class Board:
    """What the board knows: the wanted light state, counters and link liveness.

    ``light_count`` lights are driven; records past it in a snapshot are ignored, lights
    past a snapshot's count are turned off. Times are milliseconds on a clock that does
    not wrap (see :func:`firmware_bridge.firmware.app.ticks_clock`). ``config_error``: the
    board runs on its built-in defaults because its configuration file was unusable, and
    shows the configuration-error pattern wherever it would show the link-lost pattern.
    """

    def __init__(
        self,
        light_count: int,
        capabilities: int,
        now_ms: int,
        link_lost_ms: int = 1000,
        link_lost_rgb: tuple[int, int, int] = (96, 48, 0),
        link_lost_period_ms: int = 2400,
        selftest_step_ms: int = 120,
        config_error: bool = False,
    ) -> None:
        self.light_count = light_count
        self.config_error = config_error
        self.capabilities = capabilities
        self.link_lost_ms = link_lost_ms
        self.link_lost_rgb = link_lost_rgb
        self.link_lost_period_ms = link_lost_period_ms
        self.decoder = codec.FrameDecoder()
        self.modes = [codec.MODE_OFF] * light_count
        self.colours = [OFF] * light_count
        self.periods = [0] * light_count
        self.since = [now_ms] * light_count
        self.started_ms = now_ms
        self.selftest_until_ms = now_ms + selftest_step_ms * light_count
        self.selftest_step_ms = selftest_step_ms
        #: When the last SNAPSHOT was applied (-1: none yet). HELLO, GET_COUNTERS and
        #: refused frames are answered but do not set it: only a snapshot says what the
        #: lights must show now.
        self.last_valid_ms = -1
        self.unknown_types = 0
        self.bad_lengths = 0
        self.bad_values = 0
        self.snapshots = 0

    def feed(self, data: bytes | bytearray, now_ms: int) -> list[bytes]:
        """Consume bytes from the host; return the whole reply frames to send back.

        Each frame is handled as soon as its delimiter is read, before the bytes after it
        are decoded: so a GET_COUNTERS is answered with the counters of everything up to and
        including itself, and of nothing after it, however the host's bytes were split
        into reads (PROTOCOL.md, COUNTERS)."""
        replies = []
        data = bytes(data)
        end = len(data)
        start = 0
        while start < end:
            stop = data.find(b"\x00", start)
            stop = end if stop < 0 else stop + 1
            for ftype, seq, payload in self.decoder.feed(data[start:stop]):
                replies.append(self.handle(ftype, seq, payload, now_ms))
            start = stop
        return replies

    def handle(self, ftype: int, seq: int, payload: bytes, now_ms: int) -> bytes:
        """Act on one decoded frame; return its reply frame (every frame gets one)."""
        try:
            if ftype == codec.HELLO:
                codec.unpack_hello(payload)
                reply = codec.encode_frame(
                    codec.HELLO_REPLY,
                    seq,
                    codec.pack_hello_reply(FIRMWARE_VERSION, self.light_count, self.capabilities),
                )
            elif ftype == codec.SNAPSHOT:
                self.apply(codec.unpack_snapshot(payload), now_ms)
                # Only an applied snapshot keeps the link alive (PROTOCOL.md, link liveness).
                self.last_valid_ms = now_ms
                reply = codec.encode_frame(codec.ACK, seq)
            elif ftype == codec.GET_COUNTERS:
                if payload:
                    raise codec.BadLengthError("GET_COUNTERS has no payload")
                reply = codec.encode_frame(
                    codec.COUNTERS, seq, codec.pack_counters(self.counters(now_ms))
                )
            else:
                self.unknown_types += 1
                return codec.encode_frame(
                    codec.ERROR, seq, codec.pack_error(codec.E_UNKNOWN_TYPE, ftype)
                )
        except codec.BadLengthError:
            self.bad_lengths += 1
            return codec.encode_frame(codec.ERROR, seq, codec.pack_error(codec.E_BAD_LENGTH, ftype))
        except codec.BadValueError:
            self.bad_values += 1
            return codec.encode_frame(codec.ERROR, seq, codec.pack_error(codec.E_BAD_VALUE, ftype))
        return reply

    def apply(self, records: list[tuple[int, int, int, int, int]], now_ms: int) -> None:
        """Take a snapshot's records as the wanted state. A light whose mode or period
        changes restarts its blink or pulse cycle; the same snapshot again changes nothing."""
        self.snapshots += 1
        for i in range(self.light_count):
            if i < len(records):
                mode, red, green, blue, period_ms = records[i]
            else:
                mode, red, green, blue, period_ms = codec.MODE_OFF, 0, 0, 0, 0
            if mode != self.modes[i] or period_ms != self.periods[i]:
                self.since[i] = now_ms
            self.modes[i] = mode
            self.periods[i] = period_ms
            self.colours[i] = (red, green, blue)

    def counters(self, now_ms: int) -> tuple[int, ...]:
        """The COUNTERS values, in :data:`codec.COUNTER_FIELDS` order."""
        d = self.decoder
        return (
            d.frames_ok,
            d.crc_errors,
            d.bad_lengths + self.bad_lengths,
            d.overruns,
            self.unknown_types,
            now_ms - self.started_ms,
        )

    def in_selftest(self, now_ms: int) -> bool:
        """True during the power-on self test."""
        return now_ms < self.selftest_until_ms

    def link_lost(self, now_ms: int) -> bool:
        """True when no SNAPSHOT has been applied for ``link_lost_ms`` (or none ever)."""
        return self.last_valid_ms < 0 or now_ms - self.last_valid_ms >= self.link_lost_ms

    def render(self, now_ms: int) -> list[tuple[int, int, int]]:
        """The colour of every light at ``now_ms``: self test, else link-lost (or the
        configuration-error pattern), else the wanted state with blink and pulse timing
        applied."""
        n = self.light_count
        if self.in_selftest(now_ms):
            lit = (now_ms - self.started_ms) // self.selftest_step_ms
            return [FULL if i == lit else OFF for i in range(n)]
        if self.link_lost(now_ms):
            if self.config_error:
                since = now_ms - self.selftest_until_ms
                return [CONFIG_ERROR_RGB if config_error_lit(since) else OFF] * n
            level = wave(now_ms - self.started_ms, self.link_lost_period_ms)
            return [scale(self.link_lost_rgb, level)] * n
        out = []
        for i in range(n):
            mode = self.modes[i]
            if mode == codec.MODE_ON:
                out.append(self.colours[i])
            elif mode == codec.MODE_BLINK:
                period = self.periods[i]
                on = (now_ms - self.since[i]) % period < period // 2
                out.append(self.colours[i] if on else OFF)
            elif mode == codec.MODE_PULSE:
                out.append(scale(self.colours[i], wave(now_ms - self.since[i], self.periods[i])))
            else:
                out.append(OFF)
        return out
