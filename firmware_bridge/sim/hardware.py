"""Stub ``machine``, ``neopixel`` and ``micropython`` modules that record what the firmware
does, as the real ones would drive pins (MicroPython subset, so the same stubs serve the
CPython simulator and the tests under real MicroPython).

Each stub is an object standing in for the module: ``StubMachine().Pin(2, Pin.OUT)`` makes
a pin the stub remembers by GPIO number, ``PWM`` remembers its duty, ``WDT`` counts feeds.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from firmware_bridge.firmware.interfaces import PinLike


def _stub_pin(pin: "PinLike | StubPin") -> "StubPin":
    if not isinstance(pin, StubPin):
        raise TypeError("expected a Pin made by the stub machine module")
    return pin


class StubPin:
    """A GPIO pin: remembers its mode and level (0 or 1)."""

    OUT = 1
    IN = 0

    def __init__(self, pin_id: int, mode: int = -1) -> None:
        self.id = pin_id
        self.mode = mode
        self.level = 0

    def value(self, level: int | None = None) -> int:
        if level is not None:
            self.level = 1 if level else 0
        return self.level


class StubPWM:
    """A PWM channel on a pin: frequency in Hz, duty as a 16-bit fraction."""

    def __init__(self, pin: StubPin) -> None:
        self.pin = pin
        self.frequency = 0
        self.duty = 0

    def freq(self, hz: int) -> None:
        self.frequency = hz

    def duty_u16(self, duty: int) -> None:
        if not 0 <= duty <= 65535:
            raise ValueError("duty must be 0..65535")
        self.duty = duty


class StubWDT:
    """The watchdog: records its timeout (ms) and how often it was fed."""

    def __init__(self, timeout: int) -> None:
        if not 1 <= timeout <= 8388:
            raise ValueError("the RP2040 watchdog timeout is 1..8388 ms")
        self.timeout_ms = timeout
        self.feeds = 0

    def feed(self) -> None:
        self.feeds += 1


class StubMachine:
    """Stands in for the ``machine`` module; ``pins``, ``pwms`` are keyed by GPIO number."""

    def __init__(self) -> None:
        self.pins: dict[int, StubPin] = {}
        self.pwms: dict[int, StubPWM] = {}
        self.watchdog: StubWDT | None = None
        pins = self.pins

        class Pin(StubPin):
            def __init__(self, pin_id: int, mode: int = -1) -> None:
                StubPin.__init__(self, pin_id, mode)
                pins[pin_id] = self

        self.Pin = Pin

    def PWM(self, pin: "PinLike") -> StubPWM:
        pin = _stub_pin(pin)
        pwm = StubPWM(pin)
        self.pwms[pin.id] = pwm
        return pwm

    def WDT(self, timeout: int) -> StubWDT:
        if self.watchdog is not None:
            raise RuntimeError("the watchdog can only be started once")
        self.watchdog = StubWDT(timeout)
        return self.watchdog


class StubNeoPixel:
    """A WS2812 chain: ``buffer`` is what was set, ``shown`` what the last write() sent."""

    def __init__(self, pin: StubPin, n: int) -> None:
        self.pin = pin
        self.n = n
        self.buffer = [(0, 0, 0)] * n
        self.shown = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, index: int, colour: tuple[int, int, int]) -> None:
        self.buffer[index] = colour

    def write(self) -> None:
        self.shown = list(self.buffer)
        self.writes += 1


class StubNeopixelModule:
    """Stands in for the ``neopixel`` module; ``chains`` holds every NeoPixel made."""

    def __init__(self) -> None:
        self.chains: list[StubNeoPixel] = []

    def NeoPixel(self, pin: "PinLike", n: int) -> StubNeoPixel:
        chain = StubNeoPixel(_stub_pin(pin), n)
        self.chains.append(chain)
        return chain


class StubMicropython:
    """Stands in for the ``micropython`` module; remembers the kbd_intr character."""

    def __init__(self) -> None:
        self.kbd_intr_char: int | None = None

    def kbd_intr(self, char: int) -> None:
        self.kbd_intr_char = char
