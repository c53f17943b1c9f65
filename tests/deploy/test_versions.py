"""Versions side by side: the boot check and rollbacks (on stand-in versions), real updates
from a folder of wheels (a USB stick, no network), and the power-cut test: an update killed
with SIGKILL at 24 seeded moments, from the download to the restart, always leaves a
`current` that starts and passes `spit-cabinet doctor --input mock`; the same test fails
on a switch planted to be non-atomic."""

from __future__ import annotations

import itertools
import os
import random
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.deploy.conftest import (
    DEPLOY,
    UPDATE,
    allowing_unsigned,
    copy_install,
    run,
    run_updater,
    stub_systemctl,
    target,
)

# -- stand-in versions: the boot check and rollbacks ------------------------------------


def fake_install(root: Path, *ids: str) -> Path:
    """An install directory with complete stand-in versions ``ids`` (no virtual
    environments: the boot check only reads COMPLETE and the links)."""
    for version in ids:
        folder = root / "versions" / version
        folder.mkdir(parents=True)
        (folder / "COMPLETE").write_text(f"version {version}\n", encoding="utf-8")
    return root


def link(root: Path, name: str, version: str) -> None:
    (root / name).symlink_to(f"versions/{version}")


def updater(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run(["bash", UPDATE, "--install-dir", root, *args])  # no started file: /run


def test_a_new_version_that_fails_to_start_three_times_goes_back(tmp_path: Path) -> None:
    root = fake_install(tmp_path / "opt", "old", "new")
    link(root, "current", "new")
    link(root, "previous", "old")
    (root / "trial").write_text("new 0\n", encoding="utf-8")
    for attempt in (1, 2, 3):  # three starts that never said READY=1
        assert updater(root, "--boot-check").returncode == 0
        assert (root / "trial").read_text(encoding="utf-8") == f"new {attempt}\n"
        assert target(root, "current") == "new"
    done = updater(root, "--boot-check")  # the fourth start runs the old one
    assert done.returncode == 0, done.stderr
    assert (target(root, "current"), target(root, "previous")) == ("old", "new")
    assert not (root / "trial").exists()
    [line] = (root / "rollbacks.log").read_text(encoding="utf-8").splitlines()
    assert line.split()[1:4] == ["new", "old", "failed"]
    assert "3 times in a row" in line


def on_trial(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """Version "new" just installed, on trial, "old" before it: the install directory, the
    started file (not written yet) and the environment that names it."""
    root = fake_install(tmp_path / "opt", "old", "new")
    link(root, "current", "new")
    link(root, "previous", "old")
    (root / "trial").write_text("new 0\n", encoding="utf-8")
    started = tmp_path / "run" / "started"
    started.parent.mkdir()
    return root, started, {"SPIT_CABINET_STARTED_FILE": str(started)}


def test_a_version_that_drew_its_first_frame_leaves_its_trial(tmp_path: Path) -> None:
    """The cabinet writes the version it runs to the started file after its first frame;
    the next boot check sees it and ends the trial, so later crashes never roll back."""
    root, started, env = on_trial(tmp_path)
    assert boot_check(root, env).returncode == 0  # the first start, never drew a frame
    assert (root / "trial").read_text(encoding="utf-8") == "new 1\n"
    started.write_text("old", encoding="utf-8")  # another version's note counts for nothing
    assert boot_check(root, env).returncode == 0
    assert (root / "trial").read_text(encoding="utf-8") == "new 2\n"
    started.write_text("new", encoding="utf-8")  # the second start drew its first frame
    assert boot_check(root, env).returncode == 0
    assert not (root / "trial").exists()
    for _ in range(5):  # later crashes are not a failed update
        assert boot_check(root, env).returncode == 0
    assert target(root, "current") == "new"
    assert not (root / "rollbacks.log").exists()
    # By hand: --boot-ok ends a trial too.
    (root / "trial").write_text("new 0\n", encoding="utf-8")
    assert updater(root, "--boot-ok").returncode == 0
    assert not (root / "trial").exists()


def test_a_version_that_started_is_not_rolled_back_by_power_cuts(tmp_path: Path) -> None:
    """The started file is in /run, gone with each power cut: the trial ends on the disk as
    the first frame is drawn (--started, from spit-cabinet-started.path), so boots cut
    short, however many, never count a start that succeeded."""
    root, started, env = on_trial(tmp_path)
    started.write_text("old", encoding="utf-8")  # another version's note ends nothing
    assert boot_check(root, env, "--started").returncode == 0
    assert (root / "trial").read_text(encoding="utf-8") == "new 0\n"
    for _ in range(MAX_FAILED_STARTS + 2):  # boots, each cut after its first frame
        started.unlink(missing_ok=True)  # a new boot: /run is empty
        assert boot_check(root, env).returncode == 0
        started.write_text("new", encoding="utf-8")  # the cabinet drew its first frame
        done = boot_check(root, env, "--started")
        assert done.returncode == 0, done.stderr
        assert not (root / "trial").exists()
    assert target(root, "current") == "new"
    assert not (root / "rollbacks.log").exists()
    # Without --started, the same boots roll back a version that started each time: the
    # hazard this guards against.
    (root / "trial").write_text("new 0\n", encoding="utf-8")
    for _ in range(MAX_FAILED_STARTS + 2):
        started.unlink(missing_ok=True)
        assert boot_check(root, env).returncode == 0
        started.write_text("new", encoding="utf-8")
    assert target(root, "current") == "old"


_MAX = re.search(r"^MAX_FAILED_STARTS=(\d+)$", (DEPLOY / "versions.sh").read_text(), re.M)
assert _MAX is not None
MAX_FAILED_STARTS = int(_MAX[1])
"""deploy/versions.sh's: how many failed starts in a row roll a new version back."""


def boot_check(
    root: Path, env: dict[str, str], action: str = "--boot-check"
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(UPDATE), "--install-dir", str(root), action],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, **env},
    )


