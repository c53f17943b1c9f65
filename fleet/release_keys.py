"""The operator's release key and the route's root of trust (``spit-fleet release-key``).

The key is made on the operator's own machine and never leaves it: ``release sign`` runs
there too, and only signed metadata and wheels go to the fleet server or a stick. The
key folder holds:

- ``release-key.pem``: the Ed25519 private key, PKCS #8, encrypted with the operator's
  passphrase (mode 0600);
- ``root.json``: the route's TUF root metadata, version 1, signed by that key, which names
  it for all four roles (root, targets, snapshot, timestamp). It is public: the fleet
  puts it in every join file (``spit-fleet release trust``), and a cabinet trusts no
  release that does not chain to it;
- ``route.json``: the route's name, which every release made with the key carries.

One key for the four roles is a choice for a small operator (docs/decisions.md): every
role is signed offline, so the fleet server holds no key at all, and a compromise of the
server can at most withhold releases, never push one.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from securesystemslib.signer import CryptoSigner
from tuf.api.metadata import Metadata, Root
from tuf.api.serialization.json import JSONSerializer

from fleet.broker import FleetError, write_private

KEY_FILE = "release-key.pem"
ROOT_FILE = "root.json"
ROUTE_FILE = "route.json"
ROOT_DAYS = 5 * 365
"""How long the route's root metadata is valid: a cabinet refuses every release after it
(``release-key --renew-root`` signs a new version of it)."""
ROLES = (Root.type, "targets", "snapshot", "timestamp")
MIN_PASSPHRASE = 8


@dataclass(frozen=True, slots=True)
class ReleaseKey:
    """A loaded key folder: its signer, the route's root and the route's name."""

    signer: CryptoSigner
    root: Metadata[Root]
    route: str


def _expires(now: datetime.datetime, days: int) -> datetime.datetime:
    return (now + datetime.timedelta(days=days)).replace(microsecond=0)


def root_bytes(root: Metadata[Root]) -> bytes:
    return root.to_bytes(JSONSerializer(compact=False))


def make_release_key(
    folder: Path, route: str, passphrase: str, now: datetime.datetime
) -> ReleaseKey:
    """Make a new key in ``folder`` (which must hold none) and the route's root, signed."""
    if (folder / KEY_FILE).exists():
        raise FleetError(f"{folder / KEY_FILE} exists: a route keeps its key (see --renew-root)")
    if len(passphrase) < MIN_PASSPHRASE:
        raise FleetError(f"the passphrase must have at least {MIN_PASSPHRASE} characters")
    if not route.strip() or "\n" in route:
        raise FleetError("the route's name is empty or not on one line")
    private = Ed25519PrivateKey.generate()
    signer = CryptoSigner(private)
    root = Root(expires=_expires(now, ROOT_DAYS), consistent_snapshot=True)
    for role in ROLES:
        root.add_key(signer.public_key, role)
    metadata = Metadata(root)
    metadata.sign(signer)
    folder.mkdir(parents=True, exist_ok=True)
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(passphrase.encode()),
    )
    write_private(folder / KEY_FILE, pem, 0o600)
    write_private(folder / ROOT_FILE, root_bytes(metadata), 0o644)
    write_private(folder / ROUTE_FILE, json.dumps({"route": route}) + "\n", 0o644)
    return ReleaseKey(signer, metadata, route)


def load_release_key(folder: Path, passphrase: str) -> ReleaseKey:
    """The key folder ``folder``, its key decrypted with ``passphrase``; else FleetError."""
    try:
        pem = (folder / KEY_FILE).read_bytes()
        root = Metadata[Root].from_bytes((folder / ROOT_FILE).read_bytes())
        route = json.loads((folder / ROUTE_FILE).read_text(encoding="utf-8"))["route"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise FleetError(f"{folder} is not a release key folder ({exc})") from None
    try:
        private = serialization.load_pem_private_key(pem, passphrase.encode())
    except (ValueError, TypeError):
        raise FleetError(f"{folder / KEY_FILE}: wrong passphrase, or not a key") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise FleetError(f"{folder / KEY_FILE} is not an Ed25519 key")
    signer = CryptoSigner(private)
    if signer.public_key.keyid not in root.signed.roles[Root.type].keyids:
        raise FleetError(f"{folder / KEY_FILE} is not the key of {folder / ROOT_FILE}")
    return ReleaseKey(signer, root, str(route))


def renew_root(key: ReleaseKey, folder: Path, now: datetime.datetime) -> Metadata[Root]:
    """A new version of the route's root, valid ``ROOT_DAYS`` from ``now``, signed by the
    same key (cabinets take it with the next release: TUF chains root versions)."""
    root = key.root
    root.signed.version += 1
    root.signed.expires = _expires(now, ROOT_DAYS)
    root.signatures.clear()
    root.sign(key.signer)
    write_private(folder / ROOT_FILE, root_bytes(root), 0o644)
    return root
