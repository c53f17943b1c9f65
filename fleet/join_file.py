"""The join file: what ``spit-fleet add-cabinet`` writes to the operator's stick and
``spit-cabinet fleet join`` reads, checked (standard library only: both sides use it).
The cabinet keeps it in its database (the ``fleet`` table's ``join.*`` rows, readable only
by the cabinet's user, as the database is).

A join file is JSON::

    {"format": "spit-fleet-join", "version": 1, "fleet": "Northside Amusements",
     "cabinet": "bar-1", "location": "The Anchor", "host": "fleet.example.com",
     "port": 8883, "password": "…", "ca": "-----BEGIN CERTIFICATE-----…"}
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
            )
        except (KeyError, ValueError):
            return None

    def tls_context(self) -> ssl.SSLContext:
        """TLS that trusts the fleet's CA only and checks the broker's name."""
        context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cadata=self.ca)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        return context


def _text(data: dict[str, object], key: str, limit: int = 200) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise JoinError(f"its {key!r} is missing or not a text of at most {limit} characters")
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
    )
    try:
        join.tls_context()
    except (ssl.SSLError, ValueError) as exc:
        raise JoinError(f"its CA certificate cannot be used ({exc})") from None
    return join


def join_file_text(join: Join) -> str:
    """A join file's text (the fleet writes it; the tests too)."""
    return json.dumps({"format": FORMAT, "version": VERSION, **asdict(join)}, indent=2) + "\n"
