"""A route's releases as a TUF repository (``spit-fleet release sign``).

The repository is a folder, made and signed on the operator's machine, then copied whole
to the fleet server (which serves it) or to a stick::

    REPO/metadata/1.root.json       the route's root, and each later version of it
    REPO/metadata/N.targets.json    the release: its wheels and its manifest, by hash
    REPO/metadata/N.snapshot.json   the targets' version
    REPO/metadata/timestamp.json    the snapshot's version: what a cabinet reads first
    REPO/targets/HASH.NAME          each wheel, and release.json (consistent snapshots)

Each signing makes a new version of targets, snapshot and timestamp, all valid for
``--expires-days``; a cabinet that has seen one refuses any older (a replay), and refuses
all of them once they expire (a freeze). Files are written whole and renamed, timestamp
last, so a copy taken while signing is the old release or the new, never a mix.
"""

from __future__ import annotations

import datetime
import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tuf.api.metadata import (
    Metadata,
    MetaFile,
    Snapshot,
    TargetFile,
    Targets,
    Timestamp,
)
from tuf.api.serialization.json import JSONSerializer

from fleet.broker import FleetError, write_private
from fleet.release_keys import ReleaseKey, root_bytes
from fleet.release_manifest import (
    NAME,
    Manifest,
    ManifestError,
    cabinet_version,
    read_manifest,
    version_key,
)

DEFAULT_EXPIRES_DAYS = 30


@dataclass(frozen=True, slots=True)
class Signed:
    """What a signing made: the release, and the metadata's new version."""

    manifest: Manifest
    version: int
    expires: datetime.datetime


def _write_metadata(path: Path, metadata: Metadata[Any]) -> bytes:
    data = metadata.to_bytes(JSONSerializer(compact=False))
    write_private(path, data, 0o644)
    return data


def current_release(meta: Path) -> tuple[int, Manifest | None]:
    """The repository's targets version and release (0 and None for a new one)."""
    stamp = meta / "timestamp.json"
    if not stamp.exists():
        return 0, None
    timestamp = Metadata[Timestamp].from_bytes(stamp.read_bytes())
    snapshot_version = timestamp.signed.snapshot_meta.version
    snapshot = Metadata[Snapshot].from_bytes(
        (meta / f"{snapshot_version}.snapshot.json").read_bytes()
    )
    version = snapshot.signed.meta["targets.json"].version
    targets = Metadata[Targets].from_bytes((meta / f"{version}.targets.json").read_bytes())
    info = targets.signed.targets.get(NAME)
    if info is None:
        return version, None
    raw = (meta.parent / "targets" / f"{info.hashes['sha256']}.{NAME}").read_bytes()
    return version, read_manifest(raw)


def _add_target(targets_dir: Path, name: str, data: bytes) -> TargetFile:
    digest = hashlib.sha256(data).hexdigest()
    path = targets_dir / f"{digest}.{name}"
    if not path.exists():
        write_private(path, data, 0o644)
    return TargetFile(length=len(data), hashes={"sha256": digest}, path=name)


def sign_release(
    key: ReleaseKey,
    wheels: Path,
    repo: Path,
    now: datetime.datetime,
    expires_days: int = DEFAULT_EXPIRES_DAYS,
) -> Signed:
    """Sign the folder of wheels ``wheels`` as the next release in ``repo``."""
    if not 1 <= expires_days <= 366:
        raise FleetError("--expires-days must be from 1 to 366")
    names = sorted(p.name for p in wheels.glob("*.whl"))
    try:
        manifest = Manifest(route=key.route, release=cabinet_version(names), wheels=tuple(names))
    except ManifestError as exc:
        raise FleetError(f"{wheels}: {exc}") from None
    meta, targets_dir = repo / "metadata", repo / "targets"
    meta.mkdir(parents=True, exist_ok=True)
    targets_dir.mkdir(exist_ok=True)
    old_version, old = current_release(meta)
    if old is not None and version_key(manifest.release) < version_key(old.release):
        raise FleetError(
            f"{manifest.release} is older than the release {repo} holds ({old.release})"
        )
    # Every version of the root a cabinet may have to chain through, the newest as root.json.
    root = key.root
    root_path = meta / f"{root.signed.version}.root.json"
    if not root_path.exists():
        write_private(root_path, root_bytes(root), 0o644)
    expires = (now + datetime.timedelta(days=expires_days)).replace(microsecond=0)
    version = old_version + 1
    targets = Targets(version=version, expires=expires)
    for name in names:
        targets.targets[name] = _add_target(targets_dir, name, (wheels / name).read_bytes())
    targets.targets[NAME] = _add_target(targets_dir, NAME, manifest.text().encode())
    signed_targets = Metadata(targets)
    signed_targets.sign(key.signer)
    targets_data = _write_metadata(meta / f"{version}.targets.json", signed_targets)
    snapshot = Snapshot(version=version, expires=expires)
    snapshot.meta["targets.json"] = MetaFile(
        version=version,
        length=len(targets_data),
        hashes={"sha256": hashlib.sha256(targets_data).hexdigest()},
    )
    signed_snapshot = Metadata(snapshot)
    signed_snapshot.sign(key.signer)
    snapshot_data = _write_metadata(meta / f"{version}.snapshot.json", signed_snapshot)
    timestamp = Timestamp(version=version, expires=expires)
    timestamp.snapshot_meta = MetaFile(
        version=version,
        length=len(snapshot_data),
        hashes={"sha256": hashlib.sha256(snapshot_data).hexdigest()},
    )
    signed_timestamp = Metadata(timestamp)
    signed_timestamp.sign(key.signer)
    _write_metadata(meta / "timestamp.json", signed_timestamp)
    shutil.copyfile(root_path, meta / "root.json.tmp")
    (meta / "root.json.tmp").replace(meta / "root.json")
    return Signed(manifest=manifest, version=version, expires=expires)
