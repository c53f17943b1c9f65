"""The card's own initramfs hook (scripts/image/files/initramfs-card; docs/image.md,
"Boot"), run as initramfs-tools runs it, on a folder standing in for the initramfs being
made: the random seed and udev's hardware database go, and the card's partitions are
tagged for systemd."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.deploy.conftest import REPO

HOOK = REPO / "scripts" / "image" / "files" / "initramfs-card"
RULE = "usr/lib/udev/rules.d/99-spit-cabinet-systemd.rules"


def hook(*args: str, destdir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", HOOK, *args],
        env=dict(os.environ, DESTDIR=str(destdir)),
        capture_output=True,
        text=True,
        check=True,
    )


def test_the_seed_and_the_hardware_database_go_and_the_partitions_are_tagged(
    tmp_path: Path,
) -> None:
    udev = tmp_path / "usr" / "lib" / "udev"
    (udev / "rules.d").mkdir(parents=True)
    (tmp_path / ".random-seed").write_bytes(os.urandom(512))
    (udev / "hwdb.bin").write_bytes(b"KSLPHHRH" + bytes(64))
    kept = udev / "rules.d" / "60-persistent-storage.rules"
    kept.write_text('KERNEL=="mmcblk*", SYMLINK+="disk/by-partuuid/x"\n')
    hook(destdir=tmp_path)
    assert not (tmp_path / ".random-seed").exists()
    assert not (udev / "hwdb.bin").exists()
    assert kept.exists()  # the packages' rules stay: by-partuuid names come from them
    rule = (tmp_path / RULE).read_text().strip()
    # Every block device the initramfs's udev finds (the card and its partitions), on
    # "add" and "change" alike, and nothing else: net and tty devices are the root's.
    assert rule == 'SUBSYSTEM=="block", ACTION!="remove", TAG+="systemd"'


def test_the_hook_makes_the_rules_folder_when_udev_left_none(tmp_path: Path) -> None:
    hook(destdir=tmp_path)
    assert (tmp_path / RULE).is_file()


def test_it_asks_for_no_other_hook_first(tmp_path: Path) -> None:
    # initramfs-tools asks each hook for its prerequisites before it runs any; /etc's
    # hooks run after the packages' whatever they say.
    done = hook("prereqs", destdir=tmp_path)
    assert done.stdout.strip() == ""
    assert list(tmp_path.iterdir()) == []
