"""``spit-fleet release-key`` and ``spit-fleet release sign|trust``: signed releases
(docs/releases.md).

::

    spit-fleet release-key --route "Northside" --out ~/spit-release      # operator's machine
    spit-fleet release sign dist/wheels --key ~/spit-release --repo ~/spit-releases
    spit-fleet release trust ~/spit-release/root.json --dir /var/lib/spit-fleet   # server
    spit-fleet release publish ~/spit-releases --dir /var/lib/spit-fleet         # server
    spit-fleet release serve --dir /var/lib/spit-fleet --port 8443                # server

The passphrase of the key is read from the file ``--passphrase-file`` names, else from
``$SPIT_RELEASE_PASSPHRASE``, else asked for on the terminal.
"""

from __future__ import annotations

import argparse
import datetime
import getpass
import os
from pathlib import Path

from tuf.api.exceptions import RepositoryError
from tuf.api.metadata import Metadata, Root

from fleet.broker import FleetError, write_private
from fleet.cabinets import RELEASE_ROOT
from fleet.release_keys import ROOT_FILE, load_release_key, make_release_key, renew_root
from fleet.release_repository import DEFAULT_EXPIRES_DAYS, sign_release
from fleet.release_server import publish, release_server

PASSPHRASE_ENV = "SPIT_RELEASE_PASSPHRASE"


def _passphrase(args: argparse.Namespace, *, new: bool) -> str:
    if args.passphrase_file is not None:
        try:
            return str(args.passphrase_file.read_text(encoding="utf-8").rstrip("\n"))
        except OSError as exc:
            raise FleetError(f"--passphrase-file: {exc.strerror or exc}") from None
    if os.environ.get(PASSPHRASE_ENV):
        return os.environ[PASSPHRASE_ENV]
    first = getpass.getpass("the release key's passphrase: ")
    if new and getpass.getpass("again: ") != first:
        raise FleetError("the two passphrases differ")
    return first


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _release_key(args: argparse.Namespace) -> int:
    folder: Path = args.out
    if args.renew_root:
        key = load_release_key(folder, _passphrase(args, new=False))
        root = renew_root(key, folder, _now())
        print(f"{folder / ROOT_FILE}: root version {root.signed.version}, valid until "
              f"{root.signed.expires:%Y-%m-%d}; sign the next release to hand it out")  # fmt: skip
        return 0
    if not args.route:
        raise FleetError("--route is needed for a new key (the fleet's name)")
    key = make_release_key(folder, args.route, _passphrase(args, new=True), _now())
    print(f"release key for route {key.route!r} made in {folder}")
    print(f"keep {folder / 'release-key.pem'} and its passphrase on this machine only;")
    print(f"give the fleet server {folder / ROOT_FILE}: spit-fleet release trust FILE")
    return 0


def _sign(args: argparse.Namespace) -> int:
    key = load_release_key(args.key, _passphrase(args, new=False))
    signed = sign_release(key, args.wheels, args.repo, _now(), args.expires_days)
    print(
        f"release {signed.manifest.release} for route {signed.manifest.route!r} signed: "
        f"{len(signed.manifest.wheels)} wheel(s), metadata version {signed.version}, valid "
        f"until {signed.expires:%Y-%m-%d %H:%M} UTC, in {args.repo}"
    )
    return 0


def _trust(args: argparse.Namespace) -> int:
    try:
        raw = args.root.read_bytes()
        root = Metadata[Root].from_bytes(raw)
        root.verify_delegate(Root.type, root)
    except (OSError, ValueError, RepositoryError) as exc:
        raise FleetError(f"{args.root} is not a route's signed root ({exc})") from None
    write_private(args.dir / RELEASE_ROOT, raw.decode(), 0o644)
    print(f"the route's release root is kept in {args.dir / RELEASE_ROOT};")
    print("join files written from now on carry it (spit-fleet add-cabinet)")
    return 0


def _publish(args: argparse.Namespace) -> int:
    copied = publish(args.repo, args.dir)
    print(f"{args.repo} published in {args.dir / 'releases'} ({copied} file(s) copied)")
    return 0


def _serve(args: argparse.Namespace) -> int:
    server = release_server(args.dir, args.bind, args.port)
    where = f"https://{args.bind or '*'}:{args.port}/releases/"
    print(f"serving the route's releases on {where}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], default_dir: Path) -> None:
    """Add ``release-key`` and ``release`` to ``spit-fleet``'s subcommands."""

    def passphrase(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--passphrase-file", type=Path, help=f"the key's passphrase (else ${PASSPHRASE_ENV})"
        )

    key = sub.add_parser(
        "release-key", help="make the route's release key (on the operator's own machine)"
    )
    key.add_argument("--out", type=Path, required=True, help="a new folder for the key")
    key.add_argument("--route", help="the route's name, as the fleet's (spit-fleet init --name)")
    key.add_argument(
        "--renew-root", action="store_true", help="sign the route's root again, valid 5 years"
    )
    passphrase(key)
    key.set_defaults(func=_release_key)

    release = sub.add_parser("release", help="sign a release; trust a route's release root")
    actions = release.add_subparsers(dest="release_command", metavar="ACTION", required=True)
    sign = actions.add_parser("sign", help="sign a folder of wheels as the route's next release")
    sign.add_argument("wheels", type=Path, help="the release's wheels (the cabinet's among them)")
    sign.add_argument("--key", type=Path, required=True, help="the release key's folder")
    sign.add_argument("--repo", type=Path, required=True, help="the releases' repository folder")
    sign.add_argument(
        "--expires-days",
        type=int,
        default=DEFAULT_EXPIRES_DAYS,
        help="days the release may be installed for (then: signed again, or refused)",
    )
    passphrase(sign)
    sign.set_defaults(func=_sign)
    trust = actions.add_parser("trust", help="keep the route's release root for join files")
    trust.add_argument("root", type=Path, help="root.json from the release key's folder")
    trust.add_argument("--dir", type=Path, default=default_dir, help="the fleet's folder")
    trust.set_defaults(func=_trust)
    pub = actions.add_parser("publish", help="copy a signed repository to the served releases")
    pub.add_argument("repo", type=Path, help="the releases' repository (release sign --repo)")
    pub.add_argument("--dir", type=Path, default=default_dir, help="the fleet's folder")
    pub.set_defaults(func=_publish)
    serve = actions.add_parser("serve", help="serve the published releases over HTTPS")
    serve.add_argument("--dir", type=Path, default=default_dir, help="the fleet's folder")
    serve.add_argument("--bind", default="", help="the address to listen on (default: all)")
    serve.add_argument("--port", type=int, default=8443, help="the HTTPS port")
    serve.set_defaults(func=_serve)
