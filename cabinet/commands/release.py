"""``spit-cabinet release verify``: what the updater runs before it installs anything
(deploy/update.sh, docs/releases.md).

A signed release (a folder with TUF metadata: ``spit-fleet release sign`` makes it, or
the fleet server's ``https://`` address, ``spit-fleet release serve``) is checked whole
against the route's root of trust from the join file, its wheels copied into ``--out``;
the folder to install from is printed on stdout. A download cut off resumes at the next
try (the parts are kept in the data directory's ``releases/downloads``). Anything else (bare
wheels, a checkout) is installed only while ``unsigned_updates`` is on at the cabinet.
A refusal is one line on stderr, exit status 1, and nothing in ``--out``; ``fetch``
exits 3 when the line failed (a reset, a timeout), not a check: the watch tries again.
"""

from __future__ import annotations

import argparse
import shutil
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
from cabinet.updates.staging import Pace, stage
from cabinet.updates.verify import Download, Refused, Trust, Verified, verify_release, why
from cabinet.updates.watch import STAGED, TRY_AGAIN
from fleet.join_file import Join

TRUSTED = Path("releases") / "trusted"
"""Under the data directory: the release metadata this cabinet last trusted."""
DOWNLOADS = Path("releases") / "downloads"
"""Under the data directory: the parts of files downloaded so far."""
FETCHING = Path("releases") / "fetching"
"""Under the data directory: a release being fetched, before it is staged."""


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
    verify.add_argument(
        "--pin",
        type=Path,
        help="the updater's own copy of the route's root (made at the first signed update)",
    )
    verify.add_argument(
        "--trusted", type=Path, help="where the updater keeps the metadata it last trusted"
    )
    add_data_dir_option(verify)
    verify.set_defaults(func=run)
    get = sub.add_parser(
        "fetch", help="download and check the release the fleet offered; stage it to install"
    )
    get.add_argument("url", help="the fleet's https://HOST:PORT/releases/")
    get.add_argument(
        "--rate-kbps",
        type=int,
        default=2048,
        help="at most this many KiB a second (default 2048: about 13 %% of a Pi 4's core)",
    )
    get.add_argument("--running", help="the version running (default: this one's)")
    get.add_argument(
        "--have", type=Path, help="wheels the cabinet has (its install's): not downloaded again"
    )
    add_data_dir_option(get)
    get.set_defaults(func=fetch)


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


def _refused(why: str) -> int:
    print(f"release: refused: {why}", file=sys.stderr)
    return 1


def _trust(join: Join | None, folder: Path, running: str | None) -> Trust | None:
    """What a release is checked against, or ``None`` (said why): no release root."""
    if join is None or not join.release_root:
        _refused(
            "this cabinet has no release root to check a release with (join it to its "
            "fleet with a join file made after 'spit-fleet release trust')"
        )
        return None
    return Trust(
        root=join.release_root.encode(),
        route=join.fleet,
        running=running or cabinet_version(),
        trusted=folder / TRUSTED,
    )


def _pinned(trust: Trust, pin: Path, trusted: Path | None) -> Trust | None:
    """``trust`` with the root pinned in ``pin`` (the updater's, root's own: the cabinet's
    database, which the cabinet's user can write, never decides alone what root
    installs). The first signed update verified pins the join file's root (:func:`_pin`);
    a join root that differs later is refused (None, said why) until the pin is removed
    by hand."""
    if pin.exists() and pin.read_bytes() != trust.root:
        _refused(
            f"this cabinet's release root is not the one pinned in {pin}: if its "
            "operator joined it to another route, remove that file (as root) and update "
            "again"
        )
        return None
    return Trust(trust.root, trust.route, trust.running, trusted or trust.trusted)


