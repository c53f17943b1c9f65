"""The gpio backend: one gpiozero device per button, every edge with its kernel timestamp.

Each control is a :class:`TimestampedButton` (a gpiozero ``DigitalInputDevice`` wired
active-low: the button connects the GPIO to ground, the Pi's internal pull-up holds it
high) with ``bounce_time=None``. The device reads the time of each edge from the pin's
``when_changed(ticks, state)`` call, never from the time its callback happens to run:

- lgpio factory (the Pi): ``ticks`` is the kernel's ``timestamp_ns`` of the GPIO line
  event (CLOCK_MONOTONIC), which gpiozero divides by 1e9 into float seconds.
- MockFactory: ``ticks`` is ``time.monotonic()`` (float seconds, CLOCK_MONOTONIC) at the
  moment the mock pin was driven, or the explicit time a
  :class:`~cabinet.inputs.mock.TimedMockPin` was driven with.

Both are float seconds on CLOCK_MONOTONIC, converted to int ns at the edge
(:func:`ticks_to_ns`). The rpigpio and native factories give the time the callback ran
(still CLOCK_MONOTONIC seconds, but not a hardware timestamp); pigpio gives its daemon's
wrapping microsecond counter, on another clock, and is refused. See ``docs/input.md``.

The pin numbers come from a pin map ``{control: BCM number}``; the cabinet passes the
installer's map from ``wiring/``, and :data:`DEFAULT_PINS` is the built-in fallback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import Device, DigitalInputDevice

from cabinet.inputs.base import InputBackend
from cabinet.inputs.clock import Clock, monotonic_clock
from cabinet.inputs.controls import ALL_CONTROLS, REQUIRED_CONTROLS, Control
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from game.values import is_int
from wiring.default import DEFAULT_PIN_MAP
from wiring.pinmap import PinMap


def pins_from_wiring(pin_map: PinMap) -> dict[Control, int]:
    """The input layer's ``{control: BCM}`` from the installer's pin map (``wiring/``).
    The door switch is not an input control here: the service menu reads it itself."""
    pins: dict[Control, int] = {}
    for assignment in pin_map.assignments:
        control = Control.from_wiring(assignment.control)
        if control is not None:
            pins[control] = assignment.bcm
    return pins


DEFAULT_PINS: dict[Control, int] = pins_from_wiring(DEFAULT_PIN_MAP)
"""The default map of ``wiring/`` (``spit-cabinet wiring`` prints it, ``docs/wiring.md``
draws it): the one to wire by, unless the installer's override file says otherwise."""

_HEADER_GPIOS = range(28)
"""BCM GPIOs on the 40-pin header (0 to 27)."""


class PinMapError(ValueError):
    """A pin map misses a required control, names one twice, or gives a number that is
    not a BCM GPIO of the 40-pin header."""


class UnsupportedPinFactoryError(ValueError):
    """The gpiozero pin factory reports edge times on a clock the referee cannot use."""


def check_pin_map(pins: Mapping[Control, int]) -> dict[Control, int]:
    """The pin map, checked: every required control (the coin lines may be left out)
    once, each on its own header GPIO (0 to 27)."""
    missing = [c.name for c in REQUIRED_CONTROLS if c not in pins]
    if missing:
        raise PinMapError(f"the pin map has no pin for {', '.join(missing)}")
    unknown = [repr(c) for c in pins if c not in ALL_CONTROLS]
    if unknown:
        raise PinMapError(f"the pin map names unknown controls: {', '.join(unknown)}")
    owner: dict[int, Control] = {}
    wired = [c for c in ALL_CONTROLS if c in pins]
    for control in wired:
        bcm = pins[control]
        if not is_int(bcm) or bcm not in _HEADER_GPIOS:
            raise PinMapError(
                f"{control.name}: {bcm!r} is not a BCM GPIO of the 40-pin header (0 to 27)"
            )
        if bcm in owner:
            raise PinMapError(f"GPIO{bcm} is given to both {owner[bcm].name} and {control.name}")
        owner[bcm] = control
    return {c: pins[c] for c in wired}


