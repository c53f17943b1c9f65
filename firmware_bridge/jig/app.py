"""The jig's main loop: wait for the start button or a command, press the schedule, say
what it did (MicroPython subset).

:func:`main` is the board's entry point (``main.py`` calls it). The tests build the same
:class:`Jig` with the fake hardware of :mod:`firmware_bridge.jig.fake` and run the same
:meth:`Jig.step`.

The jig talks over its USB serial port in lines of text. It takes ``start`` (press the
schedule now), ``status`` (say the configuration again) and ``report`` (say the last
run's report again), and writes one JSON object per line, whose ``"jig"`` says what it
is:

- ``ready``: the schedule (``offsets_us``, ``pairs``, ``gap_ms``, ``seed``), the
  ``lead_in_ms``, how long a run takes (``seconds``) and the ``cabinet`` command line that
  judges this schedule; said at power-on, after each run and on ``status``;
- ``config error``: the ``error`` that makes ``jig.json`` unusable (instead of ``ready``);
- ``pressing``: run number ``run`` has started; the first press comes ``lead_in_ms`` later;
- ``done``: the run's report (:func:`firmware_bridge.jig.presser.report`), with its
  ``run``, ``seed`` and ``gap_ms``;
- ``refused``: a start while the configuration is unusable, with the ``error``;
- ``error``: a line that is no command or too long, a ``report`` before any run, or what
  the host sent during a run (dropped).

Nothing is written while the jig presses: a host that is not reading could hold up a
write, and with it the timing.

The LED: a slow blink (1 s) while ready, lit while a run is under way, a fast blink
(0.2 s) when ``jig.json`` cannot be used.
"""

import gc
import json
import select

from firmware_bridge.firmware.host_input import read_host_bytes
from firmware_bridge.jig import JIG_VERSION
from firmware_bridge.jig.config import CONFIG_PATH, JigConfig, boot_jig_config
from firmware_bridge.jig.lines import Led, OpenDrainLine, StartButton
from firmware_bridge.jig.presser import press_pairs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from firmware_bridge.firmware.interfaces import PollerLike, ReaderLike, WriterLike
    from firmware_bridge.jig.interfaces import ClockLike, JigMachineLike

#: Longest wait for host bytes in one turn of the loop, in ms (bounds the button's latency).
POLL_MS = 10
#: Most bytes read in one turn.
MAX_READ = 256
#: The longest command line kept; a longer one is refused whole.
MAX_LINE = 64
#: The most bytes dropped after a run (the host's typing while the jig pressed).
MAX_DROP = 4096
#: The start button must be held this long (ms) to start a run: a bounce or a brush is not.
START_HOLD_MS = 50
#: Half-periods of the LED's blink, in ms: ready, and configuration error.
READY_BLINK_MS = 500
ERROR_BLINK_MS = 100
COMMANDS = ("start", "status", "report")


