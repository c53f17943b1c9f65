"""The jig's pins: two open-drain outputs across the cabinet's button lines, a start
button and the board's LED (MicroPython subset).

Each class takes the ``machine`` module as an argument, so the tests can hand it the
fake hardware of :mod:`firmware_bridge.jig.fake`.

How the jig is wired (docs/fairness.md): each line GPIO to one cabinet button line (the
NO tab of that pile button, or the Pi's header pin it runs to), the Pico's GND to the
cabinet's ground, nothing else. Never a 5 V pin (the Pico's VBUS or VSYS): neither the
Pico's GPIOs nor the Pi's take more than 3.3 V.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from firmware_bridge.jig.interfaces import JigMachineLike, JigPinLike


class OpenDrainLine:
    """One cabinet button line, worked as a button works it: pulled to ground, or let go.

    A cabinet button is a switch from its line to ground; the Pi's own pull-up (about
    50 kΩ to 3.3 V) holds the line high while nothing presses. The jig does exactly what
    the switch does, with the GPIO ``pin_id`` in open-drain mode: :meth:`press` turns the
    pin's output on at 0 V, sinking the line to ground (about 66 µA through the pull-up);
    :meth:`release` turns the output off, so the pin is high impedance (an input) and the
    cabinet's pull-up brings the line back up. The jig never drives the line high: a pin
    driven to 3.3 V would fight a real button pressed at the same moment (a short from the
    Pico's supply to ground through the switch) and would feed the cabinet's input while
    the Pi is off.

    The pin's own pull-up and pull-down are switched off: the RP2040's pull-down, on at
    reset, would sit against the Pi's pull-up and hold the line half-way, where neither
    side reads it reliably. On the RP2040 MicroPython makes open drain by switching the
    pin's direction with its output held at 0 (``value(0)``: output, low; ``value(1)``:
    input), so the line is never driven high even for an instant. The pin starts let go.
    """

    def __init__(self, machine: "JigMachineLike", pin_id: int) -> None:
        pin_class = machine.Pin
        self.pin_id = pin_id
        self._pin: JigPinLike = pin_class(pin_id, pin_class.OPEN_DRAIN, None, value=1)

    def press(self) -> None:
        """Pull the line to ground, as a button pressed."""
        self._pin.value(0)

    def release(self) -> None:
        """Let the line go (high impedance): the cabinet's pull-up raises it."""
        self._pin.value(1)


class StartButton:
    """A push button from the GPIO ``pin_id`` to ground (the Pico's pull-up on): pressed
    reads 0. Unwired, the pull-up keeps it released."""

    def __init__(self, machine: "JigMachineLike", pin_id: int) -> None:
        pin_class = machine.Pin
        self.pin_id = pin_id
        self._pin: JigPinLike = pin_class(pin_id, pin_class.IN, pin_class.PULL_UP)

    @property
    def is_pressed(self) -> bool:
        return self._pin.value() == 0


class Led:
    """The Pico's own LED (``Pin("LED")``, on a Pico and a Pico W alike), or nothing on a
    board that has none by that name."""

    def __init__(self, machine: "JigMachineLike") -> None:
        pin_class = machine.Pin
        self._pin: JigPinLike | None = None
        self.lit = False
        try:
            self._pin = pin_class("LED", pin_class.OUT, None, value=0)
        except (ValueError, TypeError):  # no pin by that name on this board
            self._pin = None

    def show(self, lit: bool) -> None:
        """Light the LED or put it out (only when that changes)."""
        if lit != self.lit:
            self.lit = lit
            if self._pin is not None:
                self._pin.value(1 if lit else 0)
