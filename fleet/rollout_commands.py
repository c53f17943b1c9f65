"""``spit-fleet rollout start|status|halt``: a release rolled out to the route from the
server's shell (docs/releases.md, "Rollouts"); the web pages do the same.

::

    spit-fleet rollout start 0.2.0 --url https://fleet.example.com:8443/releases/ \\
        --group all --canary-share 10 --healthy-minutes 60
    spit-fleet rollout status
    spit-fleet rollout halt
"""

from __future__ import annotations

import argparse
import getpass
from collections.abc import Callable
from pathlib import Path

from fleet import rollouts, store
from fleet.broker import FleetConfig, FleetError
from fleet.rollouts import RolloutError


def _start(args: argparse.Namespace) -> int:
    conn = store.connect(FleetConfig.load(args.dir).database)
    try:
        rollout = rollouts.start(conn, args.release, args.url, args.group, args.canary_share,
                                 args.healthy_minutes, f"shell:{getpass.getuser()}")  # fmt: skip
        canaries = [m.cabinet for m in rollouts.members(conn, rollout) if m.canary]
    except RolloutError as exc:
        raise FleetError(str(exc)) from None
    finally:
        conn.close()
    print(f"rollout {rollout} of {args.release} to {args.group} started; canaries: "
          f"{', '.join(canaries)} (ingest offers it within a second)")  # fmt: skip
    return 0


def _status(args: argparse.Namespace) -> int:
    conn = store.connect(FleetConfig.load(args.dir).database)
    try:
        found = rollouts.rollouts(conn)[:1]
        for rollout in found:
            why = f" ({rollout.reason})" if rollout.reason else ""
            print(f"rollout {rollout.id}: {rollout.release} to {rollout.target}: "
                  f"{rollout.state}{why}")  # fmt: skip
            for member in rollouts.members(conn, rollout.id):
                role = "canary" if member.canary else "      "
                reason = f": {member.reason}" if member.reason else ""
                print(f"  {role} {member.cabinet:<40} {member.state}{reason}")
    finally:
        conn.close()
    if not found:
        print("no rollout yet")
    return 0


def _halt(args: argparse.Namespace) -> int:
    conn = store.connect(FleetConfig.load(args.dir).database)
    try:
        active = rollouts.rollouts(conn, active_only=True)
        if not active:
            raise FleetError("no rollout is under way")
        with conn.transaction():
            rollouts.ask_halt(conn, active[0].id, f"shell:{getpass.getuser()}")
    finally:
        conn.close()
    print(f"rollout {active[0].id} halts: ingest withdraws the offers not being installed")
    return 0


def register(make: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add ``rollout`` to ``spit-fleet``'s subcommands (``make`` adds ``--dir``)."""
    rollout = make("rollout", "roll a signed release out to the route: start, status, halt")
    actions = rollout.add_subparsers(dest="rollout_command", metavar="ACTION", required=True)
    start = actions.add_parser("start", help="offer a release to a group, canaries first")
    start.add_argument("release", help="the release's version (as spit-fleet release sign said)")
    start.add_argument("--url", required=True, help="https://HOST:PORT/releases/ (release serve)")
    start.add_argument(
        "--group", default="all", help="all, location:NAME or list:bar-1,bar-2 (default all)"
    )
    start.add_argument("--canary-share", type=int, default=10, help="percent first (default 10)")
    start.add_argument(
        "--healthy-minutes", type=int, default=60, help="canaries healthy this long first"
    )
    start.set_defaults(func=_start)
    status = actions.add_parser("status", help="the newest rollout, cabinet by cabinet")
    status.set_defaults(func=_status)
    halt = actions.add_parser("halt", help="stop the rollout under way")
    halt.set_defaults(func=_halt)
    for action in (start, status, halt):  # --dir after the action too
        action.add_argument(
            "--dir", type=Path, default=argparse.SUPPRESS, help="the fleet's folder"
        )
