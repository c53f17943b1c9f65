"""``spit-cabinet simulate`` with bad input: one error line and a documented exit status,
never a traceback, a machine-sized task list or a fork bomb; and its work made lazily."""

from __future__ import annotations

import argparse
import itertools
import os
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.commands import simulate
from cabinet.commands.cli import build_parser, main
from cabinet.commands.simulate import CHUNK, IN_FLIGHT, MAX_GAMES, Chunk, max_jobs
from game.tally import Tally
from tests.cabinet.cli_input import UNTIMED, accepted, refused
from tests.cabinet.cli_input import assert_one_error as one_error
from tests.cabinet.test_game_commands import run_cli

PREFIX = "spit-cabinet simulate: error: "


def parse(*argv: str) -> argparse.Namespace:
    return accepted("simulate", *argv)


def parse_fails(*argv: str) -> str:
    return refused("simulate", *argv)


def assert_one_error(stderr: str, start: str) -> None:
    one_error(stderr, PREFIX + start)


# ---- --games ---------------------------------------------------------------------------


@pytest.mark.parametrize("games", [str(10**23), "10**23", "0", "-5", str(MAX_GAMES + 1), "1e9"])
def test_a_bad_game_count_is_refused_at_once(games: str) -> None:
    done = run_cli("simulate", f"--games={games}")
    assert done.returncode == 2
    assert done.stdout == ""
    assert_one_error(done.stderr, "argument --games: ")
    assert f"1 to {MAX_GAMES}" in done.stderr


@UNTIMED
@given(st.integers(min_value=-(10**30), max_value=10**30))
def test_the_game_count_is_1_to_the_limit(games: int) -> None:
    if 1 <= games <= MAX_GAMES:
        args = parse(f"--games={games}")
        assert args.games == games
    else:
        err = parse_fails(f"--games={games}")
        assert_one_error(err, f"argument --games: must be 1 to {MAX_GAMES}, got ")


