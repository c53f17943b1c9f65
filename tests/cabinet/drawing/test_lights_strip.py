"""The on-screen lights: colours by mode and time, and when they next change."""

from __future__ import annotations

from cabinet.drawing.lights_strip import UNLIT, light_colour
from firmware_bridge.lights import GREEN, RED, Light
from game.units import MS


def test_off_and_on_are_steady() -> None:
    assert light_colour(Light.off(), 123) == (UNLIT, None)
    assert light_colour(Light.on(RED), 123) == (RED, None)


def test_blink_is_on_for_the_first_half_of_each_period() -> None:
    light = Light.blink(400, GREEN)
    assert light_colour(light, 0) == (GREEN, 200 * MS)
    assert light_colour(light, 199 * MS) == (GREEN, 200 * MS)
    assert light_colour(light, 200 * MS) == (UNLIT, 400 * MS)
    assert light_colour(light, 1_200 * MS) == (GREEN, 1_400 * MS)


def test_pulse_is_dark_at_the_start_and_brightest_halfway() -> None:
    light = Light.pulse(1200, RED)
    dark, change = light_colour(light, 0)
    assert dark == UNLIT and change == 50 * MS
    assert light_colour(light, 600 * MS)[0] == RED
    quarter = light_colour(light, 300 * MS)[0]
    assert UNLIT[0] < quarter[0] < RED[0]
    assert light_colour(light, 900 * MS)[0] == quarter
