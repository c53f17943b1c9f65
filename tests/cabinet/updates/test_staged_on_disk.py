"""A staged release is on the disk before it counts (cabinet/updates/staging.py,
cabinet/storage/durable.py): every file and folder of the new copy is fsynced before the
rename that makes it ``staged``, and the name itself after. The virtual Pi's power pulls
found a release staged seconds before a cut whose wheel was empty after it: root then
refused the install as "truncated or altered", and the rollout halted."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cabinet.storage import durable
from cabinet.updates.staging import stage
from cabinet.updates.verify import Verified
from fleet.release_manifest import NAME, Manifest


def synced_paths(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The paths os.fsync is called on, from now on, in order."""
    seen: list[Path] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        seen.append(Path(os.readlink(f"/proc/self/fd/{fd}")))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return seen


def test_sync_tree_syncs_every_file_and_then_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "new"
    (root / "a" / "b").mkdir(parents=True)
    files = [root / "top.txt", root / "a" / "one.whl", root / "a" / "b" / "two.json"]
    for path in files:
        path.write_bytes(b"x")
    seen = synced_paths(monkeypatch)
    durable.sync_tree(root)
    folders = [root / "a" / "b", root / "a", root]
    assert sorted(seen) == sorted(files + folders)
    for path in files:  # a file before the folder that names it
        assert seen.index(path) < seen.index(path.parent)


def a_release(tmp_path: Path) -> tuple[Path, Verified]:
    """The metadata TUF's client trusted, and the checked wheels, of release 0.2.0."""
    trusted, wheels = tmp_path / "trusted", tmp_path / "checked"
    (trusted / "root_history").mkdir(parents=True)
    wheels.mkdir()
    (trusted / "root_history" / "1.root.json").write_text("{}", encoding="utf-8")
    names = ("spit_cabinet-0.2.0-py3-none-any.whl", NAME)
    targets = {name: {"hashes": {"sha256": f"{n:064x}"}} for n, name in enumerate(names)}
    for role, signed in (("snapshot", {}), ("targets", {"targets": targets})):
        text = json.dumps({"signed": {"version": 3, **signed}})
        (trusted / f"{role}.json").write_text(text, encoding="utf-8")
    (trusted / "timestamp.json").write_text("{}", encoding="utf-8")
    for name in names:
        (wheels / name).write_bytes(name.encode())
    manifest = Manifest(route="Test Route", release="0.2.0", wheels=names[:1])
    return trusted, Verified(manifest=manifest, wheels=wheels)


def test_the_new_copy_is_on_the_disk_before_it_is_named_staged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trusted, verified = a_release(tmp_path)
    staged = tmp_path / "releases" / "staged"
    staged.parent.mkdir()
    at_sync: list[tuple[Path, bool, list[str]]] = []

    def sync(new: Path) -> None:  # what the sync saw: the copy, not yet staged
        names = sorted(str(p.relative_to(new)) for p in new.rglob("*") if p.is_file())
        at_sync.append((new, staged.exists(), names))
        durable.sync_tree(new)

    seen = synced_paths(monkeypatch)
    assert stage(trusted, verified, staged, sync=sync) == staged
    [(new, existed, names)] = at_sync
    assert new != staged and not existed
    assert names == sorted(str(p.relative_to(staged)) for p in staged.rglob("*") if p.is_file())
    assert len(names) == 6  # the root, snapshot, targets, timestamp, the wheel, the manifest
    assert seen[-1] == staged.parent  # then the name "staged" itself
    # Staged again (the next release): the new copy replaces the old one whole.
    stage(trusted, verified, staged, sync=sync)
    assert [p.name for p in staged.parent.iterdir()] == ["staged"]