def _pin(root: bytes, pin: Path) -> None:
    """Pin ``root`` (once a release checked against it was verified)."""
    if pin.exists():
        return
    pin.parent.mkdir(parents=True, exist_ok=True)
    tmp = pin.with_name(pin.name + ".tmp")
    tmp.write_bytes(root)
    tmp.replace(pin)
    print(f"release: the route's release root pinned in {pin}", file=sys.stderr)


def _checked(
    trust: Trust,
    join: Join,
    folder: Path,
    source: str,
    out: Path,
    pace: Pace | None = None,
    have: Path | None = None,
) -> Verified:
    """The release at ``source`` (a folder, or the fleet's https://…/releases/), checked,
    its files in ``out``; raises :class:`Refused`."""
    fetcher: FetcherInterface
    download: Download | None
    if is_release_url(source):
        base = source.rstrip("/")
        https = HttpsFetcher(join.tls_context())
        where = (f"{base}/metadata/", f"{base}/targets/")
        fetcher = https
        download = resumable(https, folder / DOWNLOADS, pace or (lambda n: None), have)
    else:
        local = Path(source).resolve()
        where = ((local / "metadata").as_uri() + "/", (local / "targets").as_uri() + "/")
        fetcher, download = FolderFetcher(), None
    return verify_release(trust, fetcher, *where, out, download)


def _said(verified: Verified, what: str) -> None:
    manifest = verified.manifest
    print(
        f"release: {manifest.release} for route {manifest.route!r} {what}: "
        f"{len(manifest.wheels)} wheel(s) signed by the route's key",
        file=sys.stderr,
    )


def run(args: argparse.Namespace) -> int:
    folder = data_dir(args.data_dir)
    try:
        join, unsigned_allowed = update_policy(folder)
    except StorageError as exc:
        return _refused(f"the cabinet's settings cannot be read ({exc})")
    source = str(args.source)
    if not is_release_url(source) and not is_release(Path(source)):
        if not unsigned_allowed:
            return _refused(
                f"{source} is not a signed release (no metadata/); only releases signed by "
                "the route's key are installed while 'Unsigned updates' is off (service "
                "menu, Operator settings)"
            )
        print(f"release: {source} is not signed; installed as 'Unsigned updates' is on",
              file=sys.stderr)  # fmt: skip
        print(source)
        return 0
    trust = _trust(join, folder, args.running)
    if trust is None or join is None:
        return 1
    if args.pin is not None:
        pinned = _pinned(trust, args.pin, args.trusted)
        if pinned is None:
            return 1
        trust = pinned
    try:
        verified = _checked(trust, join, folder, source, args.out)
    except Refused as exc:
        return _refused(str(exc))
    except FileExistsError:
        print(f"release: {args.out} exists: give a new folder", file=sys.stderr)
        return 2
    if args.pin is not None:
        _pin(trust.root, args.pin)
    _said(verified, "verified")
    print(verified.wheels)
    return 0


def fetch(args: argparse.Namespace) -> int:
    """Download and check the release the fleet offered, and stage it for the install
    (run by the cabinet, as its own user, at low priority, while it plays)."""
    folder = data_dir(args.data_dir)
    try:
        join, _ = update_policy(folder)
    except StorageError as exc:
        return _refused(f"the cabinet's settings cannot be read ({exc})")
    trust = _trust(join, folder, args.running)
    if trust is None or join is None:
        return 1
    out = folder / FETCHING
    shutil.rmtree(out, ignore_errors=True)
    try:
        pace = Pace(args.rate_kbps * 1024)
        verified = _checked(trust, join, folder, args.url, out, pace, args.have)
        staged = stage(trust.trusted, verified, folder / STAGED)
    except Refused as exc:
        if exc.transient:  # the line's fault: the watch tries again later, resuming
            print(f"release: not downloaded, to try again: {exc}", file=sys.stderr)
            return TRY_AGAIN
        return _refused(str(exc))
    except OSError as exc:
        return _refused(why(exc))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    _said(verified, f"staged in {staged}")
    print(staged)
    return 0
