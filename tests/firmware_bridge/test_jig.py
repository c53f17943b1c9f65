"""The fairness jig's firmware (firmware_bridge/jig/, docs/fairness.md): on the real
MicroPython interpreter and on CPython, with fake pins and a virtual clock.

The jig must press exactly the schedule the cabinet judges by (pair ``k``'s first line as
``Schedule.first(k)`` says, the second ``offset_us(k)`` later, each held ``HOLD_MS``, pair
``k`` ``start_ms(k)`` after pair 0), press only by pulling a line low and let go only by
going high impedance, and report what it did."""

from __future__ import annotations

import ast
import itertools
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from cabinet.fairness.certificate import Source
from cabinet.fairness.judging import FairnessJudge
from firmware_bridge.fairness import A_FIRST, HOLD_MS, Schedule
from firmware_bridge.firmware.config import ConfigError
from firmware_bridge.jig.app import START_HOLD_MS
from firmware_bridge.jig.config import DEFAULTS, JigConfig, boot_jig_config, load_jig_config
from firmware_bridge.jig.fake import TICKS_PERIOD, FakeMachine, FakePin, FakeTime
from firmware_bridge.jig.lines import OpenDrainLine
from firmware_bridge.jig.presser import QUIET_US, press_pairs
from game.edges import Button, Edge
from game.rules import Rules
from game.units import US

Run = Callable[[Path], Any]
Script = Callable[[str], Path]

ROOT = Path(__file__).resolve().parents[2]
LINE_A, LINE_B = 16, 17
"""The default GPIOs of line A (player 1's pile 1 button) and line B (player 2's)."""
HOLD_US = HOLD_MS * 1000
#: mp_scripts/jig_presses.py's schedule and lead-in.
PRESSES_SCHEDULE = Schedule((50, 1000, 5000), 4, 110, 31)
PRESSES_LEAD_IN_US = 100_000


# -- reading what the pins did -----------------------------------------------------------


def pairs_pressed(events: Sequence[Sequence[Any]]) -> list[dict[str, int]]:
    """The line pins' pad changes after they were set up, as pairs, checking the shape of
    each: first line down, second line down, first let go, second let go; never driven
    high, nothing in between."""
    on_lines = [(t, pin, state) for t, pin, state in events if pin in (LINE_A, LINE_B)]
    setup, changes = on_lines[:2], on_lines[2:]
    assert sorted((pin, state) for _, pin, state in setup) == [(16, "hi-z"), (17, "hi-z")]
    assert {state for _, _, state in changes} <= {"low", "hi-z"}, "a line was driven high"
    assert len(changes) % 4 == 0
    out = []
    for i in range(0, len(changes), 4):
        (t1, p1, s1), (t2, p2, s2), (r1, q1, u1), (r2, q2, u2) = changes[i : i + 4]
        assert (s1, s2, u1, u2) == ("low", "low", "hi-z", "hi-z"), changes[i : i + 4]
        assert p1 != p2 and (q1, q2) == (p1, p2), changes[i : i + 4]
        assert t1 <= t2 <= r1 <= r2
        out.append({"first": p1, "t1": t1, "t2": t2, "r1": r1, "r2": r2})
    return out


def check_presses(run: dict[str, Any], schedule: Schedule, lead_in_us: int, step_us: int) -> None:
    """Every pair as the schedule says, to within one clock step (``step_us``): the exact
    fake clock reads every microsecond, so there the times are exact."""
    pairs = pairs_pressed(run["events"])
    assert len(pairs) == len(schedule)
    # Pair 0 is due the lead-in after the clock's first reading (a step after the start).
    due = run["started_us"] + step_us + lead_in_us
    late = [p["t1"] - due - schedule.start_ms(k) * 1000 for k, p in enumerate(pairs)]
    for k, pair in enumerate(pairs):
        expected_first = LINE_A if schedule.first(k) == A_FIRST else LINE_B
        assert pair["first"] == expected_first, f"pair {k} pressed the wrong line first"
        offset = schedule.offset_us(k)
        assert 0 <= pair["t2"] - pair["t1"] - offset < step_us, f"pair {k}'s offset"
        assert 0 <= late[k] < step_us, f"pair {k} started off time"
        assert 0 <= pair["r1"] - pair["t1"] - HOLD_US < step_us, f"pair {k}'s first hold"
        assert 0 <= pair["r2"] - pair["t2"] - HOLD_US < step_us, f"pair {k}'s second hold"
    # Interrupts held off once a pair, from before its first press to its second.
    assert len(run["irq_spans"]) == len(schedule)
    for k, ((off, on), pair) in enumerate(zip(run["irq_spans"], pairs, strict=True)):
        assert off <= pair["t1"] and on >= pair["t2"], f"pair {k}: interrupts were on"
        assert on - off <= schedule.offset_us(k) + QUIET_US + 2 * step_us
    # The report agrees with the pins.
    report = run["report"]
    assert report["pairs"] == len(schedule)
    for c, offset in enumerate(schedule.offsets_us):
        apart = sorted(p["t2"] - p["t1"] for p in pairs[c * schedule.pairs :][: schedule.pairs])
        middle = len(apart) // 2
        assert report["written_apart_us"][str(offset)] == {
            "median": (apart[middle - 1] + apart[middle]) / 2,
            "max": apart[-1],
        }
    assert set(report["written_apart_us"]) == {str(o) for o in schedule.offsets_us}
    assert report["start_late_us_max"] == max(late)