def test_a_current_that_is_not_complete_starts_the_previous(tmp_path: Path) -> None:
    root = fake_install(tmp_path / "opt", "old")
    (root / "versions" / "half").mkdir()  # no COMPLETE: an interrupted install
    link(root, "current", "half")
    link(root, "previous", "old")
    assert updater(root, "--boot-check").returncode == 0
    assert target(root, "current") == "old"
    assert "current was not a complete version" in (root / "rollbacks.log").read_text("utf-8")
    lost = fake_install(tmp_path / "lost")
    done = updater(lost, "--boot-check")
    assert done.returncode == 1
    assert "no complete version" in done.stderr


def test_rollback_swaps_current_and_previous(tmp_path: Path) -> None:
    root = fake_install(tmp_path / "opt", "a", "b")
    link(root, "current", "b")
    link(root, "previous", "a")
    stub = stub_systemctl(tmp_path)
    done = run_updater(root, stub, "--rollback")
    assert done.returncode == 0, done.stderr
    assert (target(root, "current"), target(root, "previous")) == ("a", "b")
    assert (stub / "log").read_text(encoding="utf-8") == "restart spit-cabinet.service\n"
    assert "asked for" in (root / "rollbacks.log").read_text(encoding="utf-8")
    alone = fake_install(tmp_path / "alone", "a")
    link(alone, "current", "a")
    refused = run_updater(alone, stub, "--rollback")
    assert refused.returncode == 1
    assert "no earlier version" in refused.stderr
    assert target(alone, "current") == "a"


# -- real versions --------------------------------------------------------------------


