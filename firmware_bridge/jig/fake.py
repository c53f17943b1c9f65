"""Fake hardware for the jig: a ``machine`` module whose pins record what each pad does,
a ``time`` module on a virtual clock, and the USB serial port's host end (MicroPython
subset, so the same fakes serve the tests under CPython and under real MicroPython).

The fakes behave as the RP2040's MicroPython does where the jig depends on it: ticks wrap
every :data:`TICKS_PERIOD` and ``ticks_add`` refuses a step of half that or more; a pin
in ``Pin.OPEN_DRAIN`` mode sinks the line at ``value(0)`` and is high impedance at
``value(1)`` (it starts so unless told otherwise), a ``Pin.OUT`` pin drives its level;
``pull=None`` means no pull.
"""

import json
import select

#: MicroPython's tick counters (``ticks_us``, ``ticks_ms``) wrap at this many ticks.
TICKS_PERIOD = 1 << 30

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


class FakeTime:
    """Stands in for MicroPython's ``time`` module, on a virtual clock that moves only when
    it is read or slept: each ``ticks_us()`` moves it ``step_us`` on (a reading takes time
    on the board too, so a busy wait ends), ``sleep_ms`` moves it that many ms on.
    ``now_us`` is the time in µs, unwrapped; readings wrap at :data:`TICKS_PERIOD` as the
    board's do, so ``start_us`` just short of a multiple of it tests the wrap."""

    def __init__(self, start_us: int = 0, step_us: int = 1) -> None:
        self.now_us = start_us
        self.step_us = step_us
        self.slept_ms = 0

    def ticks_us(self) -> int:
        self.now_us += self.step_us
        return self.now_us % TICKS_PERIOD

    def ticks_ms(self) -> int:
        return (self.now_us // 1000) % TICKS_PERIOD

    def ticks_diff(self, end: int, start: int) -> int:
        half = TICKS_PERIOD // 2
        return (end - start + half) % TICKS_PERIOD - half

    def ticks_add(self, ticks: int, delta: int) -> int:
        if not -(TICKS_PERIOD // 2) <= delta < TICKS_PERIOD // 2:
            raise OverflowError("ticks interval overflow")
        return (ticks + delta) % TICKS_PERIOD

    def sleep_ms(self, ms: int) -> None:
        if ms < 0:
            raise ValueError("sleep_ms takes a time that is not negative, got " + str(ms))
        self.now_us += ms * 1000
        self.slept_ms += ms


class FakePin:
    """A GPIO pin: its ``mode``, ``pull`` and output latch; the pad's state, ``"low"``
    (sinking), ``"high"`` (driving 3.3 V) or ``"hi-z"`` (neither), is recorded in the
    machine's ``events`` at each change. Read, a pad that drives reads its own level; one
    that does not reads the machine's ``outside`` level for the pin (default 1: a pull-up).
    """

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(
        self,
        machine: "FakeMachine",
        pin_id: "int | str",
        mode: int = -1,
        pull: "int | None" = None,
        value: "int | None" = None,
    ) -> None:
        self.machine = machine
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        if value is not None:
            self.latch = 1 if value else 0
        else:
            self.latch = 1 if mode == FakePin.OPEN_DRAIN else 0
        self.state = ""
        machine.pins[pin_id] = self
        self._record()

    def pad(self) -> str:
        """What the pad does: ``"low"``, ``"high"`` or ``"hi-z"``."""
        if self.mode == FakePin.OPEN_DRAIN:
            return "low" if self.latch == 0 else "hi-z"
        if self.mode == FakePin.OUT:
            return "high" if self.latch else "low"
        return "hi-z"

    def _record(self) -> None:
        state = self.pad()
        if state != self.state:
            self.state = state
            self.machine.events.append((self.machine.clock.now_us, self.id, state))

    def value(self, level: "int | None" = None) -> "int | None":
        if level is None:
            state = self.pad()
            if state == "hi-z":
                return self.machine.outside.get(self.id, 1)
            return 1 if state == "high" else 0
        self.latch = 1 if level else 0
        self._record()
        return None


class FakeMachine:
    """Stands in for the ``machine`` module: ``Pin`` makes :class:`FakePin` s kept in
    ``pins`` by id; ``events`` is every pad change as ``(now_us, pin id, state)``;
    ``outside`` the level the world holds each undriven pin at (set a start button's pin
    to 0 to press it); ``irq_spans`` every span interrupts were held off, as
    ``(from_us, to_us)``."""

    def __init__(self, clock: FakeTime) -> None:
        self.clock = clock
        self.pins: dict[int | str, FakePin] = {}
        self.events: list[tuple[int, int | str, str]] = []
        self.outside: dict[int | str, int] = {}
        self.irq_spans: list[tuple[int, int]] = []
        self._irq_off_since: int | None = None
        machine = self

        class Pin(FakePin):
            def __init__(
                self,
                pin_id: "int | str",
                mode: int = -1,
                pull: "int | None" = None,
                *,
                value: "int | None" = None,
            ) -> None:
                FakePin.__init__(self, machine, pin_id, mode, pull, value)

        self.Pin = Pin

    def disable_irq(self) -> bool:
        """Hold interrupts off; returns whether they were on."""
        was_on = self._irq_off_since is None
        if was_on:
            self._irq_off_since = self.clock.now_us
        return was_on

    def enable_irq(self, state: object) -> None:
        """Put interrupts back as ``state`` (from :meth:`disable_irq`) says."""
        if state and self._irq_off_since is not None:
            self.irq_spans.append((self._irq_off_since, self.clock.now_us))
            self._irq_off_since = None


class FakeSerial:
    """The USB serial port's host end: :meth:`send` what the host types; the jig reads it
    (``poll`` and ``read``, as ``sys.stdin.buffer`` on the board) and writes its lines
    (``write``); :meth:`said` parses them. A poll with nothing to read waits its timeout
    on the clock, as the board's does."""

    def __init__(self, clock: FakeTime) -> None:
        self.clock = clock
        self.to_jig = bytearray()
        self.at = 0
        self.written = bytearray()

    def send(self, data: bytes) -> None:
        self.to_jig.extend(data)

    def poll(self, timeout_ms: int) -> "Sequence[tuple[object, int]]":
        if self.at < len(self.to_jig):
            return [(self, select.POLLIN)]
        if timeout_ms > 0:
            self.clock.sleep_ms(timeout_ms)
        return []

    def read(self, n: int) -> bytes:
        chunk = bytes(self.to_jig[self.at : self.at + n])
        self.at += len(chunk)
        return chunk

    def write(self, data: bytes) -> int:
        self.written.extend(data)
        return len(data)

    def said(self) -> "list[dict[str, object]]":
        """Every line the jig wrote, parsed."""
        return [json.loads(line.decode()) for line in bytes(self.written).split(b"\n") if line]
