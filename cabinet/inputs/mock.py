"""The mock backend: the gpio backend on gpiozero's MockFactory, with pins that take an
explicit timestamp.

Off a Pi, and in tests, buttons are gpiozero mock pins. :class:`TimedMockPin` behaves
like a pin on the lgpio factory: driving it calls the pin's change handler with
``ticks`` for the time the edge happened (float seconds on CLOCK_MONOTONIC, as lgpio
hands over the kernel's timestamp), and that time is given explicitly, so a test can
press two buttons 1 µs apart and deliver them in either order.

:class:`MockInput` adds ``press``/``release``/``bounce`` by control, and
:func:`simultaneous_presses` plus :func:`play_out` stage races: presses of both players
at chosen times, delivered to the referee's side in a chosen order at chosen clock
readings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin, PinState

from cabinet.inputs.clock import Clock, VirtualClock, monotonic_clock
from cabinet.inputs.controls import Control
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.feed import FeedEvent, RefereeFeed
from cabinet.inputs.gpio import GpioInput
from game.units import S


class TimedMockPin(MockPin):
    """A mock input pin driven at explicit times.

    ``drive_at(high, t_ns)`` sets the level as if the edge happened at ``t_ns`` (ns on
    CLOCK_MONOTONIC) and, when the level changes, calls the change handler with
    ``ticks = t_ns / 1e9`` on the calling thread, as lgpio's callback thread does.
    ``drive_high()``/``drive_low()`` still work, stamped with the time of the call.
    """

    _state: bool
    _last_change: float
    """(gpiozero's own attributes, typed here for the checker.)"""

    grounded = False
    """A button holds this pin to ground: the pull-up cannot raise it (a button held
    down, or stuck, when the cabinet starts)."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        if self.grounded and self._state:
            self._state = False

    def drive_at(self, high: bool, t_ns: int) -> None:
        if self._function != "input":
            raise ValueError(f"pin {self.info.name} is not an input")
        if self._state == high:
            return
        t = t_ns / S
        self._state = high
        self.states.append(PinState(t - self._last_change, high))
        self._last_change = t
        rising = "rising" if high else "falling"
        if self._edges in ("both", rising) and self._when_changed is not None:
            self._call_when_changed()


class MockInput(GpioInput):
    """The gpio backend on a private gpiozero MockFactory of :class:`TimedMockPin`.

    Buttons are active-low: :meth:`press` drives the pin low, :meth:`release` high.
    Times default to the backend's clock.
    """

    name = "mock"

    def __init__(
        self,
        edges: EdgeQueue,
        *,
        pins: Mapping[Control, int] | None = None,
        clock: Clock = monotonic_clock,
    ) -> None:
        super().__init__(
            edges, pins=pins, pin_factory=MockFactory(pin_class=TimedMockPin), clock=clock
        )

    def hold_at_power_on(self, control: Control) -> None:
        """Before :meth:`open`: ``control``'s button is already down when the cabinet
        starts, so the first reading finds it pressed (no edge)."""
        if self.is_open:
            raise RuntimeError("hold_at_power_on() must come before open()")
        pin = self.pin_factory.pin(self.pins[control])
        assert isinstance(pin, TimedMockPin)
        pin.grounded = True

    def pin(self, control: Control) -> TimedMockPin:
        """The mock pin wired to ``control``."""
        pin = self.devices[control].pin
        assert isinstance(pin, TimedMockPin)
        return pin

    def press(self, control: Control, t_ns: int | None = None) -> None:
        """Push ``control``'s button down at ``t_ns`` (default: now)."""
        self.pin(control).drive_at(False, self.clock() if t_ns is None else t_ns)

    def release(self, control: Control, t_ns: int | None = None) -> None:
        """Let ``control``'s button up at ``t_ns`` (default: now)."""
        pin = self.pin(control)
        pin.grounded = False
        pin.drive_at(True, self.clock() if t_ns is None else t_ns)

    def change(self, control: Control, pressed: bool, t_ns: int) -> None:
        """Push ``control``'s button down (``pressed``) or let it up at ``t_ns``."""
        (self.press if pressed else self.release)(control, t_ns)

    def bounce(self, control: Control, times_ns: Sequence[int], *, pressed_first: bool) -> None:
        """Toggle ``control``'s pin at each of ``times_ns`` in turn, starting with a press
        (``pressed_first``) or a release: a contact bouncing."""
        pressed = pressed_first
        for t in times_ns:
            if pressed:
                self.press(control, t)
            else:
                self.release(control, t)
            pressed = not pressed

    def close(self) -> None:
        factory = self.pin_factory
        super().close()
        if factory is not None:
            factory.close()


@dataclass(frozen=True, slots=True)
class ScheduledEdge:
    """An edge to stage: ``control`` goes down (``pressed``) or up at ``t_ns``, and the
    referee's side takes it in at clock reading ``delivered_ns`` (>= ``t_ns``)."""

    control: Control
    pressed: bool
    t_ns: int
    delivered_ns: int

    def __post_init__(self) -> None:
        if self.delivered_ns < self.t_ns:
            raise ValueError(
                f"{self.control.name}: delivered at {self.delivered_ns} ns, "
                f"before it happened at {self.t_ns} ns"
            )


def simultaneous_presses(
    presses: Sequence[tuple[Control, int]],
    delivery_order: Sequence[int],
    *,
    delivered_from_ns: int,
    spacing_ns: int = 100_000,
) -> list[ScheduledEdge]:
    """Presses of several buttons (``(control, t_ns)`` each) delivered in
    ``delivery_order`` (indices into ``presses``, first delivered first): the k-th
    delivery at ``delivered_from_ns + k * spacing_ns``.

    ``simultaneous_presses([(a, t), (b, t + 1_000)], [1, 0], delivered_from_ns=t + 2_000)``
    is a race ``a`` won by 1 µs that software sees ``b`` first.
    """
    if sorted(delivery_order) != list(range(len(presses))):
        raise ValueError(
            f"delivery_order must list each of the {len(presses)} presses once, "
            f"got {list(delivery_order)}"
        )
    return [
        ScheduledEdge(presses[i][0], True, presses[i][1], delivered_from_ns + k * spacing_ns)
        for k, i in enumerate(delivery_order)
    ]


def play_out(
    mock: MockInput,
    feed: RefereeFeed,
    clock: VirtualClock,
    edges: Sequence[ScheduledEdge],
    *,
    on_events: Callable[[list[FeedEvent]], Any] | None = None,
) -> list[FeedEvent]:
    """Stage ``edges`` through the mock pins: in delivery order, move ``clock`` to each
    edge's delivery time, drive its pin at its ``t_ns`` and pump the feed. Returns every
    event the pumps reported, in order."""
    events: list[FeedEvent] = []
    for edge in sorted(edges, key=lambda e: e.delivered_ns):
        clock.set(edge.delivered_ns)
        if edge.pressed:
            mock.press(edge.control, edge.t_ns)
        else:
            mock.release(edge.control, edge.t_ns)
        new = feed.pump()
        if on_events is not None:
            on_events(new)
        events.extend(new)
    return events
