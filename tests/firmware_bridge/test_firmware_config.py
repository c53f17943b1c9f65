"""The board's configuration file: defaults, and errors an installer can act on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge.firmware.board import CONFIG_ERROR_RGB, OFF, Board, config_error_lit
from firmware_bridge.firmware.config import (
    DEFAULTS,
    MAX_CONFIG_BYTES,
    MAX_CONFIG_DEPTH,
    Config,
    ConfigError,
    boot_config,
    load_config,
    parse_config,
)

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
        ({"pin": [2]}, "unknown configuration key 'pin'; the keys are active_low, driver, link_"),
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
        ({"active_low": "false"}, "active_low must be true or false, got 'false'"),
        ({"active_low": 0}, "active_low must be true or false, got 0"),
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


def test_the_size_limit_is_in_bytes_and_the_last_byte_counts() -> None:
    body = '{"driver": "plain"}'
    at_limit = body + " " * (MAX_CONFIG_BYTES - len(body))
    assert parse_config(at_limit.encode(), "x.json") == {"driver": "plain"}
    assert parse_config(at_limit, "x.json") == {"driver": "plain"}
    with pytest.raises(ConfigError, match=r"^x\.json is larger than 4096 bytes$"):
        parse_config(at_limit + " ", "x.json")
    # Characters are not bytes: 2100 "é" are 4200 bytes of UTF-8.
    with pytest.raises(ConfigError, match="larger than 4096 bytes"):
        parse_config('{"driver": "' + "é" * 2100 + '"}', "x.json")


def test_the_depth_limit_counts_brackets_outside_strings_only() -> None:
    def nested(depth: int) -> str:
        return "{" + '"pins": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"

    assert parse_config(nested(MAX_CONFIG_DEPTH)) == {"pins": [[[[[[[]]]]]]]}
    with pytest.raises(ConfigError, match=r"^lights\.json nests deeper than 8 levels$"):
        parse_config(nested(MAX_CONFIG_DEPTH + 1))
    # Brackets (and escaped quotes) inside strings are text, not nesting.
    text = '{"driver": "[[[[[[[[[[\\"{{{{{{{{{{{"}'
    assert parse_config(text) == {"driver": '[[[[[[[[[["{{{{{{{{{{{'}
    # Deep enough to crash CPython's parser, were it not checked first.
    with pytest.raises(ConfigError, match="nests deeper"):
        parse_config("[" * 2000)


def test_the_board_reads_no_more_than_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "lights.json"
    path.write_bytes(b'{"driver": "plain"}' + b" " * 10_000_000)
    with pytest.raises(ConfigError, match="larger than 4096 bytes"):
        load_config(str(path))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"driver": "laser"}', "driver must be one of plain, pwm, ws2812; got 'laser'"),
        (b'{"pins": [2, 3], "colour": 1}', "unknown configuration key 'colour'"),
        (b'{"pins": "GP2"}', "pins must be a list of whole numbers, got 'GP2'"),
        (b"[1, 2]", "lights.json must hold a JSON object, not a list"),
        (b'"pwm"', "lights.json must hold a JSON object, not a string"),
        (b"null", "lights.json must hold a JSON object, not null"),
        (b"12", "lights.json must hold a JSON object, not a number"),
        (b"{", "lights.json is not valid JSON ("),
        (b"\xff", "lights.json is not UTF-8 text"),
        (b"[" * 5000, "lights.json is larger than 4096 bytes"),
    ],
)
def test_the_board_boots_the_defaults_from_a_corrupt_file(
    tmp_path: Path, data: bytes, message: str
) -> None:
    path = tmp_path / "lights.json"
    path.write_bytes(data)
    config, error = boot_config(str(path))
    assert error is not None and message in error
    assert "\n" not in error
    assert vars(config) == vars(Config())


def test_the_board_boots_a_good_or_missing_file_without_error(tmp_path: Path) -> None:
    path = tmp_path / "lights.json"
    config, error = boot_config(str(path))
    assert error is None and vars(config) == vars(Config())
    path.write_text('{"driver": "plain", "pins": [10, 11]}', encoding="utf-8")
    config, error = boot_config(str(path))
    assert (config.driver, config.pins, error) == ("plain", [10, 11], None)


def test_the_error_pattern_is_two_flashes_then_dark() -> None:
    lit = [t for t in range(0, 2400, 10) if config_error_lit(t)]
    first = [*range(0, 150, 10), *range(300, 450, 10)]
    assert lit == first + [t + 1200 for t in first]


def test_the_error_pattern_replaces_the_link_lost_one_only() -> None:
    board = Board(3, 2, 0, selftest_step_ms=100, config_error=True)
    assert board.render(0) == [(255, 255, 255), OFF, OFF]  # the self test first
    assert board.render(300) == [CONFIG_ERROR_RGB] * 3  # no host yet: the error pattern
    assert board.render(300 + 200) == [OFF] * 3
    board.apply([(1, 0, 0, 200, 0)], 600)
    board.last_valid_ms = 600
    assert board.render(700) == [(0, 0, 200), OFF, OFF]  # a host talking: its lights
    assert board.render(1600) == [CONFIG_ERROR_RGB] * 3  # silent 1 s: the pattern again
    good = Board(3, 2, 0, selftest_step_ms=100)
    assert CONFIG_ERROR_RGB not in good.render(300) and good.render(300) != [OFF] * 3
