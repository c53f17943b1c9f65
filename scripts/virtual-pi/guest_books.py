"""The virtual Pi's look at the cabinet's books, and its coin mechanism, for the power
pulls on a flashed card (pulls.py). Runs in the guest as root, with the installed
cabinet's Python:

    python guest_books.py books          what is committed: games, coins, the check
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
    p = sub.add_parser("coins")
    p.add_argument("count", type=int)
    args = parser.parse_args()
    if args.command == "books":
        print(json.dumps(books()))
    else:
        coins(args.count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
