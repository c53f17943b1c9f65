"""Collections against the books: the books of each period by when the cabinet wrote
its coins, the difference, estimated until the fleet holds proof the period is whole
(a late coin then counts in its own period), the open period, and the CSV export."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest

from fleet import collections, store
from fleet.collections import CollectionError
from fleet.wire import Presence
from tests.fleet.events import empty, presence, put

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
H = timedelta(hours=1)


def _coin(db: psycopg.Connection[Any], cents: int, at: datetime, **kw: Any) -> int:
    body = {"counts": {}, "counted": {"coins1": 1, "earnings_cents": cents}}
    return put(db, "bar-1", "money", body, at=at, received=kw.pop("received", at), **kw)


def _health(db: psycopg.Connection[Any], at: datetime, **kw: Any) -> int:
    return put(db, "bar-1", "health", {"version": "1"}, at=at, received=at, **kw)


@pytest.fixture
def cabinet(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    empty(db)
    store.add_cabinet(db, "bar-1", "The Anchor")
    store.add_cabinet(db, "bar-2", "=cmd|calc")
    presence(db, "bar-1", Presence.ONLINE, T0)
    return db


def test_a_collection_is_set_against_its_books_and_settles_when_the_data_is_whole(
    cabinet: psycopg.Connection[Any],
) -> None:
    db = cabinet
    _coin(db, 200, T0 + H)
    _coin(db, 100, T0 + 2 * H, synced=False, received=T0 + 2 * H)
    first = collections.record(db, "bar-1", 250, "carla", "", T0 + 3 * H)
    (row,) = collections.history(db, "bar-1")
    assert (row.collection, row.since, row.until) == (first, None, T0 + 3 * H)
    assert (row.books_cents, row.counted_cents, row.difference_cents) == (300, 250, -50)
    assert row.estimated and row.entered_by == "carla"
    # A coin taken before the collection arrives late, after a heartbeat written later:
    # the heartbeat (seq 4) lies beyond the acknowledged prefix until seq 3 comes.
    _health(db, T0 + 4 * H, seq=4)
    (row,) = collections.history(db, "bar-1")
    assert row.estimated and row.books_cents == 300
    _coin(db, 200, T0 + 2.5 * H, seq=3, received=T0 + 5 * H)
    (row,) = collections.history(db, "bar-1")
    assert (row.books_cents, row.difference_cents, row.estimated) == (500, -250, False)


def test_periods_follow_each_other_and_the_open_one_is_estimated_when_offline(
    cabinet: psycopg.Connection[Any],
) -> None:
    db = cabinet
    _coin(db, 100, T0 + H)
    collections.record(db, "bar-1", 100, "carla", "", T0 + 2 * H)
    _coin(db, 200, T0 + 2 * H + timedelta(seconds=1))
    _coin(db, 200, T0 + 3 * H)
    second = collections.record(db, "bar-1", 400, "dan", "bag 7", T0 + 4 * H)
    _coin(db, 50, T0 + 5 * H)
    _health(db, T0 + 6 * H)
    newest, oldest = collections.history(db, None)
    assert newest.collection == second and newest.since == oldest.until == T0 + 2 * H
    assert (newest.books_cents, newest.difference_cents) == (400, 0)
    assert (oldest.books_cents, oldest.difference_cents) == (100, 0)
    assert not newest.estimated and not oldest.estimated
    now = T0 + 6 * H + timedelta(minutes=5)
    still = collections.open_period(db, "bar-1", now)
    assert (still.since, still.until, still.books_cents, still.counted_cents) == (
        T0 + 4 * H,
        now,
        50,
        None,
    )
    assert not still.estimated  # online, a heartbeat five minutes ago
    assert collections.open_period(db, "bar-1", now + timedelta(minutes=11)).estimated
    presence(db, "bar-1", Presence.OFFLINE, T0 + 6 * H + timedelta(minutes=1))
    gone = collections.open_period(db, "bar-1", now)
    assert gone.estimated and gone.offline_since == T0 + 6 * H + timedelta(minutes=1)
    assert collections.history(db, "bar-2") == []


def test_the_csv_export(cabinet: psycopg.Connection[Any]) -> None:
    db = cabinet
    _coin(db, 1234, T0 + H)
    collections.record(db, "bar-1", 1200, "carla", "=HYPERLINK(1)", T0 + 2 * H)
    collections.record(db, "bar-2", 0, "dan", "", T0 + 2 * H)
    rows = collections.history(db, None)
    table = list(csv.DictReader(io.StringIO(collections.csv_text(db, rows))))
    assert list(table[0]) == list(collections.CSV_COLUMNS)
    one = next(r for r in table if r["cabinet"] == "bar-1")
    assert (one["books"], one["counted"], one["difference"]) == ("12.34", "12.00", "-0.34")
    assert one["until"] == "2026-12-01T11:00:00+00:00" and one["estimated"] == "yes"
    assert one["note"] == "'=HYPERLINK(1)" and one["location"] == "The Anchor"
    assert next(r for r in table if r["cabinet"] == "bar-2")["location"] == "'=cmd|calc"


@pytest.mark.parametrize(
    ("cabinet_name", "cents", "who", "said"),
    [
        ("bar-1", -1, "carla", "whole number of cents"),
        ("bar-9", 100, "carla", "no cabinet 'bar-9'"),
        ("bar-1", 100, " ", "who entered it"),
    ],
)
def test_a_bad_collection_is_refused(
    cabinet: psycopg.Connection[Any], cabinet_name: str, cents: int, who: str, said: str
) -> None:
    with pytest.raises(CollectionError, match=said):
        collections.record(cabinet, cabinet_name, cents, who, "", T0)


def test_the_rollups_count_a_coin_on_the_day_the_cabinet_took_it(
    cabinet: psycopg.Connection[Any],
) -> None:
    # A coin taken three days ago by a synchronised clock, sent only now; one taken by an
    # unsynchronised clock counts on the day it arrived (now).
    three_days = datetime.now(UTC) - timedelta(days=3)
    _coin(cabinet, 200, three_days, received=None)
    _coin(cabinet, 50, three_days, received=None, synced=False)
    rows = cabinet.execute(
        "SELECT start, earnings_cents, coins FROM rollups "
        "WHERE cabinet = 'bar-1' AND period = 'day' ORDER BY start"
    ).fetchall()
    (today,) = cabinet.execute("SELECT current_date").fetchone() or (None,)
    (then,) = cabinet.execute("SELECT %s::timestamptz::date", (three_days,)).fetchone() or (None,)
    assert rows == [(then, 200, 1), (today, 50, 1)]
    weeks = cabinet.execute(
        "SELECT sum(earnings_cents) FROM rollups WHERE cabinet = 'bar-1' AND period = 'week'"
    ).fetchone()
    assert weeks == (250,)
