"""Adding cabinets to the fleet: each one's row in the database, its broker password and
its lines of the ACL, and its join file (``spit-fleet add-cabinet``, and
``add-cabinets`` for a file of them: :mod:`fleet.cabinet_file`).

Adding a cabinet new to the fleet costs the same however many the fleet has: its
password is hashed on its own and *added* to the end of the password file, its lines to
the end of the ACL (:func:`fleet.broker.add_users`, :func:`fleet.broker.append_acl`);
neither file is read or written whole. (Each add used to rewrite both with every
cabinet, ``mosquitto_passwd -b`` the password file and the ACL from it: adding the
thousandth cabinet wrote a thousand cabinets' lines.) A cabinet the fleet has already
(a new join file for it, or a revoked one let back in) is the rare case, and takes the
old way: its line in the password file is replaced and the ACL written whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import psycopg

from fleet import broker, store
from fleet.broker import FleetConfig, FleetError
from fleet.cabinet_file import CabinetRow, check_cabinet, check_location
from fleet.join_file import Join, join_file_text

Progress = Callable[[int, int], None]
"""Told ``(done, of)`` as the join files of a file of cabinets are written."""


RELEASE_ROOT = "release-root.json"
"""The route's release root in the fleet's folder (``spit-fleet release trust``): every
join file written after it carries it."""


def release_root(folder: Path) -> str:
    """The route's release root kept in ``folder``, or empty (none yet)."""
    path = folder / RELEASE_ROOT
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _trust(folder: Path) -> tuple[str, str]:
    """The fleet's CA and the route's release root: what every join file carries."""
    return (folder / "ca.pem").read_text(), release_root(folder)


def _join_with(
    config: FleetConfig, trust: tuple[str, str], name: str, location: str, password: str
) -> Join:
    return Join(
        fleet=config.name,
        cabinet=name,
        location=location,
        host=config.hosts[0],
        port=config.port,
        password=password,
        ca=trust[0],
        release_root=trust[1],
    )


def add_cabinet(
    folder: Path, config: FleetConfig, conn: psycopg.Connection[Any], name: str, location: str
) -> Join:
    """Add cabinet ``name`` to the fleet: its row, its broker password, the ACL; returns
    its join (the broker is not reloaded here)."""
    try:
        check_cabinet(name)
        location = check_location(location)
    except ValueError as exc:
        raise FleetError(str(exc)) from None
    if store.add_cabinet(conn, name, location):
        password = broker.new_password()
        broker.add_users(folder, {name: password})
        broker.append_acl(folder, [name])
    else:
        password = broker.set_password(folder, name)
        broker.write_acl(folder)
    return _join_with(config, _trust(folder), name, location, password)


def check_new(conn: psycopg.Connection[Any], rows: Sequence[CabinetRow]) -> list[str]:
    """The problems of ``rows`` the fleet knows of: each cabinet it has already, by line."""
    had = store.known(conn, [row.name for row in rows])
    return [
        f"line {row.line}: {row.name} is in the fleet already"
        + (" (revoked)" if had[row.name] else "")
        + f": spit-fleet add-cabinet {row.name} gives it a new join file"
        for row in rows
        if row.name in had
    ]


def add_cabinets(
    folder: Path,
    config: FleetConfig,
    conn: psycopg.Connection[Any],
    rows: Sequence[CabinetRow],
    out: Path,
    progress: Progress | None = None,
) -> list[Path]:
    """Add the cabinets of ``rows`` (checked, each new to the fleet: :func:`check_new`)
    in one go: their rows in one transaction, their passwords hashed together and added to
    the password file at once, their lines to the ACL at once, then a join file each in
    ``out`` (``NAME.json``, as ``add-cabinet`` writes it). Returns the join files' paths
    (the broker is not reloaded here)."""
    out.mkdir(parents=True, exist_ok=True)
    store.add_cabinets(conn, [(row.name, row.location) for row in rows])
    passwords = {row.name: broker.new_password() for row in rows}
    try:
        broker.add_users(folder, passwords)
        broker.append_acl(folder, passwords)
    except (FleetError, OSError) as exc:
        raise FleetError(
            f"the cabinets are in the database, but the broker's files were not written "
            f"({exc}): spit-fleet add-cabinet NAME gives each a join file"
        ) from None
    trust = _trust(folder)
    written: list[Path] = []
    for row in rows:
        path = out / f"{row.name}.json"
        join = _join_with(config, trust, row.name, row.location, passwords[row.name])
        broker.write_private(path, join_file_text(join), 0o600)
        written.append(path)
        if progress is not None:
            progress(len(written), len(rows))
    return written
