"""bench/card_boot_figures.py's reading of one boot of the card in the virtual Pi (what
bench/card_boot.sh takes from the guest), checked against figures worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.deploy.conftest import bench_module

figures = bench_module("card_boot_figures")

# journalctl -o short-monotonic, as the card's guest prints it (the host is spit-cabinet).
JOURNAL = """[    0.000000] spit-cabinet kernel: Booting Linux on physical CPU 0x0000000000
[   61.204113] spit-cabinet systemd[1]: Starting spit-cabinet.service - Spit arcade cabinet...
[   70.881562] spit-cabinet spit-cabinet[431]: INFO spit-cabinet: settings from /var/lib/x
[   84.020001] spit-cabinet spit-cabinet[431]: INFO spit-cabinet: display: kmsdrm, software
[   90.500000] spit-cabinet spit-cabinet[431]: INFO spit-cabinet: running: input gpio, 1x1
[   91.000000] spit-cabinet spit-cabinet[431]: INFO spit-cabinet: display: again
"""


def write_boot(folder: Path) -> None:
    folder.mkdir()
    (folder / "boot-time.txt").write_text(
        "Startup finished in 40.125s (kernel) + 1min 23.5s (userspace) = 2min 3.625s\n"
        "graphical.target reached after 1min 23.4s in userspace.\n"
    )
    (folder / "units.txt").write_text(
        "sysinit.target 52100000 52100000\n"
        "data.mount 74708000 75723000\n"
        "spit-cabinet.service 61204113 92031000\n"
        "spit-cabinet-nodata.service 0 0\n"
    )
    (folder / "journal.txt").write_text(JOURNAL)
    # 178,515 sectors read: 91.4 MB.
    (folder / "vda-stat.txt").write_text("4000 0 178515 9000 0 0 0 0 0 0 0\n")


def test_one_boot_reads_systemds_times_the_units_and_the_cabinets_steps(tmp_path: Path) -> None:
    write_boot(tmp_path / "boot-1")
    got = figures.boot(tmp_path / "boot-1", 1)
    assert got["kernel_s"] == pytest.approx(40.12, abs=0.01)
    assert got["userspace_s"] == pytest.approx(83.5)
    assert got["kernel_to_first_frame_s"] == pytest.approx(92.03)
    # From the unit's start (its boot check first) to its READY=1: 92.031 - 61.204.
    assert got["cabinet_unit_start_to_frame_s"] == pytest.approx(30.83)
    assert got["units"]["data.mount"] == {"started_s": 74.71, "ready_s": 75.72}
    assert got["units"]["spit-cabinet-nodata.service"] == {"started_s": 0.0, "ready_s": 0.0}
    # The first line of each step, the cabinet's own lines only.
    assert got["cabinet_steps_s"] == {
        "cabinet_first_line_s": 70.881562,
        "display_opened_s": 84.020001,
        "running_s": 90.5,
    }
    assert got["read_from_the_card_mb"] == 91.4


def test_the_summary_takes_the_median_of_the_reboots_not_the_first_boot(tmp_path: Path) -> None:
    lines = [
        {"boot": 0, "kernel_s": 90.0, "userspace_s": 300.0, "kernel_to_first_frame_s": 400.0,
         "cabinet_unit_start_to_frame_s": 50.0},
        {"boot": 1, "kernel_s": 40.0, "userspace_s": 80.0, "kernel_to_first_frame_s": 120.0,
         "cabinet_unit_start_to_frame_s": 30.0},
        {"boot": 2, "kernel_s": 30.0, "userspace_s": 90.0, "kernel_to_first_frame_s": 110.0,
         "cabinet_unit_start_to_frame_s": 34.0},
        {"boot": 3, "kernel_s": 35.0, "userspace_s": 70.0, "kernel_to_first_frame_s": 130.0,
         "cabinet_unit_start_to_frame_s": 20.0},
    ]  # fmt: skip
    path = tmp_path / "boots.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    got = figures.summary(path, "card.img.xz")
    assert got["reboots_median"] == {
        "kernel_s": 35.0,
        "userspace_s": 80.0,
        "kernel_to_first_frame_s": 120.0,
        "cabinet_unit_start_to_frame_s": 30.0,
    }
    assert [b["boot"] for b in got["boots"]] == [0, 1, 2, 3]
