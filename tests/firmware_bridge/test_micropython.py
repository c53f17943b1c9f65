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
