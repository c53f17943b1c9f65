"""The shared codec and the firmware's logic under real MicroPython, compared with CPython."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_bridge import codec

Run = Callable[[Path], Any]


def test_codec_is_byte_identical_on_micropython_and_cpython(
    micropython: Run, cpython: Run, mp_script: Callable[[str], Path]
) -> None:
    on_mp = micropython(mp_script("codec_vectors.py"))
    on_cp = cpython(mp_script("codec_vectors.py"))
    assert on_mp == on_cp
    assert on_mp["crc_check"] == 0x29B1
    # The stream: two good frames survive garbage, a bad CRC, a truncated frame, an overrun.
    assert [frame[0] for frame in on_mp["stream"]] == [0x02, 0x09]
    assert on_mp["counters"] == [2, 1, 2, 1]
    assert on_mp["stream_same_bytewise"] is True


def test_firmware_logic_runs_the_same_on_micropython(
    micropython: Run, cpython: Run, mp_script: Callable[[str], Path]
) -> None:
    on_mp = micropython(mp_script("firmware_logic.py"))
    assert on_mp == cpython(mp_script("firmware_logic.py"))
    for driver in ("pwm", "plain", "ws2812"):
        obs = on_mp[driver]
        assert obs["kbd_intr"] == -1
        assert obs["watchdog_fed"] is True
        assert obs["hello_reply"][:2] == [codec.HELLO_REPLY, 1]
        assert obs["ack"] == [codec.ACK, 2]
        assert obs["lost_at_999"] is False
        assert obs["lost_at_1000"] is True
        assert obs["error_replies"] == [
            [codec.ERROR, 10, [codec.E_UNKNOWN_TYPE, 0x42]],
            [codec.ERROR, 11, [codec.E_BAD_LENGTH, codec.SNAPSHOT]],
            [codec.ERROR, 12, [codec.E_BAD_VALUE, codec.SNAPSHOT]],
        ]
        frames_ok, crc_errors, bad_lengths, overruns, unknown, uptime = obs["counters"][2]
        # The damaged HELLO, the run of 0x03 (Ctrl-C) bytes, 0x42, the short SNAPSHOT.
        assert (crc_errors, overruns, unknown, bad_lengths) == (1, 1, 1, 1)
        assert frames_ok == 7
        assert uptime == 4210
    pwm = on_mp["pwm"]
    assert pwm["selftest_0"][:2] == [65535, 0] and pwm["selftest_1"][:2] == [0, 65535]
    assert len(set(pwm["lost_before_host"])) == 1 and pwm["lost_before_host"][0] > 0
    assert pwm["applied"][:3] == [65535, 65535, 0]  # on, blink (first half), pulse (dark)
    assert pwm["later"][:2] == [65535, 0] and pwm["later"][2] > 0
    assert on_mp["ws2812"]["applied"][:2] == [[255, 0, 0], [0, 255, 0]]
    assert on_mp["plain"]["lost_pattern"] != on_mp["plain"]["applied"]
    assert on_mp["config_errors"] == [
        "driver must be one of plain, pwm, ws2812; got 'rgb'",
        "pins[1] must be a whole number from 0 to 29, got 40",
        "pins lists GPIO 4 twice (lights 0 and 2); every light needs its own pin",
        "pins must be a list of whole numbers, got 3",
    ]


#: What each corrupt file in mp_scripts/config_fallback.py is rejected for, on the board.
CORRUPT = {
    "bad_json": "bad_json.json is not valid JSON",
    "empty": "empty.json is not valid JSON",
    "wrong_type": "pins must be a list of whole numbers, got 'GP2'",
    "active_low_text": "active_low must be true or false, got 'no'",
    "driver_number": "driver must be one of plain, pwm, ws2812; got 7",
    "unknown_driver": "driver must be one of plain, pwm, ws2812; got 'laser'",
    "unknown_key": "unknown configuration key 'colour'; the keys are active_low, driver, link_",
    "bad_ws2812": "pixel_count must be a whole number from 1 to 15, got 99",
    "a_list": "a_list.json must hold a JSON object, not a list",
    "too_deep": "too_deep.json nests deeper than 8 levels",
    "unclosed_deep": "unclosed_deep.json nests deeper than 8 levels",
    "too_large": "too_large.json is larger than 4096 bytes",
    "not_utf8": "not_utf8.json is not UTF-8 text",
    "a_directory": "unreadable",  # there but not a file: the OS's own message
}
LIT, DARK = [65535] * 15, [0] * 15
#: The configuration-error pattern at 0, 100, 200, 350, 500, 800, 1100, 1200 and 1300 ms
#: after the self test: two 150 ms flashes (0-150, 300-450), dark to 1200, then again.
DOUBLE_FLASH = [LIT, LIT, DARK, LIT, DARK, DARK, DARK, LIT, LIT]


def test_a_corrupt_config_boots_the_defaults_with_the_error_pattern_on_micropython(
    micropython: Run, cpython: Run, mp_script: Callable[[str], Path]
) -> None:
    on_mp = micropython(mp_script("config_fallback.py"))
    assert on_mp == cpython(mp_script("config_fallback.py"))
    assert set(on_mp) == {"missing", "good", *CORRUPT}
    for name, message in CORRUPT.items():
        obs = on_mp[name]
        assert obs["error"] is not None and obs["error"].startswith(message), name
        # The built-in defaults: 15 PWM lights on GP2..GP16, the watchdog armed.
        assert (obs["driver"], obs["pins"]) == ("pwm", list(range(2, 17))), name
        assert obs["neopixel_loaded"] == 0 and obs["watchdog_ms"] == 2000, name
        assert obs["kbd_intr"] == -1 and obs["watchdog_fed"] is True, name
        assert obs["selftest"] == [65535] + [0] * 14, name
        assert obs["idle"] == DOUBLE_FLASH, name
        # The serial protocol is served as ever, and the host's lights are shown.
        assert obs["hello_reply"] == [codec.HELLO_REPLY, 1, [1, [1, 0, 0], 15, codec.CAP_PWM, 128]]
        assert obs["ack"] == [codec.ACK, 2], name
        assert obs["applied"] == [65535] + [0] * 14, name
        assert obs["counters"][:2] == [codec.COUNTERS, 3] and obs["counters"][2][0] == 3, name
        # 1 s after the host's last frame the error pattern is back (dark, then a flash).
        assert obs["after_host"] == [DARK, LIT, LIT], name
    for name in ("missing", "good"):
        obs = on_mp[name]
        assert obs["error"] is None, name
        assert obs["idle"] != DOUBLE_FLASH[: len(obs["idle"])], name
    assert on_mp["good"]["driver"] == "plain" and on_mp["good"]["pins"] == [10, 11]
    # Without a host a good board breathes: never full brightness, levels rise and fall.
    breathing = [levels[0] for levels in on_mp["missing"]["idle"]]
    assert max(breathing) < 65535 and len(set(breathing)) > 3
