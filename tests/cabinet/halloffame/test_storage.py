"""The hall of fame in the database: stored with the game in one transaction, initials
filled in after, kept across restarts and factory resets, each category cut to its size,
cleared by category or all."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cabinet.halloffame.board import DEFAULT_SIZE, Candidate, Category
from cabinet.halloffame.names import BLANK
from cabinet.storage.store import CabinetStore
from tests.cabinet.storage.conftest import cpu_game


def record(store: CabinetStore, seed: int, places: list[tuple[Category, int]]) -> int:
    game = cpu_game(seed)
    candidates = [Candidate(0, category, figure) for category, figure in places]
    return store.record_game(game.record, game.summary, places=candidates)


def test_entries_are_stored_with_their_game_and_kept_across_a_restart(
    open_store: Callable[[], CabinetStore],
) -> None:
    store = open_store()
    game_id = record(store, 1, [(Category.MOST_PLAYS, 40), (Category.CLOSEST_RACE_WON, 900)])
    (plays, race) = store.fame_entries_of(game_id)
    assert (plays.category, plays.figure) == (Category.MOST_PLAYS, 40)
    assert (race.category, race.figure) == (Category.CLOSEST_RACE_WON, 900)
    assert store.fame.top(Category.MOST_PLAYS)[0].initials == BLANK
    store.set_initials(plays.entry_id, "ACE")
    store.factory_reset()  # settings only: records stay
    store.close()
    again = open_store()
    (top,) = again.fame.top(Category.MOST_PLAYS)
    assert (top.initials, top.figure, top.date) == (
        "ACE",
        40,
        "2025-03-01",
    )  # the test wall clock's day
    assert again.fame.top(Category.CLOSEST_RACE_WON)[0].initials == BLANK


def test_a_failed_game_transaction_stores_no_entry(
    open_store: Callable[[], CabinetStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cabinet.storage import store as store_module

    store = open_store()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the card went away")

    monkeypatch.setattr(store_module, "write_audits", broken)
    with pytest.raises(RuntimeError):
        record(store, 2, [(Category.MOST_PLAYS, 40)])
    assert store.fame.top(Category.MOST_PLAYS) == ()
    count = store.db.connection.execute("SELECT COUNT(*) FROM hall_of_fame").fetchone()[0]
    assert count == 0 and store.records.count() == 0


def test_each_category_keeps_its_best_and_the_earlier_of_equals(
    open_store: Callable[[], CabinetStore],
) -> None:
    store = open_store()
    for k, figure in enumerate((30, 50, 50, 10, 20, 50, 40, 5)):
        game_id = record(store, k % 3, [(Category.MOST_PLAYS, figure)])
        for place in store.fame_entries_of(game_id):
            store.set_initials(place.entry_id, f"P{k:02d}"[:3])
    top = store.fame.top(Category.MOST_PLAYS)
    assert [(e.figure, e.initials) for e in top] == [
        (50, "P01"),
        (50, "P02"),
        (50, "P05"),
        (40, "P06"),
        (30, "P00"),
    ]
    rows = store.db.connection.execute("SELECT COUNT(*) FROM hall_of_fame").fetchone()[0]
    assert rows == DEFAULT_SIZE  # the rest were deleted with the game that pushed them out


def test_clearing_one_category_or_all(open_store: Callable[[], CabinetStore]) -> None:
    store = open_store()
    record(store, 1, [(Category.MOST_PLAYS, 40), (Category.FASTEST_WIN_CPU_3, 61_000)])
    store.clear_fame(Category.MOST_PLAYS)
    assert store.fame.top(Category.MOST_PLAYS) == ()
    assert len(store.fame.top(Category.FASTEST_WIN_CPU_3)) == 1
    store.clear_fame()
    assert store.fame.entries == {}
