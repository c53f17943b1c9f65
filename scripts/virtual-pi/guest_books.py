"""The virtual Pi's look at the cabinet's books, and its coin mechanism, for the power
pulls on a flashed card (pulls.py). Runs in the guest as root, with the installed
cabinet's Python:

    python guest_books.py books          what is committed: games, coins, the check
    python guest_books.py look           that, the version running, the data mounted
    python guest_books.py coins N        N coins on coin mechanism 1's simulated line

``books`` prints one JSON object: the games recorded, coin mechanism 1's coins, and
SQLite's integrity check of the database (``ok`` when whole). It reads what a commit has
made durable, as the cabinet's next start will.

``coins`` pulls coin 1's line low for PULSE_S per coin (a mechanism's pulse is 20-150 ms),
GAP_S apart, as a coin mechanism does (its line on the simulated chip: the default
wiring's GPIO for coin 1).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from pathlib import Path

DATABASE = Path("/var/lib/spit-cabinet/cabinet.sqlite3")
INSTALL = Path("/opt/spit-cabinet")
STARTED = Path("/run/spit-cabinet/started")
LINES = Path("/run/virtual-pi.lines")
PULSE_S = 0.06
GAP_S = 0.25


def books(database: Path = DATABASE) -> dict[str, object]:
    """The committed games and coins, and whether the database is whole."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        money = dict(conn.execute("SELECT name, value FROM money").fetchall())
        check = conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()
    return {"games": games, "coins1": int(money.get("coins1", 0)), "integrity": check}


def running_version(started: Path = STARTED, install: Path = INSTALL) -> str:
    """The version of the cabinet that drew its first frame (its started file names the
    version's folder), by its wheel's metadata there; "" when none has started."""
    try:
        folder = install / "versions" / started.read_text(encoding="utf-8").strip()
    except OSError:
        return ""
    found = sorted(folder.glob("venv/lib/python3*/site-packages/spit_cabinet-*.dist-info"))
    return found[0].name.removeprefix("spit_cabinet-").removesuffix(".dist-info") if found else ""


def data_mounted(mounts: Path = Path("/proc/mounts")) -> bool:
    """Whether /data is the ext4 data partition, and the cabinet's folders on it mounted."""
    table = {f[1]: f[2] for f in (line.split() for line in mounts.read_text().splitlines())}
    return table.get("/data") == "ext4" and {str(INSTALL), str(DATABASE.parent)} <= set(table)


def look() -> dict[str, object]:
    """All the power pulls' checks look at, in one start of the guest's Python."""
    return {**books(), "version": running_version(), "data_mounted": data_mounted()}


def coins(count: int) -> None:
    """``count`` coin pulses on coin mechanism 1's line."""
    from wiring.default import DEFAULT_PINS
    from wiring.pinmap import Function

    bcm = next(pin for c, pin in DEFAULT_PINS.items() if c.function is Function.COIN1)
    pull = Path(LINES.read_text(encoding="utf-8").strip()) / f"sim_gpio{bcm}" / "pull"
    for _ in range(count):
        pull.write_text("pull-down", encoding="ascii")
        time.sleep(PULSE_S)
        pull.write_text("pull-up", encoding="ascii")
        time.sleep(GAP_S)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("books")
    sub.add_parser("look")
    p = sub.add_parser("coins")
    p.add_argument("count", type=int)
    args = parser.parse_args()
    if args.command == "books":
        print(json.dumps(books()))
    elif args.command == "look":
        print(json.dumps(look()))
    else:
        coins(args.count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
