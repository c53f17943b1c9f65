"""The join file: what ``spit-fleet add-cabinet`` writes to the operator's stick and
``spit-cabinet fleet join`` reads, checked (standard library only: both sides use it).
The cabinet keeps it in its database (the ``fleet`` table's ``join.*`` rows, readable only
by the cabinet's user, as the database is).

A join file is JSON::

    {"format": "spit-fleet-join", "version": 1, "fleet": "Northside Amusements",
     "cabinet": "bar-1", "location": "The Anchor", "host": "fleet.example.com",
     "port": 8883, "password": "…", "ca": "-----BEGIN CERTIFICATE-----…",
     "release_root": "{\"signed\": {\"_type\": \"root\", …}, \"signatures\": […]}"}

``release_root`` (optional: a fleet whose operator has no release key yet writes none) is
the route's TUF root metadata: the root of trust every signed release a cabinet installs
must chain to (docs/releases.md). The cabinet checks it with TUF when it verifies a
release; here it is only checked to be a root's JSON.
"""

from __future__ import annotations

import json
import ssl
from dataclasses import asdict, dataclass
from pathlib import Path

from fleet.wire_common import WireError, check_name

FORMAT = "spit-fleet-join"
VERSION = 1
MAX_BYTES = 64 * 1024


class JoinError(ValueError):
    """A join file the cabinet cannot use; the message says why."""


@dataclass(frozen=True, slots=True)
class Join:
    """What a cabinet needs to reach its fleet."""

    fleet: str
    cabinet: str
    location: str
    host: str
    port: int
    password: str
    ca: str
    """The fleet's CA certificate (PEM): the broker's certificate must be signed by it."""
    release_root: str = ""
    """The route's TUF root metadata (JSON), or empty: no signed release can be checked."""

    def rows(self) -> dict[str, str]:
        """The ``fleet`` table's ``join.*`` rows."""
        return {f"join.{k}": str(v) for k, v in asdict(self).items()}

    @classmethod
    def from_rows(cls, rows: dict[str, str]) -> Join | None:
        """The join kept in the ``fleet`` table, or ``None`` (in no fleet)."""
        if "join.cabinet" not in rows:
            return None
        try:
            return cls(
                fleet=rows["join.fleet"],
                cabinet=rows["join.cabinet"],
                location=rows["join.location"],
                host=rows["join.host"],
                port=int(rows["join.port"]),
                password=rows["join.password"],
                ca=rows["join.ca"],
                release_root=rows.get("join.release_root", ""),
            )
        except (KeyError, ValueError):
            return None

    def tls_context(self) -> ssl.SSLContext:
        """TLS that trusts the fleet's CA only and checks the broker's name, with
        OpenSSL's strict checks on, as Python 3.13 (the Pi's) has them by default."""
        context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cadata=self.ca)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.verify_flags |= ssl.VERIFY_X509_STRICT
        return context


def _text(data: dict[str, object], key: str, limit: int = 200) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise JoinError(f"its {key!r} is missing or not a text of at most {limit} characters")
    return value


def _release_root(data: dict[str, object]) -> str:
    value = data.get("release_root", "")
    if value == "":
        return ""
    if not isinstance(value, str) or len(value) > MAX_BYTES // 2:
        raise JoinError("its 'release_root' is not a text of root metadata")
    try:
        root = json.loads(value)
    except json.JSONDecodeError:
        raise JoinError("its 'release_root' is not JSON") from None
    signed = root.get("signed") if isinstance(root, dict) else None
    if not isinstance(signed, dict) or signed.get("_type") != "root":
        raise JoinError("its 'release_root' is not a TUF root (spit-fleet release-key makes one)")
    return value


def read_join(path: Path) -> Join:
    """The join file at ``path``, checked (its CA too); else :class:`JoinError`."""
    try:
        raw = path.read_bytes()[: MAX_BYTES + 1]
    except OSError as exc:
        raise JoinError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise JoinError(f"{path} is larger than a join file ({MAX_BYTES // 1024} KiB at most)")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise JoinError(f"{path} is not a join file: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise JoinError(f"{path} is not a join file (spit-fleet add-cabinet writes them)")
    if data.get("version") != VERSION:
        raise JoinError(
            f"{path} is a join file of version {data.get('version')!r}; this "
            f"cabinet reads version {VERSION}"
        )
    try:
        cabinet = check_name(_text(data, "cabinet"))
    except WireError as exc:
        raise JoinError(str(exc)) from None
    port = data.get("port")
    if type(port) is not int or not 0 < port < 65536:
        raise JoinError("its 'port' is not a port number")
    join = Join(
        fleet=_text(data, "fleet"),
        cabinet=cabinet,
        location=_text(data, "location"),
        host=_text(data, "host", 253),
        port=port,
        password=_text(data, "password"),
        ca=_text(data, "ca", MAX_BYTES),
        release_root=_release_root(data),
    )
    try:
        join.tls_context()
    except (ssl.SSLError, ValueError) as exc:
        raise JoinError(f"its CA certificate cannot be used ({exc})") from None
    return join


def join_file_text(join: Join) -> str:
    """A join file's text (the fleet writes it; the tests too)."""
    return json.dumps({"format": FORMAT, "version": VERSION, **asdict(join)}, indent=2) + "\n"
