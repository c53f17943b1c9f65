"""The gpio backend on gpiozero's MockFactory: pin maps, the pin's own timestamps, the
slot-then-pile gesture through real mock pins."""

from __future__ import annotations

import re
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from hypothesis import given
from hypothesis import strategies as st

from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.controls import COIN1, COIN2, SERVICE, TEST, Control
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from cabinet.inputs.gpio import (
    DEFAULT_PINS,
    GpioInput,
    PinMapError,
    UnsupportedPinFactoryError,
    check_pin_map,
    ticks_to_ns,
)
from cabinet.inputs.mock import MockInput, ScheduledEdge, play_out
from game.edges import Button
from game.events import Played, Selected

from .conftest import RACE_DECKS, START_NS, make_feed, ms, referee_for


def test_the_default_pin_map_is_valid_and_leaves_the_buses_free() -> None:
    pins = check_pin_map(DEFAULT_PINS)
    used = set(pins.values())
    assert len(used) == 15  # 12 player buttons, TEST, SERVICE and coin 1
    assert pins[COIN1] == 4 and COIN2 not in pins
    assert used.isdisjoint({0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15})


def test_a_pin_map_may_leave_the_coin_lines_out_but_not_a_button() -> None:
    pins = {c: b for c, b in DEFAULT_PINS.items() if c not in (COIN1, COIN2)}
    assert COIN1 not in check_pin_map(pins)
    with pytest.raises(PinMapError, match="GPIO4 is given to both coin1 and coin2"):
        check_pin_map(dict(DEFAULT_PINS) | {COIN2: 4})


def test_pin_map_errors_name_the_control() -> None:
    pins = dict(DEFAULT_PINS)
    del pins[SERVICE]
    with pytest.raises(PinMapError, match="no pin for service"):
        check_pin_map(pins)
    pins = dict(DEFAULT_PINS) | {TEST: DEFAULT_PINS[Control(0, Button.SLOT1)]}
    with pytest.raises(PinMapError, match=re.escape("GPIO17 is given to both p1.slot1 and test")):
        check_pin_map(pins)
    pins = dict(DEFAULT_PINS) | {Control(1, Button.PILE2): 40}
    with pytest.raises(PinMapError, match=re.escape("p2.pile2: 40 is not a BCM GPIO")):
        check_pin_map(pins)


@given(st.integers(0, 2**51))
def test_float_second_ticks_round_trip_to_the_same_nanosecond(t_ns: int) -> None:
    assert ticks_to_ns(t_ns / 1e9) == t_ns


def test_an_edge_carries_the_pins_timestamp_not_the_callback_time(
    mock: MockInput, edges: EdgeQueue
) -> None:
    edges.take()
    # The edge happened 1 s before the clock the backend holds: the callback runs now,
    # yet the edge must say when it happened.
    mock.press(Control(0, Button.PILE1), START_NS - 10**9 + 7)
    mock.release(Control(0, Button.PILE1), START_NS - 10**9 + 50_000_007)
    assert edges.take() == [
        RawEdge(Control(0, Button.PILE1), True, START_NS - 10**9 + 7),
        RawEdge(Control(0, Button.PILE1), False, START_NS - 10**9 + 50_000_007),
    ]
    assert mock.hardware_timestamps


def test_gpiozeros_own_mock_pins_are_stamped_on_the_monotonic_clock() -> None:
    edges = EdgeQueue()
    backend = GpioInput(edges, pin_factory=MockFactory(pin_class=MockPin))
    backend.open()
    try:
        edges.take()
        before = time.monotonic_ns()
        backend.devices[Control(1, Button.SLOT3)].pin.drive_low()
        after = time.monotonic_ns()
        (edge,) = edges.take()
        assert edge.control == Control(1, Button.SLOT3) and edge.pressed
        assert before - 1_000 <= edge.t_ns <= after + 1_000  # float seconds: ±1 µs
    finally:
        backend.close()


def test_opening_reports_every_controls_level_and_uses_bounce_time_none(
    mock: MockInput, clock: VirtualClock
) -> None:
    initial = mock.edges.take()
    assert len(initial) == 15  # 12 player buttons, TEST, SERVICE, coin 1
    assert all(e.initial and not e.pressed and e.t_ns == START_NS for e in initial)
    assert all(device.pin.bounce is None for device in mock.devices.values())
    assert mock.pin(Control(0, Button.SLOT1)).pull == "up"


def test_the_pigpio_factory_is_refused() -> None:
    class PiGPIOFactory:  # only its module path matters to the check
        pass

    PiGPIOFactory.__module__ = "gpiozero.pins.pigpio"
    backend = GpioInput(EdgeQueue(), pin_factory=PiGPIOFactory())
    with pytest.raises(UnsupportedPinFactoryError, match="use lgpio"):
        backend.open()


def test_a_custom_pin_map_moves_the_buttons(edges: EdgeQueue, clock: VirtualClock) -> None:
    # GPIO4 (coin 1's) and GPIO21 (the meter's) are free once those are left out.
    pins = {c: b for c, b in DEFAULT_PINS.items() if c != COIN1}
    pins |= {Control(0, Button.SLOT1): 4, Control(1, Button.PILE1): 21}
    backend = MockInput(edges, pins=pins, clock=clock)
    backend.open()
    try:
        assert backend.pin(Control(0, Button.SLOT1)).info.name == "GPIO4"
        assert backend.pin(Control(1, Button.PILE1)).info.name == "GPIO21"
    finally:
        backend.close()


def tap(control: Control, t_ns: int) -> list[ScheduledEdge]:
    """A 40 ms press of ``control`` at ``t_ns``, each edge delivered 0.5 ms after it."""
    return [
        ScheduledEdge(control, True, t_ns, t_ns + ms(0.5)),
        ScheduledEdge(control, False, t_ns + ms(40), t_ns + ms(40.5)),
    ]


def test_the_gesture_slot_then_pile_through_mock_pins(mock: MockInput, clock: VirtualClock) -> None:
    referee = referee_for(RACE_DECKS)
    feed = make_feed(mock, clock, referee)
    t = START_NS + ms(100)
    staged = [
        *tap(Control(0, Button.PILE1), t),  # a pile press with nothing selected does nothing
        *tap(Control(0, Button.SLOT4), t + ms(100)),  # slot 4 selected,
        *tap(Control(0, Button.SLOT1), t + ms(200)),  # then slot 1 instead,
        *tap(Control(0, Button.PILE1), t + ms(300)),  # then pile 1: slot 1's card is played
    ]
    events = play_out(mock, feed, clock, staged)
    clock.advance(referee.window_ns)
    events += feed.pump()
    assert referee.stats.pile_without_selection == 1
    selected = [e.slot for e in events if isinstance(e, Selected)]
    assert selected == [3, 0]
    played = [e for e in events if isinstance(e, Played)]
    assert [(p.player, p.slot, p.pile, p.card.notation(), p.t_ns) for p in played] == [
        (0, 0, 0, "6S", t + ms(300) - START_NS)
    ]
    assert referee.selected(0) is None
    assert len(referee.stats.edge_log) == 8
    assert [(e.delivered_ns or 0) - e.t_ns for e in referee.stats.edge_log] == [ms(0.5)] * 8
    assert referee.stats.late_edges == 0
