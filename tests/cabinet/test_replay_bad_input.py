"""``spit-cabinet replay`` on bad input: one line on stderr and exit 2, never a traceback;
a closed stdout ends it quietly; abandoned games print a verdict."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from cabinet.commands.cli import main
from cabinet.commands.replay import EXIT_STDOUT_CLOSED
from game import record as record_module
from game.record import MAX_NS
from tests.cabinet.test_game_commands import DATA, run_cli

RAW = "@@raw@@"
"""A placeholder string replaced, in the JSON text, by text ``json.dumps`` cannot write (an
integer of thousands of digits, nesting thousands deep)."""


def write_record(path: Path, data: object, raw: str | None = None) -> Path:
    text = json.dumps(data)
    if raw is not None:
        assert text.count(json.dumps(RAW)) == 1
        text = text.replace(json.dumps(RAW), raw)
    path.write_text(text, encoding="utf-8")
    return path


def tie() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "tie.json").read_text())
    return data


def replay_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run ``spit-cabinet replay ARGS`` in this process: status, stdout, stderr."""
    capsys.readouterr()
    status = main(["replay", *args])
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line(err: str, path: Path, field: str, problem: str) -> None:
    """``err`` is exactly ``replay: PATH: FIELD: PROBLEM…`` and one line."""
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    assert err.startswith(f"replay: {path}: {field}: {problem}"), err


# -- the tester's cases, one by one -----------------------------------------------------


def test_an_abandoned_game_prints_a_verdict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write_record(
        tmp_path / "abandoned.json",
        {"format": "spit-match", "version": 1, "seed": 1, "abandoned_ns": 5_000_000_000},
    )
    status, out, err = replay_cli(capsys, str(path))
    assert (status, err) == (0, "")
    assert (
        out.splitlines()[0] == "outcome       abandoned (the cabinet stopped the game; no winner)"
    )
    status, out, err = replay_cli(capsys, "--json", str(path))
    summary = json.loads(out)
    assert (status, summary["termination"], summary["winner"]) == (0, "abandoned", None)


def edge(**change: object) -> dict[str, Any]:
    data: dict[str, Any] = {"t_ns": 5, "player": 0, "button": "slot1", "edge": "press"}
    data.update(change)
    return {k: v for k, v in data.items() if v is not ...}


BAD_RECORDS = [
    ({"edges": [edge(delivered_ns=-3)]}, "edges[0].delivered_ns", "must be 0 or more, got -3"),
    (
        {"edges": [edge(t_ns=-5)]},
        "edges[0].delivered_ns",
        "missing, and t_ns -5 (delivered then, by default) is before the start",
    ),
    (
        {"edges": [edge(t_ns=-5, delivered_ns=-5)]},
        "edges[0].delivered_ns",
        "must be 0 or more, got -5",
    ),
    ({"edges": [edge(t_ns=MAX_NS + 1)]}, "edges[0].t_ns", f"must be at most {MAX_NS}"),
    ({"abandoned_ns": -1}, "abandoned_ns", "must be 0 or more, got -1"),
    ({"abandoned_ns": 1.5}, "abandoned_ns", "must be an integer, got 1.5"),
    ({"edges": [edge(player=0.0)]}, "edges[0].player", "must be 0 or 1, got 0.0"),
    ({"edges": [edge(player=True)]}, "edges[0].player", "must be 0 or 1, got True"),
    ({"edges": [edge(button=["slot1"])]}, "edges[0].button", "must be one of slot1"),
    ({"edges": [edge(button={"a": 1})]}, "edges[0].button", "must be one of slot1"),
    ({"edges": [edge(edge=["press"])]}, "edges[0].edge", "must be press or release, got ['press']"),
    ({"edges": [edge(edge={})]}, "edges[0].edge", "must be press or release, got {}"),
    ({"version": True}, "version", "must be 1, got True"),
    ({"rules": {"best_of": True}}, "rules", "best_of must be a whole number, got True"),
    ({"rules": {"best_of": 3.0}}, "rules", "best_of must be a whole number, got 3.0"),
    ({"rules": {"tie_rule": ["alternate"]}}, "rules", "tie_rule must be one of"),
    ({"seed": "x" * 1000}, "seed", "must be an integer, got 'xxxxxxxx"),
]


@pytest.mark.parametrize(("change", "field", "problem"), BAD_RECORDS)
def test_a_bad_field_is_one_line_naming_it(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    change: dict[str, Any],
    field: str,
    problem: str,
) -> None:
    data: dict[str, Any] = {"format": "spit-match", "version": 1, "seed": 1}
    data.update(change)
    path = write_record(tmp_path / "bad.json", data)
    for args in ([str(path)], ["--json", str(path)]):
        status, out, err = replay_cli(capsys, *args)
        assert (status, out) == (2, "")
        assert_one_line(err, path, field, problem)
        assert len(err) < 200  # values are quoted cut short


