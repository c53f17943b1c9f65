"""Choosing the backend: ``--input``, the platform's default, GPIOZERO_PIN_FACTORY, and
the error on a Pi without lgpio."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from cabinet.inputs.controls import TEST
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.gpio import GpioInput
from cabinet.inputs.keyboard import KeyboardInput
from cabinet.inputs.mock import MockInput
from cabinet.inputs.select import (
    BackendUnavailableError,
    Platform,
    UnknownBackendError,
    add_input_argument,
    choose_backend,
    open_backend,
)

PI = Platform(is_pi=True, has_lgpio=True, has_display=True)
PI_WITHOUT_LGPIO = Platform(is_pi=True, has_lgpio=False, has_display=True)
DESKTOP = Platform(is_pi=False, has_lgpio=False, has_display=True)
HEADLESS = Platform(is_pi=False, has_lgpio=False, has_display=False)


@pytest.fixture
def fresh_gpiozero() -> Iterator[None]:
    """gpiozero's process-wide pin factory, reset before and after."""
    Device.pin_factory = None
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.close()
    Device.pin_factory = None


@pytest.mark.parametrize(
    ("platform", "expected"),
    [(PI, "gpio"), (PI_WITHOUT_LGPIO, "gpio"), (DESKTOP, "keyboard"), (HEADLESS, "mock")],
)
def test_the_default_backend_follows_the_platform(platform: Platform, expected: str) -> None:
    assert choose_backend(None, platform) == expected


def test_a_named_pin_factory_means_gpio_even_off_a_pi() -> None:
    platform = Platform(False, False, True, pin_factory="mock")
    assert choose_backend(None, platform) == "gpio"


def test_an_explicit_choice_wins_and_a_wrong_one_is_refused() -> None:
    assert choose_backend("Keyboard", PI) == "keyboard"
    assert choose_backend("mock", PI) == "mock"
    with pytest.raises(UnknownBackendError, match="choose one of gpio, mock, keyboard"):
        choose_backend("joystick", PI)


def test_a_pi_without_lgpio_says_what_to_install() -> None:
    with pytest.raises(BackendUnavailableError, match=r"pip install 'spit-cabinet\[pi\]'"):
        open_backend("gpio", EdgeQueue(), platform=PI_WITHOUT_LGPIO)


def test_gpio_off_a_pi_without_a_pin_factory_points_elsewhere() -> None:
    with pytest.raises(BackendUnavailableError, match="--input keyboard or --input mock"):
        open_backend("gpio", EdgeQueue(), platform=DESKTOP)


def test_a_named_gpio_chip_means_gpio_on_that_chip() -> None:
    """The virtual Pi's buttons are on the kernel's simulated chip, named by number."""
    chip = Platform.detect({"SPIT_CABINET_GPIO_CHIP": " 3 ", "SDL_VIDEODRIVER": "dummy"})
    assert chip.gpio_chip == 3
    assert choose_backend(None, chip) == "gpio"
    assert Platform.detect({}).gpio_chip is None
    with pytest.raises(BackendUnavailableError, match="SPIT_CABINET_GPIO_CHIP='chip3' is not"):
        Platform.detect({"SPIT_CABINET_GPIO_CHIP": "chip3"})
    no_lgpio = Platform(is_pi=False, has_lgpio=False, has_display=False, gpio_chip=3)
    with pytest.raises(BackendUnavailableError, match="SPIT_CABINET_GPIO_CHIP is set but"):
        open_backend("gpio", EdgeQueue(), platform=no_lgpio)


def test_gpiozero_pin_factory_is_honoured(
    fresh_gpiozero: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    platform = Platform.detect()
    assert platform.pin_factory == "mock"
    backend = open_backend(choose_backend(None, platform), EdgeQueue(), platform=platform)
    assert isinstance(backend, GpioInput) and not isinstance(backend, MockInput)
    with backend:
        assert isinstance(backend.pin_factory, MockFactory)
        backend.devices[TEST].pin.drive_low()
        assert [e.control for e in backend.edges.take() if not e.initial] == [TEST]


def test_mock_and_keyboard_open_without_hardware() -> None:
    assert isinstance(open_backend("mock", EdgeQueue(), platform=HEADLESS), MockInput)
    assert isinstance(open_backend("keyboard", EdgeQueue(), platform=HEADLESS), KeyboardInput)


@pytest.mark.parametrize(
    ("environ", "display"),
    [
        ({"DISPLAY": ":0"}, True),
        ({"WAYLAND_DISPLAY": "wayland-0"}, True),
        ({}, False),
        ({"DISPLAY": ":0", "SDL_VIDEODRIVER": "dummy"}, False),
        ({"SDL_VIDEODRIVER": "kmsdrm"}, True),
    ],
)
def test_detect_sees_a_display(environ: dict[str, str], display: bool) -> None:
    assert Platform.detect(environ).has_display is display


def test_the_input_option_parses() -> None:
    parser = argparse.ArgumentParser()
    add_input_argument(parser)
    assert parser.parse_args([]).input is None
    assert parser.parse_args(["--input", "mock"]).input == "mock"
    with pytest.raises(SystemExit):
        parser.parse_args(["--input", "joystick"])
