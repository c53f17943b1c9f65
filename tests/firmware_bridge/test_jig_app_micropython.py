"""The fairness jig's app (firmware_bridge/jig/app.py, docs/fairness.md) on the real
MicroPython interpreter, with fake pins and a virtual clock (mp_scripts/jig_app.py): its
serial commands and what it says back, the start button and the LED, the defaults when
there is no jig.json, and a jig.json it cannot use refused without a press."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_bridge.fairness import A_FIRST, Schedule
from firmware_bridge.jig.app import START_HOLD_MS
from firmware_bridge.jig.fake import FakePin
from tests.firmware_bridge.jig_pins import LINE_A, LINE_B, pairs_pressed

Run = Callable[[Path], Any]
Script = Callable[[str], Path]


def said_kinds(said: list[dict[str, Any]]) -> list[str]:
    return [message["jig"] for message in said]


def check_the_run_said(said: list[dict[str, Any]]) -> dict[str, Any]:
    """What the jig said up to its first run's report (``ready``, the three errors, the run
    and its report), and that report."""
    assert said[0] == {
        "jig": "ready",
        "version": [1, 0, 0],
        "offsets_us": [100, 250],
        "pairs": 2,
        "gap_ms": 100,
        "seed": 31,
        "lead_in_ms": 20,
        "seconds": 0,
        "cabinet": "spit-cabinet fairness --offsets 100,250 --pairs 2 --gap-ms 100 --seed 31",
    }
    assert said[1]["error"] == "no run yet: send start, or press the button"
    assert said[2]["error"] == "unknown command 'bogus'; the commands are start, status, report"
    assert said[3]["error"] == "a line over 64 characters"
    assert said[4] == {"jig": "pressing", "lead_in_ms": 20, "run": 1}
    done = said[5]
    assert done == {
        "jig": "done",
        "run": 1,
        "pairs": 4,
        "seed": 31,
        "gap_ms": 100,
        "written_apart_us": {
            "100": {"median": 100.0, "max": 100},
            "250": {"median": 250.0, "max": 250},
        },
        "start_late_us_max": 0,
    }
    return done


def check_the_commands(commands: dict[str, Any]) -> None:
    """The serial commands: what the jig said back, the one run they asked for, the pins."""
    small = Schedule((100, 250), 2, 100, 31)
    said = commands["said"]
    assert said_kinds(said) == [
        "ready", "error", "error", "error", "pressing", "done", "ready", "error", "done",
    ]  # fmt: skip
    assert commands["steps"] == [1, 2, 3, 4, 4, 8, 9]
    done = check_the_run_said(said)
    # The second "start", typed before the first run ended, is dropped, not run.
    assert said[7]["error"] == "dropped 6 bytes sent during the run"
    assert commands["runs"] == 1
    assert said[8] == done  # "report" says the last run's report again
    pairs = pairs_pressed(commands["events"])
    assert [p["first"] for p in pairs] == [
        LINE_A if small.first(k) == A_FIRST else LINE_B for k in range(4)
    ]
    assert [p["t2"] - p["t1"] for p in pairs] == [100, 100, 250, 250]
    assert commands["modes"]["15"] == [FakePin.IN, FakePin.PULL_UP]  # the start button
    assert commands["modes"]["LED"] == [FakePin.OUT, None]


def check_the_start_button(button: dict[str, Any]) -> None:
    # Held since power-on: nothing; a 30 ms brush: nothing; held: one run, however long.
    assert button["runs"] == 1
    assert said_kinds(button["said"]) == ["pressing", "done", "ready"]
    pairs = pairs_pressed(button["events"])
    assert len(pairs) == 4
    first_press = pairs[0]["t1"] - button["pressed_at_us"]
    assert START_HOLD_MS * 1000 + 20_000 <= first_press <= (START_HOLD_MS + 20) * 1000 + 20_000
    # The LED is lit from the start of the run to its end.
    led = [(t, state) for t, pin, state in button["events"] if pin == "LED"]
    for pair in pairs:
        before = [state for t, state in led if t <= pair["t1"]]
        assert before[-1] == "high"
        assert not [t for t, _ in led if pair["t1"] <= t < pair["r2"]]


def check_no_file_means_the_defaults(missing: dict[str, Any]) -> None:
    """No jig.json: the defaults, through the board's serve loop."""
    assert said_kinds(missing["said"]) == ["ready", "ready"]
    assert missing["said"][0]["cabinet"] == (
        "spit-cabinet fairness --offsets 50,100,250,1000,5000 --pairs 100 --gap-ms 150 --seed 31"
    )
    assert missing["said"][0]["seconds"] == 78


def test_the_jig_takes_commands_and_reports_on_micropython(
    micropython: Run, cpython: Run, mp_script: Script
) -> None:
    on_mp = micropython(mp_script("jig_app.py"))
    on_cp = cpython(mp_script("jig_app.py"))
    # The same everywhere but the JSON parser's own words for a file that is not JSON.
    for name in on_mp:
        if name != "not_json":
            assert on_mp[name] == on_cp[name], name
    check_the_commands(on_mp["commands"])
    check_the_start_button(on_mp["button"])
    check_no_file_means_the_defaults(on_mp["missing"])


#: What each unusable jig.json in mp_scripts/jig_app.py is refused for, on the jig.
BROKEN = {
    "unknown_key": "unknown configuration key 'pins'; the keys are gap_ms, lead_in_ms, "
    "line_a_pin, line_b_pin, offsets_us, pairs, seed, start_pin",
    "board_pin": "line_a_pin: GP25 is not on the Pico's header; use 0 to 22 or 26 to 28",
    "short_gap": "pairs need at least 100 ms between them",
    "odd_pairs": "pairs per offset must be even and at least 2, not 3",
    "not_json": "not_json.json is not valid JSON (",
}


def test_a_jig_with_an_unusable_file_refuses_to_press_on_micropython(
    micropython: Run, mp_script: Script
) -> None:
    on_mp = micropython(mp_script("jig_app.py"))
    for name, message in BROKEN.items():
        obs = on_mp[name]
        said = obs["said"]
        # Said at once, on start (the command) and on start (the button): never pressed.
        assert said_kinds(said) == ["config error", "refused", "refused"], name
        for message_said in said:
            assert message in message_said["error"], name
            assert message_said["file"] == f"BASE/{name}.json", name
        assert obs["runs"] == 0, name
        lines = [(pin, state) for _, pin, state in obs["events"] if pin in (LINE_A, LINE_B)]
        assert lines == [(16, "hi-z"), (17, "hi-z")], name  # let go, on the default pins
        # The LED blinks fast: a change every 100 ms.
        led = [t for t, pin, _ in obs["events"] if pin == "LED"][1:]
        assert len(led) >= 5, name
        assert {b - a for a, b in itertools.pairwise(led)} == {100_000}, name
