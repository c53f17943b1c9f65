"""Power cut: a writer process is killed with SIGKILL at seeded random moments, twenty
times over the same database. After each kill the database must pass SQLite's integrity
check, hold every game the writer reported committed (with its audits: the two are one
transaction), and hold a volume the writer saved or was saving.

SIGKILL stops the process between any two instructions, as a power cut does; unlike a
power cut it leaves the operating system's page cache, so what this proves is that a
commit is atomic and complete whenever the program stops. That the commit is on the
card when the power goes is ``synchronous=FULL``'s fsync (see docs/storage.md).
"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from cabinet.storage.paths import database_path
from cabinet.storage.setting_table import VOLUME
from cabinet.storage.store import CabinetStore
from tests.cabinet.killed_child import KilledChild

KILLS = 20
SEED = 20250301


class Writer(KilledChild):
    """The writer process and the lines it has printed so far."""

    def __init__(self, data: Path, run: int) -> None:
        super().__init__("tests.cabinet.storage.power_cut_writer", str(data), str(run))

    def wait_ready(self) -> bool:
        """Whether it said "ready" (its first line) within 20 s."""
        return self.wait_lines(1, timeout_s=20) and self.lines[0] == "ready"


@pytest.mark.slow
def test_killing_the_writer_never_loses_a_committed_game(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    data = tmp_path / "data"
    committed: set[int] = set()
    volume_saved = VOLUME.default
    kills_in_transactions = 0
    for run in range(KILLS):
        writer = Writer(data, run)
        if run > 0 and rng.random() < 0.2:
            writer.kill_after(rng.uniform(0.0, 0.3))  # while starting: opening, migrating
        else:
            assert writer.wait_ready(), "the writer did not start"
            writer.kill_after_lines(1 + rng.randint(1, 12))  # lines after "ready"
        attempt = None
        for line in writer.lines:
            word, _, rest = line.partition(" ")
            assert word != "problem", f"run {run}: the writer found {rest}"
            if word == "game":
                committed.add(int(rest))
            elif word == "attempt":
                attempt = int(rest)
            elif word == "volume":
                volume_saved, attempt = int(rest), None
        if writer.lines and writer.lines[-1] != "ready":
            kills_in_transactions += 1

        path = database_path(data)
        if not path.exists():
            assert not committed  # killed before the database was first created
            continue
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)], run
            stored = {r[0] for r in conn.execute("SELECT id FROM games")}
            results = [json.loads(r[0])["result"] for r in conn.execute("SELECT record FROM games")]
        assert committed <= stored, f"run {run}: lost games {sorted(committed - stored)}"
        # At most the one game in flight was committed without being reported; it is
        # committed all the same, so the next runs count it as such.
        assert len(stored - committed) <= 1
        committed |= stored

        store = CabinetStore.open(data)
        try:
            assert store.problems == [], store.problems
            # Record and audits are one transaction: they agree exactly.
            lifetime = store.audits.games.lifetime
            assert lifetime.played == len(stored)
            assert store.audits.play.lifetime.plays == sum(sum(r["plays"]) for r in results)
            assert store.settings.get(VOLUME) in {volume_saved, attempt}
        finally:
            store.close()
    assert len(committed) > 50, "the writer committed too little for the test to mean much"
    assert kills_in_transactions >= KILLS // 2