def doctor(root: Path, data: Path) -> subprocess.CompletedProcess[str]:
    """`spit-cabinet doctor --input mock` from the version `current` points to, headless."""
    exe = root / "current" / "venv" / "bin" / "spit-cabinet"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.run(
        [str(exe), "doctor", "--input", "mock", "--data-dir", str(data)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
        cwd=data.parent,
    )


def passes_doctor(root: Path, data: Path) -> str | None:
    """None when `current` is complete and its doctor finds no failure (warnings are this
    machine's: a dummy display, no LED board); else what is wrong."""
    current = root / "current"
    if not current.is_symlink():
        return "no current link"
    if not (current / "COMPLETE").is_file():
        return f"current points to {os.readlink(current)}, which is not complete"
    done = doctor(root, data)
    if done.returncode not in (0, 1) or "FAIL" in done.stdout:
        return f"doctor: {done.returncode}\n{done.stdout}{done.stderr}"
    if "buttons: all 15 controls answered" not in done.stdout:
        return f"doctor did not check the buttons:\n{done.stdout}"
    return None


def test_an_update_from_a_folder_of_wheels_needs_no_network(
    installed: Path, wheelhouse: Path, tmp_path: Path
) -> None:
    root = copy_install(installed, tmp_path / "opt")
    first = target(root, "current")
    data = tmp_path / "data"
    data.mkdir()
    (data / "cabinet.sqlite3").write_bytes(b"the operator's data")
    stub = stub_systemctl(tmp_path)
    # No index at all: everything must come from the stick and the wheelhouse.
    offline = {"PIP_NO_INDEX": "1", "PIP_INDEX_URL": "http://127.0.0.1:9/", "PIP_FIND_LINKS": ""}
    done = run_updater(root, stub, "--from", str(wheelhouse), env=offline)
    assert done.returncode == 0, done.stdout + done.stderr
    second = target(root, "current")
    assert second != first and target(root, "previous") == first
    assert (root / "trial").read_text(encoding="utf-8") == f"{second} 0\n"
    assert (stub / "log").read_text(encoding="utf-8") == "restart spit-cabinet.service\n"
    assert (data / "cabinet.sqlite3").read_bytes() == b"the operator's data"
    assert passes_doctor(root, tmp_path / "doctor-data") is None
    # A third update keeps two versions: the oldest goes.
    again = run_updater(root, stub, "--from", str(wheelhouse), "--no-restart")
    assert again.returncode == 0, again.stderr
    kept = sorted(p.name for p in (root / "versions").iterdir())
    assert kept == sorted([second, target(root, "current")])


# -- the power-cut test ---------------------------------------------------------------

HOOK = """#!/bin/bash
# Called by the updater before each step, with the step's line: counts the steps (and the
# files of the versions so far) and, at step $KILL_STEP, kills the updater's whole process
# group, at once or (KILL_FILES > 0) once that step has made that many more files.
n=$(( $(cat "$STEPS" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$STEPS"
files=$(find "$ROOT/versions" | wc -l)
echo "$n $files $1" >>"$STEPS.log"
[[ $n -eq $KILL_STEP ]] || exit 0
group=$(ps -o pgid= $$ | tr -d ' ')
if [[ $KILL_FILES -eq 0 ]]; then
  kill -KILL -- "-$group"
fi
(
  while [[ $(find "$ROOT/versions" | wc -l) -lt $((files + KILL_FILES)) ]]; do
    [[ $(cat "$STEPS") -eq $KILL_STEP ]] || exit 0  # the step ended first: no kill
  done
  kill -KILL -- "-$group"
) </dev/null >/dev/null 2>&1 &
"""


@dataclass(frozen=True)
class Step:
    line: str
    files: int
    """How many files the versions held when the step began."""


@dataclass(frozen=True)
class Moment:
    step: int
    files: int
    """0: kill just before the step; more: once the step has made this many files."""


def killed_update(
    installed: Path, wheelhouse: Path, tmp_path: Path, moment: Moment, update: Path = UPDATE
) -> tuple[Path, list[Step]]:
    """Copy the installation, run an update from the stick with the kill planted at
    ``moment``; returns the install directory left behind and the steps that ran."""
    root = copy_install(installed, tmp_path / "opt")
    hook = tmp_path / "hook"
    hook.write_text(HOOK, encoding="utf-8")
    hook.chmod(0o755)
    stub = stub_systemctl(tmp_path)
    steps = tmp_path / "steps"
    env = {
        **os.environ,
        "PATH": f"{stub}:{os.environ['PATH']}",
        "SPIT_DEPLOY_STEP_HOOK": str(hook),
        "STEPS": str(steps),
        "KILL_STEP": str(moment.step),
        "KILL_FILES": str(moment.files),
        "ROOT": str(root),
    }
    proc = subprocess.Popen(
        ["bash", str(update), "--install-dir", str(root), "--without-lgpio",
         "--data-dir", str(allowing_unsigned(tmp_path / "unsigned-data")),
         "--from", str(wheelhouse)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )  # fmt: skip
    proc.wait(timeout=300)
    lines = (tmp_path / "steps.log").read_text(encoding="utf-8").splitlines()
    return root, [Step(line.split(" ", 2)[2], int(line.split(" ", 2)[1])) for line in lines]


@pytest.fixture(scope="module")
def all_steps(
    installed: Path, wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory
) -> list[Step]:
    """Every step of a whole update, counted by the hook (the kill step is never reached)."""
    _, steps = killed_update(
        installed, wheelhouse, tmp_path_factory.mktemp("whole"), Moment(10_000, 0)
    )
    return steps


def moments(steps: list[Step], seed: int, n: int) -> Iterator[Moment]:
    """``n`` seeded moments: every step of the switch and the restart, then others chosen
    by the seed: before a step, or in the middle of one that makes many files (the new
    environment, the install), after a seeded share of them."""
    rng = random.Random(seed)
    made = [b.files - a.files for a, b in itertools.pairwise(steps)]
    busy = [(i + 1, m) for i, m in enumerate(made) if m > 10]
    switch = [i + 1 for i, s in enumerate(steps) if "current" in s.line or "systemctl" in s.line]
    chosen: set[Moment] = {Moment(i, 0) for i in switch}
    while len(chosen) < n:
        if rng.random() < 0.5:
            step, files = rng.choice(busy)
            chosen.add(Moment(step, rng.randint(1, files - 1)))
        else:
            chosen.add(Moment(rng.randint(1, len(steps)), 0))
    yield from sorted(chosen, key=lambda m: (m.step, m.files))


MOMENTS = 24


@pytest.mark.slow
def test_an_update_killed_at_any_moment_leaves_a_current_that_starts(
    installed: Path, wheelhouse: Path, all_steps: list[Step], tmp_path: Path
) -> None:
    lines = [s.line for s in all_steps]
    assert any("mv -T" in line and line.endswith("/current") for line in lines)
    assert any(line.startswith("+ systemctl restart") for line in lines)
    seen = []
    for k, moment in enumerate(moments(all_steps, seed=11, n=MOMENTS)):
        where = tmp_path / f"m{k}"
        where.mkdir()
        root, ran = killed_update(installed, wheelhouse, where, moment)
        assert len(ran) == moment.step, (moment, ran[-3:])  # it really stopped there
        problem = passes_doctor(root, where / "data")
        assert problem is None, (moment, lines[moment.step - 1], problem)
        # At the next power-on the boot check finds nothing to repair.
        before = os.readlink(root / "current")
        assert updater(root, "--boot-check").returncode == 0
        assert os.readlink(root / "current") == before
        seen.append(lines[moment.step - 1].split()[1])
        shutil.rmtree(where)
    assert len(seen) == MOMENTS
    assert {"python3", "mv", "systemctl"} <= set(seen)


@pytest.mark.slow
def test_the_power_cut_test_catches_a_switch_that_is_not_atomic(
    installed: Path, wheelhouse: Path, tmp_path: Path
) -> None:
    """The same test on an updater whose switch removes `current` and then links it again
    (two steps, with a moment between them when there is no current)."""
    planted = tmp_path / "deploy"
    shutil.copytree(DEPLOY, planted)
    versions = planted / "versions.sh"
    atomic = """  run ln -sfn "versions/$id" "$dir/$name.new"
  run mv -T "$dir/$name.new" "$dir/$name"
"""
    text = versions.read_text(encoding="utf-8")
    assert atomic in text
    versions.write_text(
        text.replace(atomic, '  run rm -f "$dir/$name"\n  run ln -s "versions/$id" "$dir/$name"\n'),
        encoding="utf-8",
    )
    # Kill the planted updater just before it links `current` again.
    (tmp_path / "whole").mkdir()
    _, steps = killed_update(
        installed, wheelhouse, tmp_path / "whole", Moment(10_000, 0), update=planted / "update.sh"
    )
    relink = next(
        i + 1
        for i, s in enumerate(steps)
        if s.line.startswith("+ ln -s ") and s.line.endswith("/current")
    )
    where = tmp_path / "cut"
    where.mkdir()
    root, _ = killed_update(
        installed, wheelhouse, where, Moment(relink, 0), update=planted / "update.sh"
    )
    assert passes_doctor(root, where / "data") == "no current link"
