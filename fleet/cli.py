"""The ``spit-fleet`` command: set up a fleet, add and revoke cabinets, run ingest
(adding cabinets: :mod:`fleet.cabinets`).

::

    spit-fleet init --dir /var/lib/spit-fleet --name "Northside" --host fleet.example.com \\
        --database "dbname=fleet"
    spit-fleet add-cabinet bar-1 --location "The Anchor" --out /media/stick/bar-1.json
    spit-fleet add-cabinets route.csv --out-dir /media/stick
    spit-fleet revoke bar-1
    spit-fleet ingest
"""

from __future__ import annotations

import argparse
import datetime
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

import psycopg

from fleet import authority, broker, release_commands, rollout_commands, route_commands, store
from fleet.broker import INGEST_USER, FleetConfig, FleetError
from fleet.cabinet_file import CabinetFileError, CabinetRow, read_cabinet_file
from fleet.cabinets import add_cabinet, add_cabinets, check_new
from fleet.join_file import join_file_text
from fleet.web import commands as web_commands
from fleet.wire_common import WireError, check_name

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
    print(f"cabinet {join.cabinet} added at {join.location}; its join file: {out}")
    print("on the cabinet: spit-cabinet fleet join FILE")
    if not reloaded:
        print("the broker is not running from this folder: start it (or reload it) to let it in")
    return 0


PROGRESS_EVERY = 100
"""``add-cabinets`` says how far it is every this many join files (on a longer file)."""


def _progress(done: int, of: int) -> None:
    if of > PROGRESS_EVERY and (done % PROGRESS_EVERY == 0 or done == of):
        print(f"join files written: {done} of {of}", flush=True)


def _checked_rows(args: argparse.Namespace, out: Path) -> tuple[list[CabinetRow], list[str]]:
    """The file's rows, and every problem with them or with ``out``, each on a line of
    its own naming the file's line (nothing in the fleet checked yet)."""
    rows: list[CabinetRow] = []
    problems: list[str] = []
    try:
        rows = read_cabinet_file(args.file)
    except CabinetFileError as exc:
        problems = [f"{args.file}, {problem}" for problem in exc.problems]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        problems.append(f"--out-dir {out}: {exc.strerror or exc}")
    if out.is_dir() and not os.access(out, os.W_OK):
        problems.append(f"--out-dir {out}: this user may not write join files in it")
    return rows, problems


def _add_cabinets(args: argparse.Namespace) -> int:
    folder: Path = args.dir
    config = FleetConfig.load(folder)
    out: Path = args.out_dir or folder / "joins"
    rows, problems = _checked_rows(args, out)
    conn = store.connect(config.database)
    try:
        if not problems:
            problems = [f"{args.file}, {problem}" for problem in check_new(conn, rows)]
        if problems:
            for problem in problems:
                print(problem, file=sys.stderr)
            raise FleetError(f"{len(problems)} problem(s): no cabinet added")
        print(f"{args.file}: {len(rows)} cabinet(s) checked; adding them…", flush=True)
        add_cabinets(folder, config, conn, rows, out, _progress)
    finally:
        conn.close()
    reloaded = broker.reload_broker(folder)
    print(f"{len(rows)} cabinet(s) added; their join files: {out}/NAME.json")
    print("on each cabinet: spit-cabinet fleet join FILE")
    if not reloaded:
        print("the broker is not running from this folder: start it (or reload it) to let them in")
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

    ingest = Ingest(args.dir, host=args.broker_host)

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

    many = command("add-cabinets", "add every cabinet of a CSV file and write their join files")
    many.add_argument("file", type=Path, help="CSV: a header row 'name,location', a row each")
    many.add_argument(
        "--out-dir", type=Path, help="the folder for their join files (default: the fleet's joins/)"
    )
    many.set_defaults(func=_add_cabinets)

    revoke = command("revoke", "shut a cabinet out")
    revoke.add_argument("name")
    revoke.set_defaults(func=_revoke)

    ingest = command("ingest", "store what the cabinets send (runs until stopped)")
    ingest.add_argument(
        "--broker-host",
        help="the name ingest reaches the broker by, one of init's --host names "
        "(default: the first)",
    )
    ingest.set_defaults(func=_ingest)
    web_commands.register(sub)
    route_commands.register(command)
    release_commands.register(sub, DEFAULT_DIR)
    rollout_commands.register(command)
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
