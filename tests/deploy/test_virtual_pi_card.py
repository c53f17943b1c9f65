"""The virtual Pi's checks on a flashed card (scripts/virtual-pi/guest_books.py, the
pulls' part of report.py): each shown passing on what it should pass, and failing on what
it must catch."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from cabinet.storage.paths import database_path
from cabinet.storage.store import CabinetStore
from tests.deploy.test_virtual_pi_checks import SCRIPTS, load

guest_books = load("guest_books")
report = load("report")


def test_the_books_are_what_the_cabinet_committed(tmp_path: Path) -> None:
    store = CabinetStore.open(tmp_path)
    store.commit_money({"coins1": 3, "units_in": 3})
    store.close()
    books = guest_books.books(database_path(tmp_path))
    assert books == {"games": 0, "coins1": 3, "integrity": "ok"}


def test_a_damaged_database_does_not_read_as_whole(tmp_path: Path) -> None:
    store = CabinetStore.open(tmp_path)
    store.commit_money({"coins1": 1})
    store.close()
    path = database_path(tmp_path)
    with sqlite3.connect(path) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    data = bytearray(path.read_bytes())
    # Scribble over every page but the first (the header and the schema), as a torn write
    # would: the tables' pages no longer hold what their parents say.
    for page in range(1, pages):
        data[page * page_size + 8 : page * page_size + 64] = b"\xa5" * 56
    path.write_bytes(bytes(data))
    try:
        books = guest_books.books(path)
    except sqlite3.DatabaseError:
        return  # unreadable outright: as far from whole as it gets
    assert books["integrity"] != "ok"


def pull(n: int, kind: str, coins_before: int, coins_after: int, **checks: bool) -> dict[str, Any]:
    return {
        "n": n,
        "kind": kind,
        "at_s": 1.5,
        "during": "spit-cabinet-data: making an ext4 file system",
        "books_before": {"games": 1, "coins1": coins_before, "integrity": "ok"},
        "books_after": {"games": 1, "coins1": coins_after, "integrity": "ok"},
        "attract_s": 50.0,
        "version": "0.1.0",
        "checks": {"boots to attract": True, **checks},
    }


GOOD = [
    pull(1, "first boot", 0, 0),
    pull(2, "attract, coins going in", 4, 5, **{"no committed coin lost": True}),
    pull(3, "booting", 5, 5),
    pull(4, "release download", 5, 5, **{"runs the old version or the new": True}),
    pull(5, "release install", 5, 5, **{"reports the version it runs": True}),
]


def write(run: Path, pulls: list[dict[str, Any]]) -> Path:
    (run / "pulls.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pulls))
    return run


def test_good_pulls_pass(tmp_path: Path) -> None:
    figures, checks = report.check_pulls(write(tmp_path, GOOD))
    assert all(checks.values()), checks
    assert figures["count"] == 5
    assert figures["moments"][0] == ["first boot", 1.5, GOOD[0]["during"]]


@pytest.mark.parametrize(
    ("pulls", "failing"),
    [
        pytest.param([], "pulls: the power was pulled", id="none"),
        pytest.param(
            [
                *GOOD[:3],
                pull(4, "release download", 5, 5, **{"runs the old version or the new": False}),
            ],
            "pull 4 (release download): runs the old version or the new",
            id="neither-version",
        ),
        pytest.param(
            [
                *GOOD[:4],
                pull(5, "release install", 5, 5, **{"finishes the release by itself": False}),
            ],
            "pull 5 (release install): finishes the release by itself",
            id="release-not-finished",
        ),
        pytest.param(
            [*GOOD[:3], GOOD[4], GOOD[4]],
            "pulls: during a release's download and during its install",
            id="no-download-pull",
        ),
        pytest.param(
            [GOOD[0], pull(2, "attract, coins going in", 4, 3, **{"boots to attract": False})],
            "pull 2 (attract, coins going in): boots to attract",
            id="no-attract",
        ),
        pytest.param(
            [g for g in GOOD if not g["kind"].startswith("release")],
            "pulls: during first boots, in attract and during a release",
            id="no-release-pull",
        ),
        pytest.param(
            [pull(1, "first boot", 0, 0), pull(2, "attract, coins going in", 0, 0), *GOOD[3:]],
            "pulls: coins were committed before pulls",
            id="no-coin-in-flight",
        ),
    ],
)
def test_each_pull_fault_fails_its_check(
    tmp_path: Path, pulls: list[dict[str, Any]], failing: str
) -> None:
    _, checks = report.check_pulls(write(tmp_path, pulls))
    assert checks[failing] is False


def test_the_running_version_is_the_started_folders_wheel(tmp_path: Path) -> None:
    started = tmp_path / "started"
    site = tmp_path / "versions" / "20261206T1101Z" / "venv" / "lib" / "python3.13"
    (site / "site-packages" / "spit_cabinet-0.1.0.post1.dist-info").mkdir(parents=True)
    assert guest_books.running_version(started, tmp_path) == ""  # none started yet
    started.write_text("20261206T1101Z\n")
    assert guest_books.running_version(started, tmp_path) == "0.1.0.post1"
    started.write_text("gone\n")
    assert guest_books.running_version(started, tmp_path) == ""


MOUNTS = """/dev/root / squashfs ro 0 0
overlayroot / overlay rw 0 0
/dev/mmcblk0p3 /data ext4 rw,noatime 0 0
/dev/mmcblk0p3 /opt/spit-cabinet ext4 rw,noatime 0 0
/dev/mmcblk0p3 /var/lib/spit-cabinet ext4 rw,noatime 0 0
"""


@pytest.mark.parametrize(
    ("table", "mounted"),
    [
        pytest.param(MOUNTS, True, id="all"),
        pytest.param(MOUNTS.replace("/data ext4", "/data vfat"), False, id="not-ext4"),
        pytest.param(MOUNTS.replace("/var/lib/spit-cabinet", "/srv"), False, id="no-books"),
        pytest.param("\n".join(MOUNTS.splitlines()[:2]), False, id="nothing"),
    ],
)
def test_the_data_is_mounted_only_when_all_three_are(
    tmp_path: Path, table: str, mounted: bool
) -> None:
    (tmp_path / "mounts").write_text(table)
    assert guest_books.data_mounted(tmp_path / "mounts") is mounted


def test_a_fairness_test_left_out_is_said_and_one_missing_fails(tmp_path: Path) -> None:
    figures, checks = report.check_fairness(tmp_path)  # no certificates, nothing said
    assert checks and not any(checks.values())
    (tmp_path / "fairness-skipped.txt").write_text("left out by .ci/run: 41 minutes gone\n")
    figures, checks = report.check_fairness(tmp_path)
    assert figures == {"not_run": "left out by .ci/run: 41 minutes gone"}
    assert checks == {}


def test_a_pull_missing_from_those_asked_for_fails(tmp_path: Path) -> None:
    (tmp_path / "pulls-expected.json").write_text(
        json.dumps({"first boot": 1, "attract": 2, "release": 2})
    )
    _, checks = report.check_pulls(write(tmp_path, GOOD))
    assert all(checks.values()), checks  # 1, 2 (coins and booting), 2: as asked
    _, checks = report.check_pulls(write(tmp_path, GOOD[:3]))  # the release pulls never made
    assert [name for name, ok in checks.items() if not ok] == [
        "pulls: as many as asked for ({'first boot': 1, 'attract': 2, 'release': 2})",
        "pulls: during first boots, in attract and during a release",
    ]


def test_a_pull_that_raises_is_recorded_as_failed(tmp_path: Path) -> None:
    sys.path.insert(0, str(SCRIPTS))  # pulls.py imports agent.py from beside it
    try:
        pulls = load("pulls")
    finally:
        sys.path.remove(str(SCRIPTS))

    def body(pull: Any) -> None:
        pull.during = "spit-cabinet-data: making an ext4 file system"
        raise TimeoutError("no attract in 420 s")

    assert pulls.guarded(tmp_path, 7, "booting", 3.5, body) is False
    (line,) = (tmp_path / "pulls.jsonl").read_text().splitlines()
    recorded = json.loads(line)
    assert recorded["n"] == 7 and recorded["kind"] == "booting"
    assert recorded["checks"] == {"the pull ran to its end": False}
    assert recorded["error"].startswith("TimeoutError: no attract in 420 s; no QEMU to look at")
    figures, checks = report.check_pulls(tmp_path)
    assert checks["pull 7 (booting): the pull ran to its end"] is False
    assert figures["errors"] == {"7": recorded["error"]}


def test_a_boot_that_never_reaches_attract_says_what_qemu_and_the_console_show(
    tmp_path: Path,
) -> None:
    sys.path.insert(0, str(SCRIPTS))
    try:
        pulls = load("pulls")
    finally:
        sys.path.remove(str(SCRIPTS))
    (tmp_path / "qemu.pid").write_text(f"{os.getpid()}\n")  # a process that is running
    (tmp_path / "console.log").write_bytes(b"before the pull\n")
    card = pulls.Card(tmp_path)
    card.console_at = len(b"before the pull\n")
    with (tmp_path / "console.log").open("ab") as console:
        console.write(b"\x1b[0m[  3.1] EXT4-fs (vda3): recovery complete\r\n[  3.4] Hmm\n")
    said = card.diagnose()
    assert said.startswith(f"QEMU {os.getpid()} running; the monitor did not answer")
    assert "the last: ['[  3.1] EXT4-fs (vda3): recovery complete', '[  3.4] Hmm']" in said
    assert "before the pull" not in said


ROLLED_OUT = {"rollout": 1, "state": "installed", "reason": "", "release": "0.1.0.post2",
              "reported_version": "0.1.0.post2", "steps": ["offered", "installed"]}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "runs", "failing"),
    [
        pytest.param({}, "0.1.0.post2", [], id="installed"),
        pytest.param(
            {"state": "rolled_back", "reason": "failed to start 3 times in a row"},
            "0.1.0",
            ["route: the release rolled out over the fleet was installed",
             "route: the card runs the release"],
            id="rolled-back",
        ),
        pytest.param(
            {"reported_version": "0.1.0"},
            "0.1.0.post2",
            ["route: the card reported the release's version to the fleet"],
            id="not-reported",
        ),
    ],
)  # fmt: skip
def test_the_release_over_the_route_is_checked_end_to_end(
    tmp_path: Path, change: dict[str, str], runs: str, failing: list[str]
) -> None:
    (tmp_path / "route-rollout.json").write_text(json.dumps({**ROLLED_OUT, **change}))
    (tmp_path / "route-runs.txt").write_text(runs + "\n")
    figures, checks = report.check_route(tmp_path)
    assert [name for name, ok in checks.items() if not ok] == failing
    assert figures["runs"] == runs


def test_a_rollout_route_py_never_finished_fails_every_route_check(tmp_path: Path) -> None:
    (tmp_path / "route-runs.txt").write_text("0.1.0\n")
    figures, checks = report.check_route(tmp_path)
    assert "no rollout's end" in figures["error"] and not any(checks.values())
