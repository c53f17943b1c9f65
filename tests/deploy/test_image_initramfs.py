"""The card's own initramfs hook (scripts/image/files/initramfs-card; docs/image.md,
"Boot"), run as initramfs-tools runs it, on a folder standing in for the initramfs being
made: the random seed and udev's hardware database go, and nothing else."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.deploy.conftest import REPO

HOOK = REPO / "scripts" / "image" / "files" / "initramfs-card"


def hook(*args: str, destdir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", HOOK, *args],
        env=dict(os.environ, DESTDIR=str(destdir)),
        capture_output=True,
        text=True,
        check=True,
    )


def test_the_seed_and_the_hardware_database_go_and_the_rest_stays(tmp_path: Path) -> None:
    udev = tmp_path / "usr" / "lib" / "udev"
    (udev / "rules.d").mkdir(parents=True)
    (tmp_path / ".random-seed").write_bytes(os.urandom(512))
    (udev / "hwdb.bin").write_bytes(b"KSLPHHRH" + bytes(64))
    kept = udev / "rules.d" / "60-persistent-storage.rules"
    kept.write_text('KERNEL=="mmcblk*", SYMLINK+="disk/by-partuuid/x"\n')
    hook(destdir=tmp_path)
    assert not (tmp_path / ".random-seed").exists()
    assert not (udev / "hwdb.bin").exists()
    # The packages' rules stay (by-partuuid names come from them), and none is added.
    assert [p.name for p in (udev / "rules.d").iterdir()] == [kept.name]


def test_an_initramfs_without_either_is_left_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "init").write_text("#!/bin/sh\n")
    hook(destdir=tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["init"]


def test_it_asks_for_no_other_hook_first(tmp_path: Path) -> None:
    # initramfs-tools asks each hook for its prerequisites before it runs any; /etc's
    # hooks run after the packages' whatever they say.
    done = hook("prereqs", destdir=tmp_path)
    assert done.stdout.strip() == ""
    assert list(tmp_path.iterdir()) == []