# -- on MicroPython ------------------------------------------------------------------------


def test_the_jig_presses_the_schedule_on_micropython(
    micropython: Run, cpython: Run, mp_script: Script
) -> None:
    on_mp = micropython(mp_script("jig_presses.py"))
    assert on_mp == cpython(mp_script("jig_presses.py"))
    schedule = PRESSES_SCHEDULE
    # The order both sides draw from the seed (MicroPython's 32-bit arithmetic included).
    assert on_mp["firsts"] == [schedule.first(k) for k in range(len(schedule))]
    exact = on_mp["exact"]
    # Open drain, no pull: a press sinks the line, a release leaves it to the cabinet.
    assert exact["modes"] == {"16": [FakePin.OPEN_DRAIN, None], "17": [FakePin.OPEN_DRAIN, None]}
    check_presses(exact, schedule, PRESSES_LEAD_IN_US, step_us=1)
    pairs = pairs_pressed(exact["events"])
    # Exactly the offsets, starts and holds (the clock reads every microsecond)...
    assert [p["t2"] - p["t1"] for p in pairs] == [schedule.offset_us(k) for k in range(12)]
    assert {p["r1"] - p["t1"] for p in pairs} == {p["r2"] - p["t2"] for p in pairs} == {HOLD_US}
    assert exact["report"]["written_apart_us"] == {
        "50": {"median": 50.0, "max": 50},
        "1000": {"median": 1000.0, "max": 1000},
        "5000": {"median": 5000.0, "max": 5000},
    }
    assert exact["report"]["start_late_us_max"] == 0
    # ... though the microsecond ticks wrapped during the run, between pair 8's presses.
    assert pairs[8]["t1"] < TICKS_PERIOD < pairs[8]["t2"]
    # Half of each offset's pairs go each way round.
    for c in range(3):
        firsts = [p["first"] for p in pairs[4 * c : 4 * c + 4]]
        assert firsts.count(LINE_A) == firsts.count(LINE_B) == 2
    # It slept through the waits rather than spinning the whole run (and never slept for
    # real: the clock is virtual).
    assert exact["slept_ms"] > 0.9 * (exact["ended_us"] - exact["started_us"]) / 1000
    # With a clock that moves 7 µs a reading, every press is still at least its offset
    # after the other, and no more than a reading late.
    check_presses(on_mp["coarse"], schedule, PRESSES_LEAD_IN_US, step_us=7)


def said_kinds(said: list[dict[str, Any]]) -> list[str]:
    return [message["jig"] for message in said]


def test_the_jig_takes_commands_and_reports_on_micropython(
    micropython: Run, cpython: Run, mp_script: Script
) -> None:
    on_mp = micropython(mp_script("jig_app.py"))
    on_cp = cpython(mp_script("jig_app.py"))
    # The same everywhere but the JSON parser's own words for a file that is not JSON.
    for name in on_mp:
        if name != "not_json":
            assert on_mp[name] == on_cp[name], name
    small = Schedule((100, 250), 2, 100, 31)

    commands = on_mp["commands"]
    said = commands["said"]
    assert said_kinds(said) == [
        "ready", "error", "error", "error", "pressing", "done", "ready", "error", "done",
    ]  # fmt: skip
    assert commands["steps"] == [1, 2, 3, 4, 4, 8, 9]
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

    button = on_mp["button"]
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

    missing = on_mp["missing"]  # no jig.json: the defaults, through the board's serve loop
    assert said_kinds(missing["said"]) == ["ready", "ready"]
    assert missing["said"][0]["cabinet"] == (
        "spit-cabinet fairness --offsets 50,100,250,1000,5000 --pairs 100 --gap-ms 150 --seed 31"
    )
    assert missing["said"][0]["seconds"] == 78


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


# -- on CPython ----------------------------------------------------------------------------


def run_jig(
    schedule: Schedule, *, pins: tuple[int, int] = (LINE_A, LINE_B), step_us: int = 1
) -> tuple[FakeMachine, FakeTime, dict[str, object]]:
    clock = FakeTime(123_456_789, step_us)
    machine = FakeMachine(clock)
    lines = (OpenDrainLine(machine, pins[0]), OpenDrainLine(machine, pins[1]))
    report = press_pairs(schedule, lines, clock, machine, 3000)
    return machine, clock, report


