"""Power cut during the hall of fame's commits: a writer recording games that set records
and filling in initials is SIGKILLed twenty times at seeded moments. After each kill the
table is whole: SQLite's integrity check passes, every entry reported committed is there
(with its game: one transaction) or was pushed off by a better one, initials are either
all there or still blank (never half), and the board still ranks."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from cabinet.halloffame.board import Category
from cabinet.halloffame.names import BLANK
from cabinet.storage.paths import database_path
from cabinet.storage.store import CabinetStore
from tests.cabinet.killed_child import KilledChild

KILLS = 20
SEED = 20261216


@pytest.mark.slow
def test_killing_the_writer_leaves_the_hall_of_fame_whole(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    data = tmp_path / "data"
    committed: dict[int, int] = {}  # entry id -> its game
    named: dict[int, str] = {}
    for run in range(KILLS):
        writer = KilledChild("tests.cabinet.halloffame.fame_writer", str(data), str(run))
        writer.kill_after_lines(rng.randint(1, 30))
        for line in writer.lines:
            word, *rest = line.split()
            if word == "game":
                committed[int(rest[1])] = int(rest[0])
            elif word == "initials":
                named[int(rest[0])] = rest[1]
        with sqlite3.connect(f"file:{database_path(data)}?mode=ro", uri=True) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            rows = {
                entry_id: (game, initials)
                for entry_id, game, initials in conn.execute(
                    "SELECT id, game, initials FROM hall_of_fame"
                )
            }
            games = {g for (g,) in conn.execute("SELECT id FROM games")}
        for entry_id, (game, initials) in rows.items():
            # One transaction: an entry's game is there, unless pruned as one of the
            # oldest (records_kept); never newer than the newest game kept.
            if game >= min(games):
                assert game in games, f"run {run}: entry {entry_id} without its game"
            assert game <= max(games)
            assert initials in (BLANK, named.get(entry_id, BLANK)) or len(set(initials)) == 1
            if entry_id in named:
                assert initials == named[entry_id], f"run {run}: initials of {entry_id} lost"
        store = CabinetStore.open(data)
        try:
            assert store.problems == []
            top = store.fame.top(Category.MOST_PLAYS)
            assert len(top) == min(5, len(rows))
            figures = [e.figure for e in top]
            assert figures == sorted(figures, reverse=True)
            # Each entry is a new best: the newest reported are on the board, but for
            # the one an unreported commit (the kill's) may have pushed off.
            best = {e.order for e in top}
            newest = set(sorted(committed)[-5:])
            assert len(newest - best) <= 1, (run, newest, best)
        finally:
            store.close()
    assert len(named) > 20, "the writer committed too little for the test to mean much"
