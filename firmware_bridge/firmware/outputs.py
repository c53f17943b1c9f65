"""Light outputs: plain on/off pins, PWM pins, or a WS2812 chain (MicroPython subset).

Each output takes the ``machine`` (and ``neopixel``) module as an argument, so the
simulator can hand it stub hardware. ``show`` takes one (red, green, blue) per light and
touches the hardware only when something changed.
"""

from firmware_bridge import codec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from firmware_bridge.firmware.config import Config
    from firmware_bridge.firmware.interfaces import (
        MachineLike,
        NeopixelLike,
        PinLike,
        PixelsLike,
        PwmLike,
    )

#: A plain on/off LED is lit when the wanted brightness is at least this (0..255).
PLAIN_THRESHOLD = 32


def brightness(colour: tuple[int, int, int]) -> int:
    """Single-colour brightness 0..255 of a wanted colour: its brightest channel."""
    return max(colour)


def duty_for(level: int, active_low: bool) -> int:
    """16-bit PWM duty for brightness ``level`` (0..255), gamma 2 so steps look even."""
    duty = level * level * 65535 // 65025
    return 65535 - duty if active_low else duty


class PlainOutput:
    """On/off LEDs, one GPIO each (capability CAP_PLAIN)."""

    capabilities = codec.CAP_PLAIN

    def __init__(self, machine: "MachineLike", pins: list[int], active_low: bool) -> None:
        self._pins: list[PinLike] = [machine.Pin(p, machine.Pin.OUT) for p in pins]
        self._active_low = active_low
        self._last: list[tuple[int, int, int]] | None = None
        for pin in self._pins:
            pin.value(1 if active_low else 0)

    def show(self, colours: list[tuple[int, int, int]]) -> None:
        if colours == self._last:
            return
        self._last = colours
        for i, pin in enumerate(self._pins):
            lit = brightness(colours[i]) >= PLAIN_THRESHOLD
            pin.value(1 if lit != self._active_low else 0)


class PwmOutput:
    """LEDs on PWM pins, brightness by duty cycle (capability CAP_PWM)."""

    capabilities = codec.CAP_PWM

    def __init__(
        self, machine: "MachineLike", pins: list[int], freq_hz: int, active_low: bool
    ) -> None:
        self._pwms: list[PwmLike] = []
        self._active_low = active_low
        self._last: list[tuple[int, int, int]] | None = None
        for p in pins:
            pwm = machine.PWM(machine.Pin(p, machine.Pin.OUT))
            pwm.freq(freq_hz)
            pwm.duty_u16(duty_for(0, active_low))
            self._pwms.append(pwm)

    def show(self, colours: list[tuple[int, int, int]]) -> None:
        if colours == self._last:
            return
        last = self._last
        self._last = colours
        for i, pwm in enumerate(self._pwms):
            if last is None or last[i] != colours[i]:
                pwm.duty_u16(duty_for(brightness(colours[i]), self._active_low))


class PixelOutput:
    """A WS2812 (NeoPixel) chain on one data pin, full colour (capability CAP_WS2812)."""

    capabilities = codec.CAP_WS2812

    def __init__(
        self, machine: "MachineLike", neopixel: "NeopixelLike", pin: int, count: int
    ) -> None:
        self._pixels: PixelsLike = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), count)
        self._count = count
        self._last: list[tuple[int, int, int]] | None = None
        self.show([(0, 0, 0)] * count)

    def show(self, colours: list[tuple[int, int, int]]) -> None:
        if colours == self._last:
            return
        self._last = colours
        for i in range(self._count):
            self._pixels[i] = colours[i]
        self._pixels.write()


def make_output(
    config: "Config", machine: "MachineLike", neopixel: "NeopixelLike | None"
) -> "PlainOutput | PwmOutput | PixelOutput":
    """The output the configuration asks for."""
    if config.driver == "ws2812":
        if neopixel is None:
            raise ValueError("the ws2812 driver needs the neopixel module")
        return PixelOutput(machine, neopixel, config.pixel_pin, config.pixel_count)
    if config.driver == "plain":
        return PlainOutput(machine, config.pins, config.active_low)
    return PwmOutput(machine, config.pins, config.pwm_freq_hz, config.active_low)
