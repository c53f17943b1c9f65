"""``spit-cabinet fleet``: join the operator's fleet with the join file from their stick,
see the link's state, or leave (docs/fleet.md, "Joining a cabinet").

A cabinet in no fleet opens no connection at all; once joined, the running cabinet's
display process sends its outbox (after its next start)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cabinet.link import membership
from cabinet.link.status import read_status
from cabinet.storage.database import Access
from cabinet.storage.paths import add_data_dir_option, data_dir
from cabinet.storage.problems import StorageError
from cabinet.storage.store import CabinetStore
from fleet.join_file import JoinError, read_join


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fleet",
        help="join the operator's fleet, see the link, or leave",
        description="The cabinet's link to its operator's fleet (docs/fleet.md).",
    )
    sub = parser.add_subparsers(dest="fleet_command", metavar="ACTION", required=True)
    join = sub.add_parser("join", help="join the fleet named in a join file (from the stick)")
    join.add_argument("file", type=Path, help="the join file spit-fleet add-cabinet wrote")
    add_data_dir_option(join)
    join.set_defaults(func=run, action=_join)
    status = sub.add_parser("status", help="connected or not, queued, last acknowledged")
    status.add_argument("--json", action="store_true", help="print one JSON object")
    add_data_dir_option(status)
    status.set_defaults(func=run, action=_status)
    leave = sub.add_parser("leave", help="leave the fleet (what is queued is discarded)")
    add_data_dir_option(leave)
    leave.set_defaults(func=run, action=_leave)


def run(args: argparse.Namespace) -> int:
    """The action asked for: join, status or leave."""
    action: Callable[[argparse.Namespace], int] = args.action
    return action(args)


def _open(args: argparse.Namespace, access: Access, *, say: bool = True) -> CabinetStore | None:
    """The books, what opening them found said on stderr (unless not ``say``); ``None``
    (said why) when they cannot be opened."""
    try:
        store = CabinetStore.open(data_dir(args.data_dir), access=access)
    except StorageError as exc:
        print(f"fleet: {exc}", file=sys.stderr)
        return None
    for problem in store.problems if say else ():
        print(f"fleet: warning: {problem.message}", file=sys.stderr)
    return store


def _join(args: argparse.Namespace) -> int:
    try:
        joined = read_join(args.file)
    except JoinError as exc:
        print(f"fleet: {exc}", file=sys.stderr)
        return 2
    store = _open(args, Access.WRITE)
    if store is None:
        return 1
    try:
        with store.db.transaction() as conn:
            membership.join(conn, joined)
    except StorageError as exc:
        print(f"fleet: {exc} (nothing was changed)", file=sys.stderr)
        return 1
    finally:
        store.close()
    print(f"joined fleet {joined.fleet!r} as {joined.cabinet} at {joined.location}")
    print(f"broker: {joined.host}:{joined.port}; the cabinet reports from its next start")
    return 0


def _status(args: argparse.Namespace) -> int:
    store = _open(args, Access.READ)
    if store is None:
        return 1
    try:
        state = read_status(store.db.connection)
    finally:
        store.close()
    if args.json:
        print(json.dumps(state.to_json(), indent=2))
    else:
        print("\n".join(state.lines()))
    return 0


def _leave(args: argparse.Namespace) -> int:
    # Opened to write only when there is a fleet to leave: opening the books so may change
    # them (an older schema migrated, a copy kept first), for nothing otherwise.
    reader = _open(args, Access.READ, say=False)
    if reader is None:
        return 1
    try:
        was = read_status(reader.db.connection).join
    finally:
        reader.close()
    if was is None:
        print("fleet: the cabinet is in no fleet")
        return 0
    store = _open(args, Access.WRITE)
    if store is None:
        return 1
    try:
        with store.db.transaction() as conn:
            was = read_status(conn).join
            discarded = membership.leave(conn)
    except StorageError as exc:
        print(f"fleet: {exc} (nothing was changed)", file=sys.stderr)
        return 1
    finally:
        store.close()
    if was is None:
        print("fleet: the cabinet is in no fleet")
        return 0
    print(f"left fleet {was.fleet!r}; {discarded} event(s) not yet sent were discarded")
    return 0