class Jig:
    """The jig: its configuration, its two lines, start button and LED, and the last run.

    ``config_error``, when given, says why the file at ``config_path`` cannot be used
    (``config`` is then the built-in defaults): the lines are let go on the default pins,
    and a start is refused. ``writer`` takes the jig's lines of JSON
    (``sys.stdout.buffer`` on the board).
    """

    def __init__(
        self,
        config: "JigConfig",
        machine: "JigMachineLike",
        clock: "ClockLike",
        writer: "WriterLike",
        config_error: "str | None" = None,
        config_path: str = CONFIG_PATH,
    ) -> None:
        self.config = config
        self.config_error = config_error
        self.config_path = config_path
        self.machine = machine
        self.clock = clock
        self.writer = writer
        self.lines = (
            OpenDrainLine(machine, config.line_a_pin),
            OpenDrainLine(machine, config.line_b_pin),
        )
        self.button = StartButton(machine, config.start_pin)
        self.led = Led(machine)
        self.runs = 0
        self.last_report: dict[str, object] | None = None
        self._line = bytearray()
        self._overlong = False
        self._held_since: int | None = None
        self._armed = False  # the button must be seen up before it can start a run

    # -- what the jig says ---------------------------------------------------------------

    def say(self, message: "dict[str, object]") -> None:
        """Write ``message`` as one line of JSON."""
        self.writer.write(json.dumps(message).encode() + b"\n")

    def status(self) -> "dict[str, object]":
        """The ``ready`` message, or the ``config error`` one."""
        if self.config_error is not None:
            return {"jig": "config error", "error": self.config_error, "file": self.config_path}
        config = self.config
        return {
            "jig": "ready",
            "version": JIG_VERSION,
            "offsets_us": list(config.offsets_us),
            "pairs": config.pairs,
            "gap_ms": config.gap_ms,
            "seed": config.seed,
            "lead_in_ms": config.lead_in_ms,
            "seconds": round(config.lead_in_ms / 1000 + config.schedule().seconds()),
            "cabinet": config.cabinet_command(),
        }

    # -- running -------------------------------------------------------------------------

    def start(self) -> "dict[str, object] | None":
        """Press the whole schedule now (this takes :meth:`status`'s ``seconds``), say
        ``done`` with the report and return it; with an unusable configuration, say
        ``refused`` and return ``None``."""
        if self.config_error is not None:
            self.say({"jig": "refused", "error": self.config_error, "file": self.config_path})
            return None
        config = self.config
        self.say({"jig": "pressing", "lead_in_ms": config.lead_in_ms, "run": self.runs + 1})
        self.led.show(True)
        gc.collect()  # no collection is due while the pairs are pressed
        try:
            result = press_pairs(
                config.schedule(), self.lines, self.clock, self.machine, config.lead_in_ms
            )
        finally:
            self.led.show(False)
        self.runs += 1
        result["jig"] = "done"
        result["run"] = self.runs
        result["seed"] = config.seed
        result["gap_ms"] = config.gap_ms
        self.last_report = result
        self.say(result)
        self.say(self.status())
        return result

    def command(self, line: bytes) -> None:
        """Act on one line from the host (without its end of line)."""
        text = "".join(chr(b) if 32 <= b < 127 else "?" for b in line).strip().lower()
        if not text:
            return
        if text == "start":
            self.start()
        elif text == "status":
            self.say(self.status())
        elif text == "report":
            if self.last_report is None:
                self.say({"jig": "error", "error": "no run yet: send start, or press the button"})
            else:
                self.say(self.last_report)
        else:
            self.say(
                {
                    "jig": "error",
                    "error": "unknown command "
                    + repr(text[:MAX_LINE])
                    + "; the commands are "
                    + ", ".join(COMMANDS),
                }
            )

    def feed(self, data: bytes) -> int:
        """Take the host's bytes; act on each whole line as it ends (CR or LF). A line
        longer than :data:`MAX_LINE` is refused whole. The bytes after a line that ran the
        schedule are dropped (typed before the run ended, they are not meant for the next
        one): returns how many."""
        runs = self.runs
        for i, b in enumerate(data):
            if b == 10 or b == 13:
                if self._overlong:
                    self.say({"jig": "error", "error": f"a line over {MAX_LINE} characters"})
                else:
                    self.command(bytes(self._line))
                self._line = bytearray()
                self._overlong = False
                if self.runs != runs:
                    return len(data) - i - 1
            elif len(self._line) < MAX_LINE:
                self._line.append(b)
            else:
                self._overlong = True
        return 0

    def step(self, reader: "ReaderLike", poller: "PollerLike", timeout_ms: int = POLL_MS) -> None:
        """One turn of the loop: wait up to ``timeout_ms`` for the host's bytes and act on
        them, start a run when the button has been held :data:`START_HOLD_MS`, blink the
        LED. Bytes that came while a run was pressing are dropped, unread commands with
        them: a second ``start`` typed during a run must not press again."""
        chunk = read_host_bytes(reader, poller, timeout_ms, MAX_READ)
        runs = self.runs
        dropped = self.feed(bytes(chunk)) if chunk else 0
        if self.runs == runs:
            self._watch_button()
        if self.runs != runs:
            dropped += self._drop_input(reader, poller)
            if dropped:
                self.say({"jig": "error", "error": f"dropped {dropped} bytes sent during the run"})
        now = self.clock.ticks_ms()
        half = ERROR_BLINK_MS if self.config_error is not None else READY_BLINK_MS
        self.led.show((now // half) % 2 == 0)

    def _watch_button(self) -> None:
        if not self.button.is_pressed:
            self._held_since = None
            self._armed = True
            return
        now = self.clock.ticks_ms()
        if self._held_since is None:
            self._held_since = now
        if self._armed and self.clock.ticks_diff(now, self._held_since) >= START_HOLD_MS:
            self._armed = False
            self.start()

    def _drop_input(self, reader: "ReaderLike", poller: "PollerLike") -> int:
        """Drop the command line begun and what the host sent since; return how many
        bytes that was (at most :data:`MAX_DROP` are read: the rest are taken as commands)."""
        dropped = len(self._line)
        self._line = bytearray()
        self._overlong = False
        while dropped < MAX_DROP and poller.poll(0):
            if not reader.read(1):
                break
            dropped += 1
        return dropped

    def serve(
        self, reader: "ReaderLike", poller: "PollerLike", running: "Callable[[], bool]"
    ) -> None:
        """Say :meth:`status`, then loop :meth:`step` while ``running()`` is true."""
        self.say(self.status())
        while running():
            self.step(reader, poller)


def boot(
    machine: "JigMachineLike",
    clock: "ClockLike",
    writer: "WriterLike",
    config_path: str = CONFIG_PATH,
) -> Jig:
    """Read the configuration at ``config_path`` as the jig does at power-on and build the
    :class:`Jig`. Never fails on a bad file: the jig comes up and refuses to press
    (:func:`~firmware_bridge.jig.config.boot_jig_config`)."""
    config, error = boot_jig_config(config_path)
    return Jig(config, machine, clock, writer, config_error=error, config_path=config_path)


def main(config_path: str = CONFIG_PATH) -> None:
    """The board's entry point: real hardware, USB serial on stdin/stdout, forever. A
    Ctrl-C from the host stops it (both lines are let go) and leaves the REPL to mpremote."""
    import sys
    import time

    import machine  # type: ignore[import-not-found]

    jig = boot(machine, time, sys.stdout.buffer, config_path)  # type: ignore[arg-type]
    reader = sys.stdin.buffer
    poller = select.poll()
    poller.register(reader, select.POLLIN)
    jig.serve(reader, poller, lambda: True)
