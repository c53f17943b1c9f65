"""PROTOCOL.md's exact answers, checked against the firmware under real MicroPython.

mp_scripts/protocol_exact.py drives the real firmware (stub hardware, virtual clock) under
MicroPython and CPython; the tables PROTOCOL.md marks ``<!-- checked: NAME -->`` must be
what it observed, and its formulas must give what the firmware computes at every point.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge import codec
from tests.firmware_bridge.conftest import HERE, run_cpython, run_micropython

PROTOCOL_MD = Path(codec.__file__).with_name("PROTOCOL.md")
SCRIPT = HERE / "mp_scripts" / "protocol_exact.py"

NAMES: dict[str, list[object]] = {
    "HELLO_REPLY": [codec.HELLO_REPLY],
    "ACK": [codec.ACK],
    "COUNTERS": [codec.COUNTERS],
}


@pytest.fixture(scope="module")
def observed() -> Any:
    """What the firmware did under real MicroPython (the same as under CPython)."""
    on_mp = run_micropython(SCRIPT)
    assert on_mp == run_cpython(SCRIPT), "MicroPython and CPython disagree"
    return on_mp


def doc_table(name: str) -> list[list[str]]:
    """The rows (cells stripped of spaces and backticks) of the table PROTOCOL.md marks
    ``<!-- checked: name -->``, without its header."""
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    marks = re.findall(rf"<!-- checked: {re.escape(name)} -->\n((?:\|.*\|\n)+)", text)
    assert len(marks) == 1, f"PROTOCOL.md needs exactly one table marked {name!r}"
    lines = marks[0].splitlines()[2:]
    return [[cell.strip().strip("`") for cell in line.strip("|").split("|")] for line in lines]


def answer(cell: str, rejected_type: int) -> list[object]:
    """A doc's answer cell ("ACK", "ERROR 2", "nothing"...) as the script describes it."""
    if cell.startswith("ERROR "):
        return ["ERROR", int(cell.split()[1]), rejected_type]
    return NAMES[cell]


def colour(cell: str) -> list[int]:
    return [int(part) for part in cell.split(",")]


def on_off(cell: str) -> int:
    return {"on": 1, "off": 0}[cell]


#: What the script calls a frame -> what PROTOCOL.md's liveness table calls it.
DOC_SENDS = {"bad value": "SNAPSHOT with mode 4", "unknown type": "type 0x42"}


# ---- 1. what ends the link-lost pattern ------------------------------------------------------


def test_only_an_applied_snapshot_keeps_the_link_alive(observed: Any) -> None:
    rows = observed["liveness"]
    # Light 0's PWM duty: the amber breath (brightness 96 at most) while lost, full white
    # from the ACKed snapshot on; a HELLO or GET_COUNTERS neither ends nor extends it.
    assert rows == [
        [0, "nothing", [], True, 0],
        [100, "HELLO", [[codec.HELLO_REPLY]], True, 0],
        [200, "GET_COUNTERS", [[codec.COUNTERS]], True, 4],
        [300, "bad value", [["ERROR", codec.E_BAD_VALUE, codec.SNAPSHOT]], True, 36],
        [350, "unknown type", [["ERROR", codec.E_UNKNOWN_TYPE, 0x42]], True, 49],
        [400, "SNAPSHOT", [[codec.ACK]], False, 65535],
        [900, "HELLO", [[codec.HELLO_REPLY]], False, 65535],
        [1300, "GET_COUNTERS", [[codec.COUNTERS]], False, 65535],
        [1399, "nothing", [], False, 65535],
        [1400, "nothing", [], True, 4390],
        [1500, "SNAPSHOT", [[codec.ACK]], False, 65535],
    ]
    doc = doc_table("liveness")
    assert len(doc) == len(rows)
    for (t, sent, answers, lost, _), (at, sends, answers_doc, lost_doc) in zip(
        rows, doc, strict=True
    ):
        assert int(at) == t
        assert sends == DOC_SENDS.get(sent, sent)
        rejected = codec.SNAPSHOT if sent == "bad value" else 0x42
        assert answers == ([] if answers_doc == "nothing" else [answer(answers_doc, rejected)])
        assert lost_doc == ("yes" if lost else "no"), f"at {t} ms"


# ---- 2a, 2b. when COUNTERS are sampled; the GET_COUNTERS counts itself -----------------------