def ticks_to_ns(ticks: float) -> int:
    """gpiozero's ``ticks`` for the lgpio and mock factories (float seconds on
    CLOCK_MONOTONIC) as integer nanoseconds.

    A double holds the kernel's integer nanoseconds exactly enough to round back to the
    same value for the first 26 days of uptime (2**51 ns); after that the rounding error
    grows to a few ns, far below the switch's own timing noise.
    """
    return round(ticks * 1_000_000_000)


class TimestampedButton(DigitalInputDevice):
    """A button wired from a GPIO to ground (internal pull-up, active low) that reports
    every edge, with the pin's own timestamp, to ``on_edge(pressed, t_ns)``.

    ``bounce_time`` is always ``None``: debouncing happens later, with the first edge's
    timestamp kept (see :mod:`cabinet.inputs.debounce`). ``on_edge`` runs on the pin
    factory's callback thread; it should only queue the edge.
    """

    def __init__(
        self,
        pin: int | str,
        *,
        on_edge: Callable[[bool, int], None],
        pin_factory: Any = None,
    ) -> None:
        self._on_edge = on_edge
        super().__init__(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)

    def _pin_changed(self, ticks: float, state: int | bool) -> None:
        pressed = bool(self._state_to_value(state))
        self._on_edge(pressed, ticks_to_ns(ticks))
        super()._pin_changed(ticks, state)


def _factory_kind(factory: Any) -> str:
    module = type(factory).__module__
    return module.rsplit(".", 1)[-1] if module.startswith("gpiozero.pins.") else module


class GpioInput(InputBackend):
    """The cabinet's buttons on GPIO through gpiozero.

    ``pins`` maps each control to its BCM number (default :data:`DEFAULT_PINS`);
    ``pin_factory`` is gpiozero's (default: gpiozero's process-wide one, which honours
    ``GPIOZERO_PIN_FACTORY``).
    """

    name = "gpio"

    def __init__(
        self,
        edges: EdgeQueue,
        *,
        pins: Mapping[Control, int] | None = None,
        pin_factory: Any = None,
        clock: Clock = monotonic_clock,
    ) -> None:
        super().__init__(edges, clock=clock)
        self.pins = check_pin_map(pins if pins is not None else DEFAULT_PINS)
        self._factory = pin_factory
        self.devices: dict[Control, TimestampedButton] = {}

    @property
    def pin_factory(self) -> Any:
        """The gpiozero pin factory in use (resolved when the backend opens)."""
        return self._factory

    def open(self) -> None:
        if self.is_open:
            return
        if self._factory is None:
            Device.ensure_pin_factory()
            self._factory = Device.pin_factory
        kind = _factory_kind(self._factory)
        if kind == "pigpio":
            raise UnsupportedPinFactoryError(
                "the pigpio pin factory stamps edges with the pigpio daemon's 32-bit "
                "microsecond counter, not CLOCK_MONOTONIC; use lgpio "
                "(GPIOZERO_PIN_FACTORY=lgpio, pip install 'spit-cabinet[pi]')"
            )
        self.hardware_timestamps = kind in ("lgpio", "mock")
        try:
            for control, bcm in self.pins.items():
                self.devices[control] = TimestampedButton(
                    bcm, on_edge=self._reporter(control), pin_factory=self._factory
                )
        except BaseException:
            self.close()
            raise
        self.is_open = True
        for control, device in self.devices.items():
            self._put_initial(control, bool(device.is_active))

    def _reporter(self, control: Control) -> Callable[[bool, int], None]:
        put = self.edges.put

        def on_edge(pressed: bool, t_ns: int) -> None:
            put(RawEdge(control, pressed, t_ns))

        return on_edge

    def close(self) -> None:
        for device in self.devices.values():
            device.close()
        self.devices.clear()
        self.is_open = False
