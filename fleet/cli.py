"""The ``spit-fleet`` command: set up a fleet, add and revoke cabinets, run ingest.

::

    spit-fleet init --dir /var/lib/spit-fleet --name "Northside" --host fleet.example.com \\
        --database "dbname=fleet"
    spit-fleet add-cabinet bar-1 --location "The Anchor" --out /media/stick/bar-1.json
    spit-fleet revoke bar-1
    spit-fleet ingest
"""

from __future__ import annotations

import argparse
import datetime
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any

import psycopg

from fleet import authority, broker, route_commands, store
from fleet.broker import INGEST_USER, FleetConfig, FleetError
from fleet.join_file import Join, join_file_text
from fleet.web import commands as web_commands
from fleet.wire import WireError, check_name

DEFAULT_DIR = Path("/var/lib/spit-fleet")


def _init(args: argparse.Namespace) -> int:
    folder: Path = args.dir
    if (folder / broker.CONFIG).exists() and not args.force:
        raise FleetError(f"{folder} already holds a fleet (--force makes a new one)")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "persistence").mkdir(exist_ok=True)
    (folder / "joins").mkdir(exist_ok=True)
    config = FleetConfig(
        name=args.name,
        hosts=tuple(args.host),
        port=args.port,
        database=args.database,
        bind=args.bind,
        broker_user=args.broker_user,
    )
    now = datetime.datetime.now(datetime.UTC)
    print("making the fleet's CA and the broker's certificate…")
    ca = authority.make_ca(config.name, now)
    server = authority.make_server(ca, config.hosts, now)
    broker.write_private(folder / "ca.pem", ca.cert, 0o644)
    broker.write_private(folder / "ca.key", ca.key, 0o600)
    broker.write_private(folder / "server.pem", server.cert, 0o644)
    broker.write_private(folder / "server.key", server.key)
    config.save(folder)
    broker.write_private(folder / "passwd", "")
    broker.write_private(folder / "ingest.secret", broker.set_password(folder, INGEST_USER) + "\n")
    broker.write_acl(folder)
    broker.write_private(folder / "mosquitto.conf", broker.mosquitto_conf(folder, config), 0o644)
    print("making the fleet's database schema…")
    store.connect(config.database).close()
    print(f"fleet {config.name!r} set up in {folder}")
    print(f"broker: mosquitto -c {folder / 'mosquitto.conf'} (docs/fleet.md has its unit)")
    return 0


def add_cabinet(
    folder: Path, config: FleetConfig, conn: psycopg.Connection[Any], name: str, location: str
) -> Join:
    """Add cabinet ``name`` to the fleet: its row, its broker password, the ACL; returns
    its join (the broker is not reloaded here)."""
    name = check_name(name)
    if name == INGEST_USER:
        raise FleetError(f"{INGEST_USER!r} is ingest's own name; choose another")
    store.add_cabinet(conn, name, location)
    password = broker.set_password(folder, name)
    broker.write_acl(folder)
    return Join(
        fleet=config.name,
        cabinet=name,
        location=location,
        host=config.hosts[0],
        port=config.port,
        password=password,
        ca=(folder / "ca.pem").read_text(),
    )


def _add_cabinet(args: argparse.Namespace) -> int:
    folder: Path = args.dir
    config = FleetConfig.load(folder)
    conn = store.connect(config.database)
    try:
        join = add_cabinet(folder, config, conn, args.name, args.location)
    finally:
        conn.close()
    out: Path = args.out or folder / "joins" / f"{join.cabinet}.json"
    broker.write_private(out, join_file_text(join), 0o600)
    reloaded = broker.reload_broker(folder)
    print(f"cabinet {join.cabinet} added at {args.location}; its join file: {out}")
    print("on the cabinet: spit-cabinet fleet join FILE")
    if not reloaded:
        print("the broker is not running from this folder: start it (or reload it) to let it in")
    return 0


def _revoke(args: argparse.Namespace) -> int:
    folder: Path = args.dir
    config = FleetConfig.load(folder)
    name = check_name(args.name)
    conn = store.connect(config.database)
    try:
        known = store.revoke(conn, name)
    finally:
        conn.close()
    if name in broker.users(folder):
        broker.remove_password(folder, name)
        broker.write_acl(folder)
    elif not known:
        raise FleetError(f"no cabinet {name} in this fleet")
    (folder / "joins" / f"{name}.json").unlink(missing_ok=True)
    if broker.reload_broker(folder):
        print(f"cabinet {name} revoked: the broker has let it go and lets it in no more")
    else:
        print(f"cabinet {name} revoked; the broker is not running from this folder: reload it")
    return 0


def _ingest(args: argparse.Namespace) -> int:
    from fleet.ingest import Ingest

    ingest = Ingest(args.dir)

    def stop(signum: int, frame: FrameType | None) -> None:
        ingest.stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    ingest.run()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spit-fleet", description="The fleet of Spit cabinets: broker, store, ingest."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, summary: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=summary, description=summary)
        p.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="the fleet's folder")
        return p

    init = command("init", "set up a fleet: its CA, the broker's configuration, the schema")
    init.add_argument("--name", required=True, help="the fleet's name, shown on cabinets")
    init.add_argument(
        "--host", action="append", required=True, help="a name cabinets reach the broker by"
    )
    init.add_argument("--port", type=int, default=8883, help="the broker's TLS port")
    init.add_argument("--database", required=True, help="PostgreSQL connection string")
    init.add_argument("--bind", default="", help="the address the broker listens on")
    init.add_argument("--broker-user", default="mosquitto", help="the user Mosquitto runs as")
    init.add_argument("--force", action="store_true", help="replace a fleet already there")
    init.set_defaults(func=_init)

    add = command("add-cabinet", "add a cabinet and write its join file")
    add.add_argument("name", help="the cabinet's id: lower-case letters, digits, hyphens")
    add.add_argument("--location", required=True, help="where it stands (the venue)")
    add.add_argument("--out", type=Path, help="where to write its join file")
    add.set_defaults(func=_add_cabinet)

    revoke = command("revoke", "shut a cabinet out")
    revoke.add_argument("name")
    revoke.set_defaults(func=_revoke)

    ingest = command("ingest", "store what the cabinets send (runs until stopped)")
    ingest.set_defaults(func=_ingest)
    web_commands.register(sub)
    route_commands.register(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (FleetError, WireError) as exc:
        print(f"spit-fleet: {exc}", file=sys.stderr)
        return 1
    except psycopg.OperationalError as exc:
        print(f"spit-fleet: the fleet's database: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