def test_counters_are_sampled_at_the_get_counters_however_the_bytes_are_read(
    observed: Any,
) -> None:
    c = observed["counters"]
    expected: list[list[Any]] = [
        [2, [2, 0, 0, 0, 0, 777]],
        [5, [5, 1, 1, 0, 1, 777]],
        [6, [6, 1, 1, 1, 1, 777]],
    ]
    assert c["one_read"] == expected
    assert c["by_byte"] == expected
    # The whole stream really was one read in the first case, one byte per read in the other.
    assert c["stream_bytes"] < 512 and c["byte_reads"] == c["stream_bytes"]
    assert c["one_read_reply_types"] == [
        codec.ACK,
        codec.COUNTERS,
        codec.ERROR,
        codec.ERROR,
        codec.COUNTERS,
        codec.COUNTERS,
    ]
    doc = [[int(cell) for cell in row] for row in doc_table("counters")]
    assert doc == [[seq, *values[:5]] for seq, values in expected]


def test_frames_ok_counts_the_get_counters_being_answered(observed: Any) -> None:
    assert observed["counters"]["first_frame"] == [[1, [1, 0, 0, 0, 0, 50]]]


# ---- 2c. which error wins ---------------------------------------------------------------------

COUNTER_COLUMN = {"bad_lengths": 2, "unknown_types": 4}
NAME_TYPES = {"SNAPSHOT": codec.SNAPSHOT, "HELLO": codec.HELLO, "GET_COUNTERS": codec.GET_COUNTERS}


def test_the_type_then_the_length_then_the_values_are_checked(observed: Any) -> None:
    cases = observed["precedence"]
    by_name = {case["name"]: case for case in cases}
    assert by_name["length_and_value"]["reply"] == ["ERROR", codec.E_BAD_LENGTH, codec.SNAPSHOT]
    assert by_name["count_16_bad_period"]["reply"] == [
        "ERROR",
        codec.E_BAD_LENGTH,
        codec.SNAPSHOT,
    ]
    assert by_name["unknown_type_long"]["reply"] == ["ERROR", codec.E_UNKNOWN_TYPE, 0x04]
    assert by_name["on_with_period"]["reply"] == [codec.ACK]
    doc = doc_table("errors")
    assert len(doc) == len(cases)
    for case, (frame, answer_doc, counted_in) in zip(cases, doc, strict=True):
        name = case["name"]
        kind = frame.split(",")[0]
        rejected = int(kind.split()[1][2:], 16) if kind.startswith("type ") else NAME_TYPES[kind]
        assert case["reply"] == answer(answer_doc, rejected), name
        assert case["seq"] == 3, name
        # HELLO, the blinking snapshot, the frame under test, the GET_COUNTERS: all valid.
        frames_ok, crc_errors, bad_lengths, overruns, unknown = case["counters"]
        assert (frames_ok, crc_errors, overruns) == (4, 0, 0), name
        column = COUNTER_COLUMN.get(counted_in)
        assert counted_in in COUNTER_COLUMN or counted_in == "nothing else", name
        assert (bad_lengths, unknown) == (int(column == 2), int(column == 4)), name
        # A refused frame changes nothing: light 0 still blinks.
        accepted = answer_doc == "ACK"
        assert case["mode0"] == (codec.MODE_ON if accepted else codec.MODE_BLINK), name


# ---- 2d. SNAPSHOT counts of 16 and more --------------------------------------------------------


def test_a_snapshot_count_above_15_is_a_bad_length(observed: Any) -> None:
    big = observed["big_counts"]
    for count in range(16, 21):
        assert big[str(count)] == {
            "payload_bytes": 1 + 6 * count,
            "replies": [["ERROR", codec.E_BAD_LENGTH, codec.SNAPSHOT]],
            "bad_lengths": 1,
            "overruns": 0,
            "mode0": codec.MODE_BLINK,
        }
    assert big["15"]["replies"] == [[codec.ACK]] and big["15"]["mode0"] == codec.MODE_ON
    assert big["21"]["replies"] == [] and big["21"]["overruns"] == 1
    assert big["15_on_2_lights"] == {"replies": [codec.ACK], "shown": 1}
    doc = doc_table("counts")
    assert [int(row[0]) for row in doc] == list(range(15, 22))
    for count_cell, payload_bytes, answer_doc, bad_lengths, overruns in doc:
        seen = big[count_cell]
        assert int(payload_bytes) == seen["payload_bytes"], count_cell
        replies = [] if answer_doc == "none" else [answer(answer_doc, codec.SNAPSHOT)]
        assert seen["replies"] == replies, count_cell
        assert (int(bad_lengths), int(overruns)) == (seen["bad_lengths"], seen["overruns"])


# ---- 2e. from level and colour to each driver ----------------------------------------------------


def doc_level(t: int, period: int) -> int:
    """The pulse level exactly as PROTOCOL.md writes it."""
    phase = (t % period) * 512 // period
    tri = phase if phase < 256 else 511 - phase
    return tri * tri // 255


