"""The virtual Pi's route: a fleet on the host that the card joins, and the signed releases
it rolls out to it (docs/virtual-pi.md, "The route").

    python route.py serve RUN WHEELS       # until stopped: writes RUN/route/ready.json
    python route.py release RUN WHEELS     # sign and publish another release
    python route.py rollout RUN VERSION    # roll it out to the card; waits for its end
    python route.py presence RUN           # the version the card last reported

``serve`` starts what an operator's fleet server runs, on the host's loopback: a
PostgreSQL cluster of its own, ``spit-fleet init`` (its CA and server certificate name
the address the guest reaches the host by), Mosquitto, ``spit-fleet ingest`` and
``spit-fleet release serve``. It makes the route's release key, trusts its root and adds
the card as ``vpi-1``: its join file (RUN/route/fleet-join.json) goes on the card's boot
partition before its first boot. The release in WHEELS is signed and published first (the
release server serves published releases only). The guest's network reaches nothing but
the fleet's two ports (boot.sh, from RUN/route/ports). Everything stops with ``serve``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from fleet import cli, rollouts  # noqa: E402
from fleet.broker import FleetConfig  # noqa: E402
from tests.fleet.services import Broker, IngestProcess, Postgres, free_port  # noqa: E402

GUEST_HOST = "10.0.2.100"
"""The fleet server's address as the guest sees it: QEMU's user network forwards this
address's two ports, and nothing else, to the host's loopback (boot.sh)."""
CABINET = "vpi-1"
ROUTE = "Virtual Route"
PASSPHRASE = "virtual pi route"
"""The release key's passphrase: a test key, made and thrown away with the run."""
DONE = ("installed", "rolled_back", "refused")
"""The steps a cabinet's part of a rollout ends at."""


def folder(run: Path) -> Path:
    return run / "route"


def fleet_cli(*argv: str) -> None:
    os.environ["SPIT_RELEASE_PASSPHRASE"] = PASSPHRASE
    if cli.main(list(argv)) != 0:
        raise SystemExit(f"route: spit-fleet {argv[0]} failed")


