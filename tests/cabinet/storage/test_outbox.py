"""The outbox: written in the transaction of what it reports (a failed transaction
leaves no row), only while in a fleet, snapshots replaced, bounded with exact totals."""

from __future__ import annotations

from pathlib import Path

import pytest

from cabinet.link import membership
from cabinet.link.status import read_status
from cabinet.storage import outbox
from cabinet.storage.audit_counts import MoneyCounts
from cabinet.storage.outbox import Kind, pending
from cabinet.storage.store import CabinetStore
from fleet.join_file import Join
from game.summary import Seat
from tests.cabinet.clocks import WallClock

from .conftest import cpu_game

JOIN = Join("Route", "bar-1", "The Anchor", "localhost", 8883, "pw", "ca")


@pytest.fixture
def joined(tmp_path: Path, wall_clock: WallClock) -> CabinetStore:
    store = CabinetStore.open(tmp_path, wall_clock=wall_clock, synced=lambda: False)
    with store.db.transaction() as conn:
        membership.join(conn, JOIN)
    return store


def _kinds(store: CabinetStore) -> list[str]:
    return [r.kind for r in pending(store.db.connection, 0, 10_000)]


def test_a_game_is_queued_with_its_audits_in_its_transaction(joined: CabinetStore) -> None:
    game = cpu_game(1)
    game_id = joined.record_game(game.record, game.summary, (Seat.HUMAN, Seat.CPU))
    rows = pending(joined.db.connection, 0, 100)
    assert [r.kind for r in rows] == ["game", "audits"]
    body = rows[0].body
    assert body["game"] == game_id and body["seats"] == ["human", "cpu"]
    assert body["summary"] == game.summary.to_json()
    assert len(body["record_sha256"]) == 64
    assert rows[0].synced is False
    audits = rows[1].body["counters"]
    assert audits["games.vs_cpu"] == [1, 1]  # the audits as this game left them


def test_a_failed_transaction_queues_nothing(joined: CabinetStore) -> None:
    joined.db.connection.execute(
        "CREATE TRIGGER fail BEFORE INSERT ON money BEGIN SELECT RAISE(ABORT, 'cut'); END"
    )
    with pytest.raises(Exception, match="cut"):
        joined.commit_money({"coins1": 1}, MoneyCounts(coins1=1))
    assert _kinds(joined) == []


def test_nothing_is_queued_in_no_fleet(tmp_path: Path) -> None:
    store = CabinetStore.open(tmp_path)
    game = cpu_game(2)
    store.record_game(game.record, game.summary, (Seat.CPU, Seat.CPU))
    store.commit_money({"coins1": 1}, MoneyCounts(coins1=1))
    assert store.report(Kind.DOOR, {"state": "open"}) is False
    assert outbox.queued(store.db.connection) == 0


def test_snapshots_replace_the_unsent_one_before(joined: CabinetStore) -> None:
    for _ in range(5):
        joined.save_audits()
        joined.report(Kind.HEALTH, {"version": "t"})
    assert sorted(_kinds(joined)) == ["audits", "health"]


def test_past_its_bound_it_drops_detail_first_and_keeps_the_totals(
    joined: CabinetStore, wall_clock: WallClock
) -> None:
    conn = joined.db.connection
    at = wall_clock()
    with joined.db.transaction() as tx:
        for n in range(1, 31):
            outbox.add(tx, Kind.MONEY, {"counts": {"coins1": n}, "counted": {}}, at, True, limit=20)
            outbox.add(tx, Kind.GAME, {"game": n}, at, True, limit=20)
    rows = pending(conn, 0, 100)
    assert len(rows) == 20
    money = [r for r in rows if r.kind == "money"]
    assert money and money[-1].body["counts"] == {"coins1": 30}  # the newest totals stay
    state = read_status(conn)
    assert sum(state.dropped.values()) == 40
    assert state.dropped["money"] >= 20  # money detail goes before any game


def test_leaving_discards_the_queue(joined: CabinetStore) -> None:
    joined.save_audits()
    with joined.db.transaction() as conn:
        assert membership.leave(conn) == 1
        assert read_status(conn).join is None
    joined.save_audits()
    assert outbox.queued(joined.db.connection) == 0


def test_seq_is_never_reused(joined: CabinetStore) -> None:
    joined.save_audits()
    first = pending(joined.db.connection, 0, 10)[0].seq
    with joined.db.transaction() as conn:
        outbox.forget_through(conn, first)
    joined.save_audits()
    assert pending(joined.db.connection, 0, 10)[0].seq == first + 1
