"""The light values: names, modes, colours and periods are checked when a light is made."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import codec
from firmware_bridge.lights import (
    LIGHT_NAMES,
    RED,
    Light,
    LightError,
    LightState,
    Mode,
    UnknownLightError,
    index_of,
)


def test_there_are_fifteen_lights_in_protocol_order() -> None:
    assert len(LIGHT_NAMES) == codec.MAX_LIGHTS
    assert LIGHT_NAMES[:4] == ("stuck1", "stuck2", "spit", "p1_slot1")
    assert index_of("p2_pile2") == 14


@pytest.mark.parametrize(
    "use",
    [
        lambda: LightState.all_off().with_lights(stuck3=Light.on()),
        lambda: LightState.all_off()["Stuck1"],
        lambda: index_of("p1_slot5"),
        lambda: LightState.from_mapping({"spit ": Light.on()}),
    ],
)
def test_an_unknown_light_name_lists_the_real_ones(use: Any) -> None:
    with pytest.raises(UnknownLightError) as caught:
        use()
    message = str(caught.value)
    assert message.startswith(f"no light is called {caught.value.name!r}; the lights are stuck1,")
    assert message.endswith("p2_pile2")
    assert isinstance(caught.value, LightError) and isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Light(7), "light mode 7 is not one of off (0), on (1), blink (2), pulse (3)"),  # type: ignore[arg-type]
        (lambda: Light("blink"), "light mode 'blink' is not one of off (0)"),  # type: ignore[arg-type]
        (lambda: Light.on((256, 0, 0)), "colour (256, 0, 0) must be three whole numbers 0..255"),
        (lambda: Light.on((-1, 0, 0)), "colour (-1, 0, 0) must be three whole numbers"),
        (lambda: Light.on((255, 0)), "colour (255, 0) must be three whole numbers"),  # type: ignore[arg-type]
        (lambda: Light.on((1.5, 0, 0)), "colour (1.5, 0, 0) must be three whole numbers"),  # type: ignore[arg-type]
        (lambda: Light.on("red"), "colour 'red' must be three whole numbers"),  # type: ignore[arg-type]
        (lambda: Light.on(brightness=300), "brightness must be a whole number 0..255, got 300"),
        (
            lambda: Light.blink(19, RED),
            "a blink period must be a whole number of milliseconds from 20 to 65535, got 19",
        ),
        (
            lambda: Light.pulse(65536),
            "a pulse period must be a whole number of milliseconds from 20 to 65535, got 65536",
        ),
        (
            lambda: Light.blink(400.0),  # type: ignore[arg-type]
            "a blink period must be a whole number of milliseconds from 20 to 65535, got 400.0",
        ),
        (lambda: Light(Mode.ON, RED, 400), "a light that is on has no period (use 0), got 400"),
        (lambda: Light(Mode.OFF, period_ms=5), "a light that is off has no period"),
    ],
)
def test_a_light_that_cannot_be_shown_says_why(make: Any, message: str) -> None:
    with pytest.raises(LightError) as caught:
        make()
    assert message in str(caught.value)


def test_modes_given_as_numbers_and_colours_as_lists_are_normalised() -> None:
    light = Light(2, [255, 0, 0], 400)  # type: ignore[arg-type]
    assert light == Light.blink(400, RED)
    assert light.mode is Mode.BLINK and light.colour == RED
    assert hash(light) == hash(Light.blink(400, RED))


def test_brightness_is_white_at_that_level() -> None:
    assert Light.on(brightness=128) == Light(Mode.ON, (128, 128, 128))
    assert Light.pulse(1000, brightness=0).colour == (0, 0, 0)


def test_a_state_must_hold_every_light() -> None:
    with pytest.raises(LightError, match="a light state has 15 lights, got 14"):
        LightState((Light(),) * 14)
    with pytest.raises(LightError, match="light 'spit' must be a Light, got 'on'"):
        LightState((Light(), Light(), "on", *(Light(),) * 12))  # type: ignore[arg-type]


def test_with_lights_replaces_only_the_named_ones() -> None:
    base = LightState.all_off().with_lights(spit=Light.on())
    state = base.with_lights(stuck2=Light.blink(300, RED))
    assert state.lit() == {"spit": Light.on(), "stuck2": Light.blink(300, RED)}
    assert base.lit() == {"spit": Light.on()}, "states are immutable"
    assert state["stuck1"] == Light.off()


lights = st.one_of(
    st.just(Light.off()),
    st.builds(Light.on, st.tuples(*[st.integers(0, 255)] * 3)),
    st.builds(
        Light.blink, st.integers(codec.MIN_PERIOD_MS, 0xFFFF), st.tuples(*[st.integers(0, 255)] * 3)
    ),
    st.builds(
        Light.pulse, st.integers(codec.MIN_PERIOD_MS, 0xFFFF), st.tuples(*[st.integers(0, 255)] * 3)
    ),
)


@given(st.lists(lights, min_size=15, max_size=15))
def test_a_state_survives_its_snapshot_payload(chosen: list[Light]) -> None:
    state = LightState(tuple(chosen))
    payload = state.payload()
    assert len(payload) == 1 + codec.RECORD_LEN * 15
    assert LightState.from_payload(payload) == state
