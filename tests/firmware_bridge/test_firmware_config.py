"""The board's configuration file: defaults, and errors an installer can act on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge.firmware.config import DEFAULTS, Config, ConfigError, load_config

SHIPPED = Path(__file__).resolve().parents[2] / "firmware_bridge" / "firmware" / "config.json"


def test_the_shipped_file_is_the_defaults() -> None:
    assert json.loads(SHIPPED.read_text(encoding="utf-8")) == DEFAULTS
    config = Config()
    assert config.driver == "pwm"
    assert config.light_count == 15
    assert config.link_lost_rgb == (96, 48, 0)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"driver": "rgb"}, "driver must be one of plain, pwm, ws2812; got 'rgb'"),
        ({"pin": [2]}, "unknown configuration key 'pin'; the keys are driver, pins, active_low,"),
        ({"pins": 2}, "pins must be a list of whole numbers, got 2"),
        ({"pins": [2, 3, 30]}, "pins[2] must be a whole number from 0 to 29, got 30"),
        ({"pins": [2, "GP3"]}, "pins[1] must be a whole number from 0 to 29, got 'GP3'"),
        ({"pins": [2, True]}, "pins[1] must be a whole number from 0 to 29, got True"),
        ({"pins": []}, "pins must list 1 to 15 GPIO numbers, got 0"),
        ({"pins": list(range(16))}, "pins must list 1 to 15 GPIO numbers, got 16"),
        (
            {"pins": [2, 3, 4, 3]},
            "pins lists GPIO 3 twice (lights 1 and 3); every light needs its own pin",
        ),
        (
            {"driver": "plain", "pins": [5, 5]},
            "pins lists GPIO 5 twice (lights 0 and 1); every light needs its own pin",
        ),
        ({"pixel_count": 16}, "pixel_count must be a whole number from 1 to 15, got 16"),
        ({"watchdog_ms": 9000}, "watchdog_ms must be a whole number from 0 to 8388, got 9000"),
        ({"link_lost_rgb": [1, 2]}, "link_lost_rgb must be three numbers (red, green, blue)"),
        ({"link_lost_rgb": [1, 2, 256]}, "link_lost_rgb[2] must be a whole number from 0 to 255"),
        ({"pwm_freq_hz": 99.5}, "pwm_freq_hz must be a whole number from 100 to 100000, got 99.5"),
    ],
)
def test_a_bad_entry_is_named_with_what_it_should_be(
    values: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        Config(values)
    assert message in str(caught.value)


def test_ws2812_needs_no_pin_list() -> None:
    config = Config({"driver": "ws2812", "pins": [], "pixel_count": 6})
    assert config.light_count == 6


def test_a_missing_file_means_the_defaults(tmp_path: Path) -> None:
    config = load_config(str(tmp_path / "lights.json"))
    assert (config.driver, config.pins) == ("pwm", DEFAULTS["pins"])


def test_a_file_is_read_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "lights.json"
    path.write_text('{"driver": "plain", "pins": [10, 11]}', encoding="utf-8")
    assert load_config(str(path)).pins == [10, 11]
    path.write_text('{"driver": "plain", "pins": [10, 10]}', encoding="utf-8")
    with pytest.raises(ConfigError, match="pins lists GPIO 10 twice"):
        load_config(str(path))
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ConfigError, match="must hold a JSON object"):
        load_config(str(path))
    path.write_text('{"driver": "pwm",}', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"lights\.json is not valid JSON"):
        load_config(str(path))