def doc_duty(colour: list[int]) -> int:
    b = max(colour)
    return b * b * 65535 // 65025


def test_the_pulse_and_blink_formulas_are_the_firmware_s(observed: Any) -> None:
    formulas = observed["formulas"]
    for period, levels in formulas["levels"].items():
        p = int(period)
        assert levels == [doc_level(t, p) for t in range(p)], period
    assert formulas["levels"]["1000"][500] == 255 and formulas["levels"]["1000"][0] == 0
    for period, states in formulas["blinks"].items():
        p = int(period)
        assert states == [int(t % p < p // 2) for t in range(2 * p)], period
    assert formulas["blinks"]["21"][:21] == [1] * 10 + [0] * 11


def test_each_driver_maps_a_colour_as_documented(observed: Any) -> None:
    formulas = observed["formulas"]
    colours = formulas["colours"]
    outputs = formulas["outputs"]
    assert len(colours) == 768
    assert outputs["ws2812"] == colours
    assert outputs["pwm"] == [doc_duty(c) for c in colours]
    assert outputs["pwm_active_low"] == [65535 - doc_duty(c) for c in colours]
    assert outputs["plain"] == [int(max(c) >= 32) for c in colours]
    assert outputs["plain_active_low"] == [int(max(c) < 32) for c in colours]
    assert outputs["pwm"][255] == 65535 and outputs["pwm"][31] == 968 and outputs["pwm"][1] == 1


def test_the_pulse_and_blink_examples_are_what_each_driver_shows(observed: Any) -> None:
    rgb = observed["rgb"]
    pulse = {int(row[0]): row[1:] for row in doc_table("pulse")}
    blink = {int(row[0]): row[1:] for row in doc_table("blink")}
    assert sorted(pulse) == [0, 125, 250, 375, 500, 625, 750, 875, 1000]
    assert sorted(blink) == [0, 11, 12, 24, 25]
    rows = {name: {row[0]: row for row in rgb[name]["timed"]} for name in rgb}
    assert set(pulse) | set(blink) == set(rows["ws2812"])
    for t, (_, level, want0, ws0, want1, ws1) in rows["ws2812"].items():
        assert level == doc_level(t, 1000), t
        assert (ws0, ws1) == (want0, want1), t  # the pixels get the colours unchanged
        pwm, plain = rows["pwm"][t], rows["plain"][t]
        pwm_low, plain_low = rows["pwm_active_low"][t], rows["plain_active_low"][t]
        for row in (pwm, plain, pwm_low, plain_low):
            assert row[:3] == [t, level, want0] and row[4] == want1, t
        assert [pwm[3], pwm[5]] == [doc_duty(want0), doc_duty(want1)], t
        assert [plain[3], plain[5]] == [int(max(want0) >= 32), int(max(want1) >= 32)], t
        assert [pwm_low[3], pwm_low[5]] == [65535 - pwm[3], 65535 - pwm[5]], t
        assert [plain_low[3], plain_low[5]] == [1 - plain[3], 1 - plain[5]], t
        if t in pulse:
            doc_level_cell, ws, duty, lit = pulse[t]
            assert [int(doc_level_cell), colour(ws), int(duty), on_off(lit)] == [
                level,
                ws0,
                pwm[3],
                plain[3],
            ], t
        if t in blink:
            ws, duty, lit = blink[t]
            assert [colour(ws), int(duty), on_off(lit)] == [ws1, pwm[5], plain[5]], t


def test_the_link_lost_pattern_is_the_documented_breath(observed: Any) -> None:
    rgb = observed["rgb"]
    doc = doc_table("link-lost")
    lost = {name: {row[0]: row[1:] for row in rgb[name]["lost"]} for name in rgb}
    assert [int(row[0]) for row in doc] == sorted(lost["ws2812"])
    for at, level, ws, duty, plain in doc:
        t = int(at)
        # Amber (96, 48, 0) at the pulse level of a 2400 ms period counted from power-on.
        want = [96 * doc_level(t, 2400) // 255, 48 * doc_level(t, 2400) // 255, 0]
        assert int(level) == doc_level(t, 2400) == lost["ws2812"][t][0]
        assert colour(ws) == want == lost["ws2812"][t][1] == lost["ws2812"][t][2]
        assert int(duty) == doc_duty(want) == lost["pwm"][t][2]
        assert on_off(plain) == int(max(want) >= 32) == lost["plain"][t][2]
        assert lost["pwm_active_low"][t][2] == 65535 - int(duty)
        assert lost["plain_active_low"][t][2] == 1 - on_off(plain)
    assert max(lost["pwm"][t][2] for t in lost["pwm"]) == 9288
