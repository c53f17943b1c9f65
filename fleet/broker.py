"""The fleet's folder and its broker: ``fleet.json`` (what ``spit-fleet init`` was told),
Mosquitto's configuration (TLS only, no anonymous client, an ACL per cabinet) and its
password file, kept with Mosquitto's own ``mosquitto_passwd``.

The folder::

    fleet.json        the fleet's name, the broker's host names and port, the database
    ca.pem ca.key     the fleet's CA (the key never leaves this folder)
    server.pem .key   the broker's certificate
    mosquitto.conf    include it from /etc/mosquitto/conf.d, or run mosquitto -c on it
    passwd acl        who may connect, and what each may publish and read
    ingest.secret     ingest's broker password
    persistence/      the broker's store
    joins/NAME.json   each cabinet's join file, for its stick
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from fleet.wire_common import ROOT
from fleet.wire_down import FLEET_DOWN

INGEST_USER = "ingest"
"""The broker user ingest connects as (no cabinet may take this name)."""

CONFIG = "fleet.json"


class FleetError(Exception):
    """A fleet operation that cannot be done; the message says why."""


@dataclass(frozen=True, slots=True)
class FleetConfig:
    """What ``spit-fleet init`` was told."""

    name: str
    hosts: tuple[str, ...]
    """The names (or addresses) cabinets reach the broker by; the first goes in joins."""
    port: int
    database: str
    """The PostgreSQL connection string (libpq's), e.g. ``dbname=fleet``."""
    bind: str = ""
    """The address the broker listens on (empty: every address)."""
    broker_user: str = "mosquitto"
    """The user Mosquitto runs as when started as root (it must read this folder)."""

    def save(self, folder: Path) -> None:
        data = asdict(self)
        data["hosts"] = list(self.hosts)
        write_private(folder / CONFIG, json.dumps(data, indent=2) + "\n")

    @classmethod
    def load(cls, folder: Path) -> FleetConfig:
        try:
            data = json.loads((folder / CONFIG).read_text())
            return cls(
                name=str(data["name"]),
                hosts=tuple(str(h) for h in data["hosts"]),
                port=int(data["port"]),
                database=str(data["database"]),
                bind=str(data.get("bind", "")),
                broker_user=str(data.get("broker_user", "mosquitto")),
            )
        except FileNotFoundError:
            raise FleetError(f"{folder} holds no fleet (spit-fleet init makes one)") from None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise FleetError(f"{folder / CONFIG} cannot be read ({exc})") from None


def write_private(path: Path, text: str | bytes, mode: int = 0o640) -> None:
    """Write ``path`` whole (a temporary file renamed over it), readable by its owner and
    group only."""
    tmp = path.with_name(path.name + ".tmp")
    data = text.encode() if isinstance(text, str) else text
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def mosquitto_conf(folder: Path, config: FleetConfig) -> str:
    """The broker's configuration for the fleet in ``folder``."""
    bind = f" {config.bind}" if config.bind else ""
    return f"""# Written by spit-fleet init; spit-fleet rewrites it.
per_listener_settings false
allow_anonymous false
password_file {folder / "passwd"}
acl_file {folder / "acl"}
user {config.broker_user}
pid_file {folder / "mosquitto.pid"}

# TLS only: no plain-TCP listener at all. A listener's own options (this one too) must
# come after its "listener" line: before it, they make Mosquitto open a plain listener on
# 1883 of its own (the tests check that only this port listens).
listener {config.port}{bind}
use_username_as_clientid true
# Small messages, each waited for: no Nagle delay on the broker's side either.
set_tcp_nodelay true
cafile {folder / "ca.pem"}
certfile {folder / "server.pem"}
keyfile {folder / "server.key"}
tls_version tlsv1.2

persistence true
persistence_location {folder / "persistence"}/
autosave_interval 60
# A week of a route's events waits for ingest if it is down; cabinets keep the truth.
max_queued_messages 200000
max_inflight_messages 100
max_packet_size 1048576
persistent_client_expiration 14d
log_dest stderr
log_type error
log_type warning
log_type notice
connection_messages true
"""


def acl_block(cabinet: str) -> str:
    """A cabinet's own lines of the ACL: it reads the fleet-wide down topics."""
    return f"\nuser {cabinet}\ntopic read {FLEET_DOWN}/#\n"


def acl_text(cabinets: Iterable[str]) -> str:
    """The ACL: each cabinet writes only its own up topics and reads only its own and the
    fleet-wide down topics; ingest reads every up topic and writes the down ones."""
    blocks = "".join(acl_block(name) for name in sorted(cabinets))
    return f"""# Written by spit-fleet; %u is the broker user, which is the cabinet's id.
pattern write {ROOT}/up/%u/events
pattern write {ROOT}/up/%u/presence
pattern read {ROOT}/down/%u/#

user {INGEST_USER}
topic read {ROOT}/up/#
topic write {ROOT}/down/#
{blocks}"""


def write_acl(folder: Path) -> None:
    """Rewrite the ACL for the cabinets in the password file."""
    write_private(folder / "acl", acl_text(users(folder) - {INGEST_USER}))


def append_private(path: Path, text: str) -> None:
    """Add ``text`` at the end of ``path`` (made, mode 0640, if missing) and wait for the
    disk: what the file held is neither read nor written again, so the cost is the
    text's, however long the file. A last line without its newline gets one first."""
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o640)
    with os.fdopen(fd, "r+b") as f:
        size = f.seek(0, os.SEEK_END)
        if size:
            f.seek(size - 1)
            if f.read(1) != b"\n":
                text = "\n" + text
        f.write(text.encode())
        f.flush()
        os.fsync(f.fileno())