def listening(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
        return True
    return False


def serve(run: Path, wheels: Path) -> int:
    """The fleet, set up and running until SIGTERM or SIGINT."""
    here = folder(run)
    here.mkdir(parents=True, exist_ok=True)
    for stale in ("ready.json", "ports"):
        (here / stale).unlink(missing_ok=True)
    fleet, key = here / "fleet", here / "release-key"
    broker_port, release_port = free_port(), free_port()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    postgres = Postgres(fsync=True)
    parts: list[Broker | IngestProcess] = []
    server: subprocess.Popen[bytes] | None = None
    try:
        database = postgres.new_database("fleet")
        user = "root" if os.geteuid() == 0 else os.environ["USER"]
        fleet_cli("init", "--dir", str(fleet), "--name", ROUTE, "--host", GUEST_HOST, "--host",
                  "127.0.0.1", "--port", str(broker_port), "--bind", "127.0.0.1", "--database",
                  database, "--broker-user", user, "--force")  # fmt: skip
        if not key.exists():
            fleet_cli("release-key", "--out", str(key), "--route", ROUTE)
        fleet_cli("release", "trust", "--dir", str(fleet), str(key / "root.json"))
        fleet_cli("add-cabinet", "--dir", str(fleet), "--location", "The Bench", "--out",
                  str(here / "fleet-join.json"), CABINET)  # fmt: skip
        sign(run, wheels, fleet)
        ingest = IngestProcess(fleet, "fleet.cli", "ingest", "--dir", str(fleet),
                               "--broker-host", "127.0.0.1")  # fmt: skip
        for part in (Broker(fleet, broker_port), ingest):
            part.start()
            parts.append(part)
        with (here / "release-server.log").open("ab") as log:
            server = subprocess.Popen(
                [sys.executable, "-m", "fleet.cli", "release", "serve", "--dir", str(fleet),
                 "--bind", "127.0.0.1", "--port", str(release_port)],
                stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )  # fmt: skip
        deadline = time.monotonic() + 30
        while not listening(release_port):
            if server.poll() is not None or time.monotonic() > deadline:
                said = (here / "release-server.log").read_text()[-2000:]
                raise SystemExit(f"route: the release server did not start: {said}")
            stop.wait(0.1)
        ready = {
            "fleet": str(fleet),
            "join": str(here / "fleet-join.json"),
            "url": f"https://{GUEST_HOST}:{release_port}/releases/",
            "broker_port": broker_port,
            "release_port": release_port,
        }
        (here / "ports").write_text(f"{GUEST_HOST} {broker_port} {release_port}\n")
        (here / "ready.json").write_text(json.dumps(ready, indent=1) + "\n")
        print(f"route: up, broker {broker_port}, releases {ready['url']}", file=sys.stderr)
        stop.wait()
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        for part in reversed(parts):
            part.stop()
        postgres.close()
    return 0


def ready(run: Path) -> dict[str, Any]:
    return dict(json.loads((folder(run) / "ready.json").read_text()))


def connect(run: Path) -> psycopg.Connection[Any]:
    return psycopg.connect(FleetConfig.load(Path(ready(run)["fleet"])).database, autocommit=True)


def sign(run: Path, wheels: Path, fleet: Path) -> str:
    """Sign the release in ``wheels`` with the route's key and publish it; its version."""
    [wheel] = wheels.glob("spit_cabinet-*.whl")
    repo = folder(run) / "repo"
    fleet_cli("release", "sign", "--key", str(folder(run) / "release-key"), "--repo",
              str(repo), str(wheels))  # fmt: skip
    fleet_cli("release", "publish", "--dir", str(fleet), str(repo))
    return wheel.name.split("-")[1]


def presence(run: Path) -> str:
    """The version the card last said it runs (its presence, as ingest stored it)."""
    with connect(run) as conn:
        row = conn.execute("SELECT version FROM presence WHERE cabinet = %s", (CABINET,))
        found = row.fetchone()
    return "" if found is None else str(found[0])


def start_rollout(run: Path, version: str) -> int:
    """Roll ``version`` out to the whole route (the card), healthy at once."""
    with connect(run) as conn:
        return rollouts.start(conn, version, ready(run)["url"], "all", 100, 0, "virtual pi")


def step(run: Path, rollout: int) -> tuple[str, str]:
    """The card's step in ``rollout`` and its reason, as the fleet has it."""
    with connect(run) as conn:
        [member] = rollouts.members(conn, rollout)
    return member.state, member.reason


def finish(run: Path, rollout: int, timeout_s: float) -> dict[str, Any]:
    """Wait for the card's part of ``rollout`` to end; what the fleet saw of it."""
    deadline = time.monotonic() + timeout_s
    seen: list[str] = []
    state, reason = step(run, rollout)
    while state not in DONE and time.monotonic() < deadline:
        if not seen or seen[-1] != state:
            seen.append(state)
        time.sleep(2)  # the card's reports come over the link; this only spaces the looks
        state, reason = step(run, rollout)
    if not seen or seen[-1] != state:
        seen.append(state)
    with connect(run) as conn:  # the controller ends the rollout at its next tick
        while time.monotonic() < deadline and any(
            r.id == rollout for r in rollouts.rollouts(conn, active_only=True)
        ):
            time.sleep(0.5)
    return {"rollout": rollout, "state": state, "reason": reason, "steps": seen,
            "reported_version": presence(run)}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("serve", "release", "rollout", "presence"):
        command = sub.add_parser(name)
        command.add_argument("run", type=Path)
        if name in ("serve", "release"):
            command.add_argument("wheels", type=Path)
        if name == "rollout":
            command.add_argument("version")
            command.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    if args.command == "serve":
        return serve(args.run, args.wheels)
    if args.command == "release":
        print(sign(args.run, args.wheels, Path(ready(args.run)["fleet"])))
        return 0
    if args.command == "presence":
        print(presence(args.run))
        return 0
    started = time.monotonic()
    done = finish(args.run, start_rollout(args.run, args.version), args.timeout)
    done["release"] = args.version
    done["took_s"] = round(time.monotonic() - started, 1)
    print(json.dumps(done))
    return 0 if done["state"] == "installed" else 1


if __name__ == "__main__":
    sys.exit(main())
