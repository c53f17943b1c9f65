"""The route's champions from one cabinet to another, on loopback, for ``bench/route.py``:
a record set on cabinet A (a game stored through its store with a hall-of-fame place
better than the route's best, then its initials entered) until cabinet B's attract turn
would show it.

The path measured is the real one: A's store queues the ``fame`` event in the game's
transaction, A's link sends it, ``spit-fleet ingest`` stores it and publishes the route's
champions retained on :data:`fleet.wire_down.CHAMPIONS_TOPIC`, B's link keeps the board in
B's database, and the attract turn's view (``champions_view``) is made from the board B
kept. The clock stops when that view holds A's initials and figure.

The fleet is the bench's database, a year of history in it (the board is worked out
from every ``fame`` event the route has sent).
"""

from __future__ import annotations

import contextlib
import functools
import sqlite3
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.fleet.cabinets import Cabinet

#: The category the records are set in: the most plays (larger is better), a figure far
#: above the history's (30..90), one more each run.
CATEGORY = "most_plays"
FIRST_FIGURE = 1000


def _shown(path: Path, initials: str, figure: int) -> bool:
    """Whether cabinet B's attract turn, made from the board it kept, shows the record."""
    from cabinet.display.fame_presenter import champions_view
    from cabinet.halloffame.board import Category
    from cabinet.halloffame.words import category_title
    from cabinet.i18n.translate import Translator
    from cabinet.storage import fleet_documents

    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        board = fleet_documents.champions(conn)
    finally:
        conn.close()
    if board is None:
        return False
    best = {c.category: c for c in board.champions}.get(CATEGORY)
    if best is None or best.initials != initials or best.figure != figure:
        return False
    tr = Translator("en")
    title = category_title(tr, Category(CATEGORY))
    view = champions_view(tr, board, None)
    return any(row.initials == initials and row.category == title for row in view.rows)


def _patient_ingest(folder: Path) -> Any:
    """``spit-fleet ingest``, given as long as it takes to subscribe: at its connection it
    works the route's board out of every ``fame`` event the year holds."""
    from tests.fleet.services import IngestProcess

    return IngestProcess(folder, up_within_s=600)


def board_s(database: str, limit_s: int) -> float | str:
    """Seconds to work the route's board out once (``fleet.champions.board``), or what
    it took when PostgreSQL cancelled it at ``limit_s``."""
    import psycopg

    from fleet.champions import board

    with psycopg.connect(database) as conn:
        conn.execute(f"SET statement_timeout = '{int(limit_s)}s'")
        start = time.perf_counter()
        try:
            board(conn)
        except psycopg.errors.QueryCanceled:
            return f"> {limit_s} (cancelled)"
        return round(time.perf_counter() - start, 2)


def champions(runs: int, database: str, folder: Path, work: Path, port: int) -> dict[str, Any]:
    """``runs`` records, one after the other: seconds from A's game to B's attract view;
    and the board's query alone, before (``board_query_s``)."""
    from bench.route import percentiles
    from tests.fleet.services import Broker, running
    from tests.fleet.waiting import wait_for

    a, b = _two_cabinets(folder, work)
    board_query_s = board_s(database, 600)
    with running(Broker(folder, port), _patient_ingest(folder)):
        senders = [a.sender("bench"), b.sender("bench")]
        for sender in senders:
            sender.start()
        try:
            wait_for(
                "both cabinets connected",
                lambda: all(s.connected for s in senders),
                a.changes,
                b.changes,
                timeout_s=60,
            )
            seconds = _records(runs, a, b)
        finally:
            for sender in senders:
                sender.stop()
            a.close()
            b.close()
    result = percentiles([s * 1000 for s in seconds])
    timed: dict[str, Any] = {k: (round(v / 1000, 3) if k != "n" else v) for k, v in result.items()}
    return {**timed, "board_query_s": board_query_s}


def _two_cabinets(folder: Path, work: Path) -> tuple[Cabinet, Cabinet]:
    """Cabinets A and B, added to the fleet at one of the year's venues and joined to it."""
    from fleet import cli
    from tests.fleet.cabinets import Cabinet

    joins = []
    for name in ("bench-a", "bench-b"):
        out = work / f"{name}.join.json"
        with contextlib.redirect_stdout(sys.stderr):
            code = cli.main(
                [
                    "add-cabinet",
                    name,
                    "--location",
                    "The Golden Bell 1",
                    "--dir",
                    str(folder),
                    "--out",
                    str(out),
                ]
            )
        assert code == 0
        joins.append(out)
    a, b = (Cabinet(work / name, join) for name, join in zip(("a", "b"), joins, strict=True))
    return a, b


def _records(runs: int, a: Cabinet, b: Cabinet) -> list[float]:
    """Seconds from each record's game stored on A to B's attract view showing it."""
    from cabinet.halloffame.board import Candidate, Category
    from game.summary import Seat
    from tests.fleet.cabinets import cpu_game
    from tests.fleet.waiting import wait_for

    seconds: list[float] = []
    game = cpu_game(1)
    for run in range(runs):
        figure, initials = FIRST_FIGURE + run, f"R{run % 100:02d}"
        start = time.perf_counter()
        place = Candidate(0, Category(CATEGORY), figure)
        game_id = a.store.record_game(
            game.record, game.summary, (Seat.HUMAN, Seat.CPU), places=(place,)
        )
        (entry,) = a.store.fame_entries_of(game_id)
        a.store.set_initials(entry.entry_id, initials)
        shown = functools.partial(_shown, b.path, initials, figure)
        wait_for("cabinet B's attract to show the record", shown, b.changes, timeout_s=60)
        seconds.append(time.perf_counter() - start)
    return seconds
