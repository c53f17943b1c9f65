"""A release downloaded and checked while the cabinet plays, kept as a release of its own
(docs/releases.md, "Rollouts"): ``releases/staged`` under the data directory holds its
signed metadata and its files under their hashes, as the fleet serves them. The install,
run as root at a safe moment, verifies that copy again before it installs anything: the
cabinet's own user, which made the copy, is never trusted with what root installs.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from cabinet.storage.durable import sync_dir, sync_tree
from cabinet.updates.verify import Verified
from fleet.release_manifest import NAME


def _version(path: Path) -> int:
    return int(json.loads(path.read_text(encoding="utf-8"))["signed"]["version"])


def stage(
    trusted: Path,
    verified: Verified,
    staged: Path,
    sync: Callable[[Path], None] = sync_tree,
) -> Path:
    """Make ``staged`` a release of the metadata in ``trusted`` (TUF's client's, as it
    verified ``verified``) and ``verified``'s files; replaces what was staged before in
    one rename, once the new copy is on the disk (``sync``): a power cut leaves the old
    release staged or the new one, whole. Returns ``staged``."""
    new = staged.with_name(staged.name + ".new")
    shutil.rmtree(new, ignore_errors=True)
    (new / "metadata").mkdir(parents=True)
    (new / "targets").mkdir()
    for root in (trusted / "root_history").glob("*.root.json"):
        shutil.copyfile(root, new / "metadata" / root.name)
    for role in ("snapshot", "targets"):
        source = trusted / f"{role}.json"
        shutil.copyfile(source, new / "metadata" / f"{_version(source)}.{role}.json")
    shutil.copyfile(trusted / "timestamp.json", new / "metadata" / "timestamp.json")
    targets = json.loads((trusted / "targets.json").read_text(encoding="utf-8"))["signed"]
    for name in [*verified.manifest.wheels, NAME]:
        digest = targets["targets"][name]["hashes"]["sha256"]
        shutil.copyfile(verified.wheels / name, new / "targets" / f"{digest}.{name}")
    sync(new)
    old = staged.with_name(staged.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if staged.exists():
        staged.rename(old)
    new.rename(staged)
    sync_dir(staged.parent)  # the name "staged" itself, before the cabinet says so
    shutil.rmtree(old, ignore_errors=True)
    return staged


class Pace:
    """Keeps a download under ``bytes_per_s``: told of each chunk, it waits as long as
    the download is ahead of that rate (so it takes its share of the CPU and the line,
    not more, while the cabinet plays)."""

    def __init__(
        self,
        bytes_per_s: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.bytes_per_s = bytes_per_s
        self.clock = clock
        self.sleep = sleep
        self.started = clock()
        self.sent = 0

    def __call__(self, n: int) -> None:
        self.sent += n
        ahead = self.sent / self.bytes_per_s - (self.clock() - self.started)
        if ahead > 0:
            self.sleep(ahead)
