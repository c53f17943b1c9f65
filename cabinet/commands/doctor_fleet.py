"""``doctor``'s checks of the fleet link and of the missing switches (the link check opens
one TLS connection to the broker, and only when the cabinet is in a fleet), and its
findings queued for the fleet (the one thing doctor writes, and only in a fleet)."""

from __future__ import annotations

import socket
import ssl
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from cabinet.commands.findings import Finding, Severity
from cabinet.storage.paths import data_dir, database_path

if TYPE_CHECKING:
    from cabinet.storage.store import CabinetStore

T = TypeVar("T")

TIMEOUT_S = 5.0


def _read(path: str | Path | None, check: str, read: Callable[[CabinetStore], T]) -> T | Finding:
    """``read`` of the books in ``path``, opened read only; a finding instead when they
    cannot be opened."""
    from cabinet.storage.database import Access
    from cabinet.storage.problems import StorageError
    from cabinet.storage.store import CabinetStore

    try:
        store = CabinetStore.open(data_dir(path), access=Access.READ)
    except StorageError as exc:
        return Finding(check, Severity.FAIL, str(exc), "see docs/troubleshooting.md")
    try:
        return read(store)
    finally:
        store.close()


def check_fleet(path: str | Path | None) -> Finding:
    """The link to the operator's fleet: joined or not, the broker reachable over TLS,
    what waits and what the outbox dropped."""
    if not database_path(data_dir(path)).exists():
        return Finding("fleet", Severity.OK, "no database yet: in no fleet, no connection")
    from cabinet.link.status import read_status

    state = _read(path, "fleet", lambda store: read_status(store.db.connection))
    if isinstance(state, Finding):
        return state
    join = state.join
    if join is None:
        return Finding("fleet", Severity.OK, "in no fleet: the cabinet opens no connection")
    where = f"{join.host}:{join.port}"
    detail = (
        f"{join.fleet} as {join.cabinet}; {state.queued} queued, last acknowledged {state.acked}"
    )
    try:
        with (
            socket.create_connection((join.host, join.port), TIMEOUT_S) as raw,
            join.tls_context().wrap_socket(raw, server_hostname=join.host),
        ):
            pass
    except (OSError, ssl.SSLError, ValueError) as exc:
        return Finding(
            "fleet",
            Severity.FAIL,
            f"{detail}; the broker {where} cannot be reached over TLS ({exc})",
            "check the network and the broker's address; the cabinet keeps everything "
            "until it can send it (docs/fleet.md, troubleshooting)",
        )
    dropped = sum(state.dropped.values())
    if dropped:
        return Finding(
            "fleet",
            Severity.WARN,
            f"{detail}; the outbox dropped {dropped} event(s) to stay in bounds",
            "totals stay exact; the detail of old events is gone (docs/fleet.md)",
        )
    if state.error:
        return Finding(
            "fleet", Severity.WARN, f"{detail}; broker {where} reachable; last error: {state.error}"
        )
    return Finding("fleet", Severity.OK, f"{detail}; broker {where} reachable over TLS")


def check_missing_switches(path: str | Path | None) -> Finding:
    """Buttons nobody pressed in ``missing_switch_games`` games while their neighbours
    were: a dead microswitch or a loose wire."""
    if not database_path(data_dir(path)).exists():
        return Finding("missing switches", Severity.OK, "no games yet")
    from cabinet.storage.setting_table import MISSING_SWITCH_GAMES

    found = _read(
        path,
        "missing switches",
        lambda store: (store.missing_switches, store.settings.get(MISSING_SWITCH_GAMES)),
    )
    if isinstance(found, Finding):
        return found
    missing, games = found
    if not missing:
        return Finding("missing switches", Severity.OK, "every button is pressed when played")
    return Finding(
        "missing switches",
        Severity.WARN,
        f"{', '.join(missing)}: not pressed in {games} or more games while the buttons beside "
        "them were",
        "check each one's microswitch and wiring with the service menu's input test "
        "(docs/wiring.md)",
    )


def report_findings(path: str | Path | None, findings: Sequence[Finding]) -> bool:
    """Queue ``doctor``'s findings for the fleet, when the cabinet is in one; ``False``
    when not (or when the books cannot be written now: the findings were printed). The
    books are opened to write only in a fleet: opening them so may change them (an older
    schema migrated, what could not be read replaced, a copy kept first, and said on
    stderr), which a check must not do for nothing."""
    if not database_path(data_dir(path)).exists():
        return False
    from cabinet.storage.database import Access
    from cabinet.storage.outbox import Kind
    from cabinet.storage.problems import StorageError
    from cabinet.storage.reports import joined
    from cabinet.storage.store import CabinetStore

    if _read(path, "fleet", lambda store: joined(store.db.connection)) is not True:
        return False
    body = {
        "findings": [
            {"check": f.name, "severity": f.severity.value, "detail": f.detail} for f in findings
        ]
    }
    try:
        store = CabinetStore.open(data_dir(path), access=Access.WRITE)
    except StorageError:
        return False
    try:
        for problem in store.problems:
            print(f"doctor: warning: {problem.message}", file=sys.stderr)
        return store.report(Kind.DOCTOR, body)
    except StorageError:
        return False
    finally:
        store.close()