def judged(machine: FakeMachine, schedule: Schedule, lag_us: int = 300) -> FairnessJudge:
    """The jig's presses as the cabinet takes them: line A is player 1's pile 1 button,
    line B player 2's; each press delivered ``lag_us`` after it happened."""
    judge = FairnessJudge(schedule, Rules(race_window_ms=2))
    for t_us, pin, state in machine.events:
        if state == "low":
            edge = Edge.press(0 if pin == LINE_A else 1, Button.PILE1, t_us * US)
            delivered = (t_us + lag_us) * US
            judge.take(edge.delivered(delivered), delivered)
    return judge


def test_the_cabinet_judges_the_jig_s_presses_right() -> None:
    """The jig's presses, taken as the cabinet takes its buttons, pass the certificate:
    the jig and the cabinet agree on the schedule, the lines and the order."""
    schedule = Schedule((50, 100, 250, 1000, 5000), 10, 150, 31)
    machine, _, _ = run_jig(schedule)
    judge = judged(machine, schedule)
    assert [(c.offset_us, c.right, c.wrong, c.missed) for c in judge.cases()] == [
        (offset, 10, 0, 0) for offset in schedule.offsets_us
    ]
    assert judge.certificate(Source.JIG, "test", "2026-01-01T00:00:00+00:00").passed


def test_a_jig_wired_the_wrong_way_round_fails_every_pair() -> None:
    schedule = Schedule((100, 1000), 10, 150, 31)
    machine, _, _ = run_jig(schedule, pins=(LINE_B, LINE_A))  # line A's output on B's line
    cases = judged(machine, schedule).cases()
    assert [(c.right, c.wrong) for c in cases] == [(0, 10), (0, 10)]


