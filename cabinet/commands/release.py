"""``spit-cabinet release verify``: what the updater runs before it installs anything
(deploy/update.sh, docs/releases.md).

A signed release (a folder with TUF metadata: ``spit-fleet release sign`` makes it, or
the fleet server's ``https://`` address, ``spit-fleet release serve``) is checked whole
against the route's root of trust from the join file, its wheels copied into ``--out``;
the folder to install from is printed on stdout. A download cut off resumes at the next
try (the parts are kept in the data directory's ``releases/downloads``). Anything else (bare
wheels, a checkout) is installed only while ``unsigned_updates`` is on at the cabinet.
A refusal is one line on stderr, exit status 1, and nothing in ``--out``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tuf.ngclient.fetcher import FetcherInterface

from cabinet.link.connection import cabinet_version
from cabinet.link.status import read_status
from cabinet.storage.database import Access
from cabinet.storage.paths import add_data_dir_option, data_dir, database_path
from cabinet.storage.problems import StorageError
from cabinet.storage.setting_table import UNSIGNED_UPDATES
from cabinet.storage.store import CabinetStore
from cabinet.updates.https import HttpsFetcher, resumable
from cabinet.updates.sources import FolderFetcher, is_release, is_release_url
from cabinet.updates.verify import Download, Refused, Trust, verify_release
from fleet.join_file import Join

TRUSTED = Path("releases") / "trusted"
"""Under the data directory: the release metadata this cabinet last trusted."""
DOWNLOADS = Path("releases") / "downloads"
"""Under the data directory: the parts of files downloaded so far."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "release",
        help="check an update before it is installed",
        description="Signed releases (docs/releases.md).",
    )
    sub = parser.add_subparsers(dest="release_command", metavar="ACTION", required=True)
    verify = sub.add_parser(
        "verify", help="check a release whole; print the folder of wheels to install"
    )
    verify.add_argument(
        "source", help="a signed release's folder or the fleet's https:// address (or bare wheels)"
    )
    verify.add_argument(
        "--out", type=Path, required=True, help="a new folder for the checked wheels"
    )
    verify.add_argument(
        "--running", help="the version running (default: this one's); a release must be newer"
    )
    add_data_dir_option(verify)
    verify.set_defaults(func=run)


def update_policy(folder: Path) -> tuple[Join | None, bool]:
    """What the cabinet whose data is in ``folder`` checks an update against: its join
    (with the route's release root) and its unsigned_updates switch (no database yet:
    none, off)."""
    if not database_path(folder).exists():
        return None, False
    store = CabinetStore.open(folder, access=Access.READ)
    try:
        return read_status(store.db.connection).join, bool(store.settings.get(UNSIGNED_UPDATES))
    finally:
        store.close()


def run(args: argparse.Namespace) -> int:
    folder = data_dir(args.data_dir)
    try:
        join, unsigned_allowed = update_policy(folder)
    except StorageError as exc:
        print(f"release: refused: the cabinet's settings cannot be read ({exc})", file=sys.stderr)
        return 1
    remote = is_release_url(str(args.source))
    source = Path(args.source)
    if not remote and not is_release(source):
        if not unsigned_allowed:
            print(
                f"release: refused: {source} is not a signed release (no metadata/); "
                "only releases signed by the route's key are installed while 'Unsigned "
                "updates' is off (service menu, Operator settings)",
                file=sys.stderr,
            )
            return 1
        print(f"release: {source} is not signed; installed as 'Unsigned updates' is on",
              file=sys.stderr)  # fmt: skip
        print(source)
        return 0
    if join is None or not join.release_root:
        print(
            "release: refused: this cabinet has no release root to check a release with "
            "(join it to its fleet with a join file made after 'spit-fleet release trust')",
            file=sys.stderr,
        )
        return 1
    trust = Trust(
        root=join.release_root.encode(),
        route=join.fleet,
        running=args.running or cabinet_version(),
        trusted=folder / TRUSTED,
    )
    fetcher: FetcherInterface
    download: Download | None
    if remote:
        base = str(args.source).rstrip("/")
        https = HttpsFetcher(join.tls_context())
        where = (f"{base}/metadata/", f"{base}/targets/")
        fetcher, download = https, resumable(https, folder / DOWNLOADS)
    else:
        local = source.resolve()
        where = ((local / "metadata").as_uri() + "/", (local / "targets").as_uri() + "/")
        fetcher, download = FolderFetcher(), None
    try:
        verified = verify_release(trust, fetcher, *where, args.out, download)
    except Refused as exc:
        print(f"release: refused: {exc}", file=sys.stderr)
        return 1
    except FileExistsError:
        print(f"release: {args.out} exists: give a new folder", file=sys.stderr)
        return 2
    manifest = verified.manifest
    print(
        f"release: {manifest.release} for route {manifest.route!r} verified: "
        f"{len(manifest.wheels)} wheel(s) signed by the route's key",
        file=sys.stderr,
    )
    print(verified.wheels)
    return 0