def test_the_most_games_start_without_making_the_whole_task_list(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The eager list of ``MAX_GAMES / CHUNK`` chunks took hundreds of megabytes before
    the first game; fed lazily, three chunks in the run has allocated next to nothing."""
    played: list[Chunk] = []

    def play(task: Chunk) -> tuple[Tally, int]:
        played.append(task)
        if len(played) == 3:
            raise KeyboardInterrupt  # stop the run here: main says 130
        return Tally(), task.games

    monkeypatch.setattr(simulate, "_play_chunk", play)
    build_parser()  # every command module imported before counting
    tracemalloc.start()
    try:
        status = main(["simulate", "--games", str(MAX_GAMES)])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert status == 130
    assert [t.first for t in played] == [0, CHUNK, 2 * CHUNK]
    # Measured: about 240 MB with the whole list made first, under 1 MB fed lazily.
    assert peak < 16_000_000, f"{peak} bytes allocated before three chunks were played"
    assert capsys.readouterr().out == ""


def test_the_chunks_are_made_one_at_a_time() -> None:
    tasks = simulate.chunks(7, MAX_GAMES, (2, 4), None)
    assert isinstance(tasks, Iterator) and not isinstance(tasks, list | tuple)
    assert list(itertools.islice(tasks, 2)) == [
        Chunk(7, CHUNK, (2, 4), None),
        Chunk(7 + CHUNK, CHUNK, (2, 4), None),
    ]


@UNTIMED
@given(st.integers(min_value=-(10**6), max_value=10**6), st.integers(1, 20 * CHUNK))
def test_the_chunks_cover_every_seed_once(seed: int, games: int) -> None:
    tasks = list(simulate.chunks(seed, games, (4, 4), "out"))
    seeds = [s for t in tasks for s in range(t.first, t.first + t.games)]
    assert seeds == list(range(seed, seed + games))
    assert all(1 <= t.games <= CHUNK and t.out == "out" for t in tasks)


def endless(pulled: list[int]) -> Iterator[Chunk]:
    """Chunks for ever, noting how many were taken; one that reads far ahead fails at once
    (rather than filling memory)."""
    for i in itertools.count():
        if i == 1000:
            raise AssertionError("the chunks were read far ahead of the results")
        pulled.append(i)
        yield Chunk(i * CHUNK, CHUNK, (4, 4), None)


def count_only(task: Chunk) -> tuple[Tally, int]:
    """Plays nothing: the chunk's size as its result (module level: workers import it)."""
    return Tally(), task.games


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_pool_is_fed_as_it_works_never_ahead_of_a_few_chunks(jobs: int) -> None:
    pulled: list[int] = []
    results = simulate.play_chunks(endless(pulled), jobs, count_only)
    taken = list(itertools.islice(results, 5))
    assert taken == [(Tally(), CHUNK)] * 5
    # Five results taken: the five chunks plus at most IN_FLIGHT per worker handed out.
    assert 5 <= len(pulled) <= 5 + (0 if jobs == 1 else jobs * IN_FLIGHT)
    results.close()  # and the pool goes with it


# ---- --jobs ----------------------------------------------------------------------------


def test_a_hundred_thousand_jobs_are_refused_with_one_line() -> None:
    done = run_cli("simulate", "--jobs", "100000")
    assert done.returncode == 2
    assert_one_error(done.stderr, f"argument --jobs: must be 1 to {max_jobs()} (twice the CPUs)")


@UNTIMED
@given(st.integers(min_value=-1000, max_value=10**6))
def test_jobs_are_1_to_twice_the_cpus(jobs: int) -> None:
    limit = 2 * (os.cpu_count() or 1)
    if 1 <= jobs <= limit:
        assert parse(f"--jobs={jobs}").jobs == jobs
    else:
        err = parse_fails(f"--jobs={jobs}")
        assert_one_error(err, f"argument --jobs: must be 1 to {limit} ")


# ---- --out -----------------------------------------------------------------------------


@pytest.fixture
def unwritable(tmp_path: Path) -> Iterator[Path]:
    """A directory no file can be made in: read-only by its mode, or for root (whom modes
    do not stop) one the kernel refuses files in, /sys."""
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        if not _can_write(locked):
            yield locked / "records"
            return
        for candidate in (Path("/sys"), Path("/proc")):
            if candidate.is_dir() and not _can_write(candidate):
                yield candidate
                return
        pytest.fail("no directory here refuses new files: the test cannot be set up")
    finally:
        locked.chmod(0o755)


def _can_write(directory: Path) -> bool:
    probe = directory / "probe.tmp"
    try:
        probe.write_text("x")
    except OSError:
        return False
    probe.unlink()
    return True


def test_an_unwritable_out_is_refused_before_any_game(
    unwritable: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    played: list[Chunk] = []
    monkeypatch.setattr(simulate, "_play_chunk", lambda task: played.append(task))
    assert main(["simulate", "--games", str(MAX_GAMES), "--out", str(unwritable)]) == 2
    out, err = capsys.readouterr()
    assert played == [] and out == ""
    assert err.startswith(f"{PREFIX}cannot write match records in {unwritable}: ")
    assert err.count("\n") == 1


def test_an_unwritable_out_in_a_real_process(unwritable: Path) -> None:
    done = run_cli("simulate", "--games", "10", "--jobs", "2", "--out", str(unwritable))
    assert done.returncode == 2
    assert done.stdout == ""
    assert_one_error(done.stderr, f"cannot write match records in {unwritable}: ")


def test_an_out_that_is_a_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "records"
    target.write_text("not a directory")
    done = run_cli("simulate", "--games", "3", "--out", str(target))
    assert done.returncode == 2
    assert done.stderr == f"{PREFIX}cannot write match records in {target}: not a directory\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_record_that_cannot_be_written_midway_stops_with_one_line(
    tmp_path: Path, jobs: str
) -> None:
    """The directory passes the check; then one record's file cannot be made (here a
    directory is in its way, which stops root too): exit 1, one line, no traceback."""
    out = tmp_path / "records"
    blocked = out / f"game-{CHUNK + 10}.json.tmp"
    blocked.mkdir(parents=True)
    done = run_cli("simulate", "--games", str(3 * CHUNK), "--jobs", jobs, "--out", str(out))
    assert done.returncode == 1
    assert done.stdout == ""
    assert_one_error(done.stderr, f"cannot write {blocked}: Is a directory")
    assert (out / "game-0.json").is_file()


def test_help_documents_the_limits_and_exit_status() -> None:
    done = run_cli("simulate", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert f"1 to {MAX_GAMES}" in text
    assert f"1 to {max_jobs()}" in text
    assert "Exit status: 0" in text and "2 bad arguments" in text


def test_the_documentation_states_the_limits() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"{MAX_GAMES:_}".replace("_", ",") in readme or str(MAX_GAMES) in readme
