"""The last games: kept as replayable records, the newest N only."""

from __future__ import annotations

from collections.abc import Callable

from cabinet.storage.audits import Seat
from cabinet.storage.setting_table import RECORDS_KEPT
from cabinet.storage.store import CabinetStore
from game.record import replay
from tests.cabinet.clocks import WallClock

from .conftest import cpu_game


def test_the_store_keeps_the_last_n(store: CabinetStore, wall_clock: WallClock) -> None:
    store.settings.set(RECORDS_KEPT, 10)
    ids = []
    for i in range(25):
        wall_clock.advance(minutes=3)
        game = cpu_game(i % 4)
        ids.append(store.record_game(game.record, game.summary, ("human", "cpu")))
    assert ids == list(range(1, 26))
    assert store.records.ids() == ids[-10:]
    recent = store.records.recent(3)
    assert [g.id for g in recent] == [25, 24, 23]
    assert recent[0].ended_at == wall_clock.now
    assert [g.id for g in store.records.recent(2, before_id=23)] == [22, 21]
    assert store.records.record(15) is None  # pruned
    # Raising the setting keeps more from then on; lowering it prunes when saved.
    store.settings.set(RECORDS_KEPT, 20)
    for _ in range(15):
        store.record_game(cpu_game(0).record, cpu_game(0).summary)
    assert store.records.count() == 20
    store.settings.set(RECORDS_KEPT, 10)
    store.save_settings()
    assert store.records.ids() == list(range(31, 41))
    # Audits count every game, kept or not.
    assert store.audits.games.lifetime.vs_cpu == 40


def test_a_stored_record_replays_to_its_result(open_store: Callable[[], CabinetStore]) -> None:
    game = cpu_game(5)
    game_id = open_store().record_game(game.record, game.summary)
    store = open_store()
    record = store.records.record(game_id)
    assert record is not None and record.result is not None
    done = replay(record)
    assert record.result.mismatches(done.summary()) == []
    assert done.summary().winner == game.summary.winner
    listing = store.records.listing(game_id)
    assert listing is not None
    assert listing.seats == (Seat.CPU, Seat.CPU) and listing.levels == (3, 4)
    assert listing.winner == game.summary.winner
    assert listing.termination == game.summary.termination
    assert game.summary.end_t_ns is not None
    assert listing.duration_ms == game.summary.end_t_ns // 1_000_000