def test_a_run_longer_than_the_ticks_half_period_keeps_to_the_schedule() -> None:
    """2,000 pairs 300 ms apart: ten minutes, more than the 537 s a single ``ticks_add``
    may step. The fake refuses such a step as MicroPython does."""
    schedule = Schedule((50, 100), 1000, 300, 31)
    assert schedule.seconds() * 1_000_000 > TICKS_PERIOD // 2
    with pytest.raises(OverflowError):
        FakeTime().ticks_add(0, TICKS_PERIOD // 2)
    machine, _, report = run_jig(schedule, step_us=50)
    pairs = pairs_pressed(machine.events)
    assert len(pairs) == report["pairs"] == 2000
    origin = pairs[0]["t1"]
    for k, pair in enumerate(pairs):
        assert 0 <= pair["t1"] - origin - k * 300_000 < 50, k
        assert 0 <= pair["t2"] - pair["t1"] - schedule.offset_us(k) < 50, k


def test_a_ctrl_c_mid_pair_lets_both_lines_go_and_interrupts_back_on() -> None:
    class InterruptedTime(FakeTime):
        """Ctrl-C from the host at ``at_us``: MicroPython raises KeyboardInterrupt."""

        def __init__(self, at_us: int) -> None:
            super().__init__()
            self.at_us = at_us

        def ticks_us(self) -> int:
            if self.now_us >= self.at_us:
                raise KeyboardInterrupt
            return super().ticks_us()

    schedule = Schedule((5000,), 4, 110, 31)
    # Pair 2: its first press at 1 + 3000 ms + 220 ms (µs), the second 5 ms later.
    clock = InterruptedTime(at_us=3_220_001 + 2500)
    machine = FakeMachine(clock)
    lines = (OpenDrainLine(machine, LINE_A), OpenDrainLine(machine, LINE_B))
    with pytest.raises(KeyboardInterrupt):
        press_pairs(schedule, lines, clock, machine, 3000)
    first = LINE_A if schedule.first(2) == A_FIRST else LINE_B
    pressed = [(t, pin) for t, pin, state in machine.events if state == "low"]
    assert pressed[-1] == (3_220_001, first)  # pair 2's first press, and not its second
    assert machine.pins[LINE_A].pad() == machine.pins[LINE_B].pad() == "hi-z"
    assert len(machine.irq_spans) == 3  # pair 2's span closed: interrupts are back on
    assert machine.disable_irq() is True


def test_the_shipped_jig_json_is_the_defaults() -> None:
    shipped = ROOT / "firmware_bridge" / "jig" / "jig.json"
    assert json.loads(shipped.read_text(encoding="utf-8")) == DEFAULTS
    config = JigConfig()
    schedule = config.schedule()
    assert (schedule.offsets_us, schedule.pairs, schedule.gap_ms, schedule.seed) == (
        Schedule().offsets_us,
        Schedule().pairs,
        Schedule().gap_ms,
        Schedule().seed,
    )
    assert (config.line_a_pin, config.line_b_pin, config.start_pin) == (16, 17, 15)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"offsets_us": [50, 0]}, "offsets_us[1] must be a whole number from 1 to 20000, got 0"),
        ({"offsets_us": [100, 100]}, "offsets_us lists 100 twice; each offset is one case"),
        ({"offsets_us": []}, "a fairness test needs at least one offset"),
        ({"offsets_us": 100}, "offsets_us must be a list of whole numbers, got 100"),
        ({"pairs": 2001}, "pairs must be a whole number from 2 to 2000, got 2001"),
        ({"pairs": 5}, "pairs per offset must be even and at least 2, not 5"),
        ({"gap_ms": 99}, "pairs need at least 100 ms between them"),
        ({"gap_ms": 60001}, "gap_ms must be a whole number from 1 to 60000, got 60001"),
        ({"lead_in_ms": -1}, "lead_in_ms must be a whole number from 0 to 60000, got -1"),
        ({"seed": 2**32}, "seed must be a whole number from 0 to 4294967295"),
        ({"line_a_pin": "GP16"}, "line_a_pin must be a whole number from 0 to 28, got 'GP16'"),
        ({"line_b_pin": 24}, "line_b_pin: GP24 is not on the Pico's header"),
        ({"start_pin": 16}, "line_a_pin, line_b_pin and start_pin must be three different"),
        ({"line_b_pin": 16}, "line_a_pin, line_b_pin and start_pin must be three different"),
        ({"hold_ms": 40}, "unknown configuration key 'hold_ms'; the keys are gap_ms, "),
    ],
)
def test_a_bad_entry_is_named(values: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        JigConfig(values)
    assert message in str(caught.value)


def test_a_file_is_read_checked_and_never_fatal(tmp_path: Path) -> None:
    path = tmp_path / "jig.json"
    assert load_jig_config(str(path)).pairs == 100  # no file: the defaults
    path.write_text('{"offsets_us": [100], "pairs": 1000, "seed": 7}', encoding="utf-8")
    config = load_jig_config(str(path))
    assert config.cabinet_command() == (
        "spit-cabinet fairness --offsets 100 --pairs 1000 --gap-ms 150 --seed 7"
    )
    assert boot_jig_config(str(path))[1] is None
    path.write_text('{"pairs": 3}', encoding="utf-8")
    config, error = boot_jig_config(str(path))
    assert error == "pairs per offset must be even and at least 2, not 3"
    assert config.pairs == 100


# -- what is copied to the board -------------------------------------------------------------

#: The files the jig runs from, under firmware_bridge/ (docs/fairness.md copies these).
BOARD_FILES = {
    "__init__.py",
    "fairness.py",
    "firmware/__init__.py",
    "firmware/config.py",
    "jig/__init__.py",
    "jig/app.py",
    "jig/config.py",
    "jig/lines.py",
    "jig/presser.py",
}


def board_imports(path: Path) -> set[str]:
    """The firmware_bridge modules ``path`` imports on the board (not those under
    ``if TYPE_CHECKING:``), as module names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {name for name in found if name.startswith("firmware_bridge")}


def module_file(name: str) -> str | None:
    """``firmware_bridge.jig.app`` → ``jig/app.py`` (a package: its ``__init__.py``), or
    ``None`` when ``name`` is no module (a name imported from one)."""
    parts = name.split(".")[1:]
    folder = ROOT.joinpath("firmware_bridge", *parts)
    if (folder / "__init__.py").is_file():
        return "/".join([*parts, "__init__.py"])
    if folder.with_suffix(".py").is_file():
        return "/".join(parts) + ".py"
    return None


def test_the_board_files_are_what_the_jig_imports_and_what_the_docs_copy() -> None:
    needed = {"__init__.py"}
    todo = [ROOT / "firmware_bridge" / "jig" / "main.py"]
    while todo:
        for name in board_imports(todo.pop()):
            found = module_file(name)
            if found is None or found in needed:
                continue
            folders = found.split("/")[:-1]  # the packages it is in: their __init__ too
            for i in range(1, len(folders) + 1):
                package = "/".join([*folders[:i], "__init__.py"])
                if package not in needed:
                    needed.add(package)
                    todo.append(ROOT / "firmware_bridge" / package)
            needed.add(found)
            todo.append(ROOT / "firmware_bridge" / found)
    assert needed == BOARD_FILES
    docs = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
    loop = re.search(r"for f in (.*?); do", docs, re.DOTALL)
    assert loop is not None, "docs/fairness.md has no copy loop"
    assert set(loop.group(1).replace("\\", " ").split()) == BOARD_FILES
