"""A route's release key, signed releases and a cabinet that trusts the route: the real
key, the real TUF metadata, the real cabinet database (docs/releases.md)."""

from __future__ import annotations

import datetime
import os
import random
from dataclasses import dataclass
from pathlib import Path

from cabinet.link import membership
from cabinet.storage.database import Access
from cabinet.storage.store import CabinetStore
from fleet.join_file import Join
from fleet.release_keys import ReleaseKey, make_release_key, root_bytes
from fleet.release_repository import Signed, sign_release

PASSPHRASE = "correct horse battery"
ROUTE = "Northside Amusements"


def now() -> datetime.datetime:
    """TUF's client checks expiry against the machine's clock: releases are signed
    against it too."""
    return datetime.datetime.now(datetime.UTC)


def make_key(folder: Path, route: str = ROUTE) -> ReleaseKey:
    return make_release_key(folder, route, PASSPHRASE, now())


def wheels(folder: Path, version: str, *, seed: int = 1, size: int = 4096) -> Path:
    """A release's folder of wheels: the cabinet's and one it needs (seeded bytes: the
    verifier checks hashes, it never opens a wheel)."""
    folder.mkdir(parents=True)
    rng = random.Random(f"{seed}-{version}")
    (folder / f"spit_cabinet-{version}-py3-none-any.whl").write_bytes(rng.randbytes(size))
    (folder / "tomli_w-1.0.0-py3-none-any.whl").write_bytes(rng.randbytes(size // 2))
    return folder


def sign(
    key: ReleaseKey,
    tmp_path: Path,
    version: str,
    repo: Path,
    *,
    at: datetime.datetime | None = None,
    expires_days: int = 30,
) -> Signed:
    return sign_release(
        key, wheels(tmp_path / f"wheels-{version}-{os.urandom(4).hex()}", version), repo,
        at or now(), expires_days,
    )  # fmt: skip


@dataclass(frozen=True)
class Cabinet:
    """A cabinet's data directory, joined to the route with its release root."""

    data: Path

    @classmethod
    def joined(cls, data: Path, key: ReleaseKey, route: str = ROUTE) -> Cabinet:
        store = CabinetStore.open(data, access=Access.WRITE)
        try:
            join = Join(route, "bar-1", "The Anchor", "localhost", 8883, "pw", "ca",
                        root_bytes(key.root).decode())  # fmt: skip
            with store.db.transaction() as conn:
                membership.join(conn, join)
        finally:
            store.close()
        return cls(data)
