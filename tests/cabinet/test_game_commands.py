"""The simulate and replay commands, run as a user runs them."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cabinet.commands.cli import main
from cabinet.commands.durations import format_margin
from cabinet.commands.progress import Progress

DATA = Path(__file__).resolve().parent.parent / "data"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cabinet", *args], capture_output=True, text=True, timeout=120
    )


def test_help_lists_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for name in ("simulate", "replay", "wiring"):
        assert name in out


def test_replay_prints_the_outcome_and_checks_the_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(DATA / "blocked-draw.json")]) == 0
    out = capsys.readouterr().out
    assert "outcome       draw" in out
    assert "recorded result: matches" in out


def test_replay_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--json", str(DATA / "race-1us-wrong-order.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in (
        "winner",
        "draw",
        "cards_left",
        "plays",
        "spits",
        "beaten",
        "ties",
        "late_edges",
        "events",
        "finished",
    ):
        assert key in out
    assert out["finished"] is False and out["winner"] is None and out["draw"] is False
    assert out["beaten"] == [0, 1]
    assert out["closest_race"]["margin_ns"] == 1_000
    assert out["result_matches"] is True
    assert out["events"][0]["type"] == "started"


def test_replay_reports_a_result_that_does_not_match(tmp_path: Path) -> None:
    data = json.loads((DATA / "blocked-draw.json").read_text())
    data["result"]["draw"] = False
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 1


def test_a_malformed_record_exits_2_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    data = json.loads((DATA / "tie.json").read_text())
    data["edges"][1]["button"] = "slot7"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    done = run_cli("replay", str(path))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "edges[1].button" in done.stderr
    assert "Traceback" not in done.stderr
    missing = run_cli("replay", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_simulate_writes_records_that_replay_to_the_same_result(tmp_path: Path) -> None:
    out = tmp_path / "records"
    done = run_cli(
        "simulate",
        "--games",
        "6",
        "--seed",
        "40",
        "--levels",
        "2,4",
        "--jobs",
        "2",
        "--out",
        str(out),
        "--json",
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 6
    assert sum(summary["wins"]) + summary["draws"] + summary["unfinished"] == 6
    files = sorted(out.glob("game-*.json"))
    assert [f.name for f in files] == [f"game-{s}.json" for s in range(40, 46)]
    for path in files:
        assert main(["replay", str(path)]) == 0


def test_simulate_prints_a_readable_summary() -> None:
    done = run_cli("simulate", "--games", "3", "--levels", "4,4")
    assert done.returncode == 0
    assert "wins             player 1:" in done.stdout
    assert "races" in done.stdout
    assert done.stderr == ""  # no progress bar for work under a second


def test_simulate_rejects_bad_levels() -> None:
    done = run_cli("simulate", "--levels", "9,1")
    assert done.returncode == 2
    assert "CPU level must be 1 to" in done.stderr


def test_progress_shows_only_after_the_delay() -> None:
    now = [0.0]
    stream = io.StringIO()
    bar = Progress(10, "work", stream=stream, clock=lambda: now[0], show=True)
    bar.advance(3)
    assert stream.getvalue() == ""
    now[0] = 1.5
    bar.advance(3)
    assert "6/10" in stream.getvalue()
    bar.close()
    assert stream.getvalue().endswith("\n")


def test_the_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "spit-cabinet"
    found = script if script.exists() else shutil.which("spit-cabinet")
    assert found is not None
    done = subprocess.run([str(found), "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "simulate" in done.stdout


@pytest.mark.parametrize(
    ("ns", "text"),
    [(1_000, "1 µs"), (250_000, "250 µs"), (12_345_678, "12.3 ms"), (1_250_000_000, "1.25 s")],
)
def test_margins_read_in_the_best_unit(ns: int, text: str) -> None:
    assert format_margin(ns) == text


def test_progress_stays_off_a_stream_that_is_not_a_terminal() -> None:
    """Errors read line by line (a log, a pipe) get no bar: its "\\r" would split a line."""
    now = [0.0]
    stream = io.StringIO()
    bar = Progress(10, "work", stream=stream, clock=lambda: now[0])
    now[0] = 5.0
    bar.advance(10)
    bar.close()
    assert stream.getvalue() == "" and not bar.shown