def append_acl(folder: Path, cabinets: Iterable[str]) -> None:
    """Add new cabinets' lines to the end of the ACL (:func:`acl_block`), the lines there
    left as they are: :func:`write_acl` writes the same lines, sorted."""
    append_private(folder / "acl", "".join(acl_block(name) for name in cabinets))


def new_password() -> str:
    """A broker password: 24 random bytes, URL-safe base64 (32 characters)."""
    return secrets.token_urlsafe(24)


def set_password(folder: Path, user: str) -> str:
    """Give ``user`` a new random password in the broker's password file (hashed by
    ``mosquitto_passwd -b``, which writes the whole file again); returns it."""
    password = new_password()
    passwd = folder / "passwd"
    if not passwd.exists():
        write_private(passwd, "")
    _passwd_tool(["-b", str(passwd), user, password])
    return password


def add_users(folder: Path, passwords: Mapping[str, str]) -> None:
    """Add users the password file does not hold yet, with their passwords: hashed by
    ``mosquitto_passwd -U`` in a file of their own, then added to the end of the password
    file. Its lines are neither read nor written again (``-b`` rewrites the whole file for
    each user), so adding one user costs the same however many there are. A user already
    in the file would be in it twice, Mosquitto taking either: :func:`set_password` for
    those."""
    if not passwords:
        return
    fd, name = tempfile.mkstemp(prefix="passwd-", suffix=".new", dir=folder)
    new = Path(name)
    try:
        with os.fdopen(fd, "w") as f:  # mkstemp: readable by this user alone
            f.writelines(f"{user}:{password}\n" for user, password in passwords.items())
        _passwd_tool(["-U", str(new)])
        append_private(folder / "passwd", new.read_text())
    finally:
        new.unlink(missing_ok=True)


def remove_password(folder: Path, user: str) -> None:
    """Take ``user`` out of the broker's password file."""
    _passwd_tool(["-D", str(folder / "passwd"), user])


def users(folder: Path) -> set[str]:
    """The users in the broker's password file."""
    try:
        text = (folder / "passwd").read_text()
    except FileNotFoundError:
        return set()
    return {line.split(":", 1)[0] for line in text.splitlines() if ":" in line}


def _passwd_tool(arguments: list[str]) -> None:
    try:
        done = subprocess.run(
            ["mosquitto_passwd", *arguments], capture_output=True, text=True, check=False
        )
    except FileNotFoundError:
        raise FleetError("mosquitto_passwd is missing: install Debian's mosquitto") from None
    if done.returncode != 0:
        raise FleetError(f"mosquitto_passwd failed: {(done.stderr or done.stdout).strip()}")


def reload_broker(folder: Path) -> bool:
    """Ask the running broker to read its password file and ACL again (SIGHUP to the pid
    in its pid file); ``False`` when none runs from this folder."""
    try:
        pid = int((folder / "mosquitto.pid").read_text().strip())
        os.kill(pid, signal.SIGHUP)
    except (OSError, ValueError):
        return False
    return True