@pytest.mark.parametrize(
    ("raw", "field", "problem"),
    [
        ("7" * 5000, "seed", "an integer of more than 100 digits"),
        ("-" + "7" * 101, "seed", "an integer of more than 100 digits"),
        ("[" * 3000 + "]" * 3000, "record", "nested deeper than 64 levels"),
        ("[" * 70 + "]" * 70, "seed", "nested deeper than 64 levels"),
    ],
    ids=["4300+digits", "101-digits", "3000-deep", "70-deep"],
)
def test_huge_integers_and_deep_nesting_are_refused_by_the_real_command(
    tmp_path: Path, raw: str, field: str, problem: str
) -> None:
    path = write_record(
        tmp_path / "bad.json", {"format": "spit-match", "version": 1, "seed": RAW}, raw
    )
    done = run_cli("replay", str(path))
    assert (done.returncode, done.stdout) == (2, "")
    assert_one_line(done.stderr, path, field, problem)


def test_a_huge_integer_is_named_where_it_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = tie()
    data["edges"][1]["t_ns"] = RAW
    data["meta"] = {"note": "fine"}
    path = write_record(tmp_path / "bad.json", data, "9" * 4400)
    status, _, err = replay_cli(capsys, str(path))
    assert status == 2
    assert_one_line(err, path, "edges[1].t_ns", "an integer of more than 100 digits")


# -- files that are not records --------------------------------------------------------


def test_a_device_is_refused_without_reading_it(capsys: pytest.CaptureFixture[str]) -> None:
    # /dev/zero never ends; /dev/null is the same kind of file and safe if it were read.
    for device in ("/dev/null", "/dev/zero"):
        status, out, err = replay_cli(capsys, device)
        assert (status, out) == (2, "")
        assert_one_line(err, Path(device), "file", f"{device} is a character device")


def test_a_directory_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = replay_cli(capsys, str(tmp_path))
    assert status == 2
    assert_one_line(err, tmp_path, "file", f"{tmp_path} is a directory")


def test_a_file_over_the_limit_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "tie.json"
    path.write_text((DATA / "tie.json").read_text())
    size = path.stat().st_size
    monkeypatch.setattr(record_module, "MAX_RECORD_BYTES", size)
    assert replay_cli(capsys, str(path))[0] == 0  # exactly the limit: read
    monkeypatch.setattr(record_module, "MAX_RECORD_BYTES", size - 1)
    status, _, err = replay_cli(capsys, str(path))
    assert status == 2
    assert_one_line(err, path, "file", f"{path} is larger than the limit of {size - 1} bytes")


def test_the_limit_is_16_mib_and_an_endless_pipe_stops_there(tmp_path: Path) -> None:
    assert record_module.MAX_RECORD_BYTES == 16 * 1024 * 1024
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    endless = "import sys\nwith open(sys.argv[1], 'w') as f:\n    while True: f.write(' ' * 65536)"
    writer = subprocess.Popen(  # writes until its reader goes away
        [sys.executable, "-c", endless, str(fifo)], stderr=subprocess.DEVNULL
    )
    try:
        done = run_cli("replay", str(fifo))
    finally:
        writer.kill()
        writer.wait()
    assert (done.returncode, done.stdout) == (2, "")
    assert_one_line(done.stderr, fifo, "file", f"{fifo} is larger than the limit of 16777216")


def test_a_pipe_is_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fifo = tmp_path / "record"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "w") as f:
            f.write((DATA / "tie.json").read_text())

    writer = threading.Thread(target=write)
    writer.start()
    try:
        status, out, err = replay_cli(capsys, str(fifo))
    finally:
        if writer.is_alive():  # the record was never opened: let the writer's open return
            unblock = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
            writer.join()
            os.close(unblock)
    assert (status, err) == (0, "")
    assert "recorded result: matches" in out


# -- a closed stdout ---------------------------------------------------------------------


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_closed_stdout_ends_quietly(as_json: bool) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # nobody will read: the first write fails with EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cabinet", "replay"]
            + (["--json"] if as_json else [])
            + [str(DATA / "blocked-draw.json")],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(writer)
    assert done.stderr == ""
    assert done.returncode == EXIT_STDOUT_CLOSED == 141


class ClosedStdout:
    """A stdout whose reader has gone (no file descriptor behind it)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    def fileno(self) -> int:
        raise io.UnsupportedOperation("fileno")


def test_a_closed_stdout_in_process(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdout", ClosedStdout())
    assert main(["replay", str(DATA / "tie.json")]) == 141
    assert capsys.readouterr().err == ""


# -- the last line of defence ------------------------------------------------------------


def test_a_replay_failure_the_reader_missed_is_still_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_record: object) -> object:
        raise RecursionError("maximum recursion depth exceeded\nwhile replaying")

    monkeypatch.setattr("cabinet.commands.replay.replay", broken)
    status, out, err = replay_cli(capsys, str(DATA / "tie.json"))
    assert (status, out) == (2, "")
    assert_one_line(
        err,
        DATA / "tie.json",
        "record",
        r"cannot be replayed (RecursionError: maximum recursion depth exceeded\nwhile",
    )


def test_a_file_name_with_a_line_break_stays_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "two\nlines.json"
    status, _, err = replay_cli(capsys, str(path))
    assert status == 2
    assert err.count("\n") == 1
    assert "two\\nlines.json" in err


# -- random malformed records ------------------------------------------------------------
