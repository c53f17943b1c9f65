"""Each alert fires past its edge and not before it, on events stored as ingest stores
them and a time given: offline counted only in opening hours (past midnight, in the
venue's time zone), a missing switch until cleared, coin errors in their window, a coin
door opened away from a collection, and low earnings against the same weekdays."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

import psycopg
import pytest

from fleet import alerts, collections, locations, store
from fleet.alerts import AlertKind
from fleet.options import OptionError, options, set_option
from fleet.wire import Presence
from tests.fleet.events import empty, presence, put, weekday_earnings

ROME_BAR = locations.Hours(time(18), time(2), "Europe/Rome")  # 17:00-01:00 UTC in December
DEC1 = datetime(2026, 12, 1, tzinfo=UTC)  # a Tuesday
H = timedelta(hours=1)
M = timedelta(minutes=1)


def kinds(db: psycopg.Connection[Any], now: datetime, kind: AlertKind) -> list[alerts.Alert]:
    return [a for a in alerts.open_alerts(db, now) if a.kind is kind]


@pytest.fixture
def fleet(db: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    empty(db)
    store.add_cabinet(db, "bar-1", "Bar Roma")
    locations.set_hours(db, "Bar Roma", ROME_BAR)
    db.execute("UPDATE cabinets SET added_at = %s", (DEC1 - 60 * 24 * H,))
    db.commit()
    presence(db, "bar-1", Presence.ONLINE, DEC1 - 30 * 24 * H)
    return db


def test_offline_counts_only_opening_hours(fleet: psycopg.Connection[Any]) -> None:
    db = fleet
    presence(db, "bar-1", Presence.OFFLINE, DEC1 + 12 * H)  # closed until 17:00 UTC
    assert kinds(db, DEC1 + 19 * H, AlertKind.OFFLINE) == []  # 2 h open: not more
    (alert,) = kinds(db, DEC1 + 19 * H + M, AlertKind.OFFLINE)
    assert (alert.cabinet, alert.location, alert.since, alert.money) == (
        "bar-1",
        "Bar Roma",
        DEC1 + 12 * H,
        False,
    )
    # Past midnight: 23:30-01:00 UTC open (1.5 h), closed till 17:00, then 0.5 h more.
    presence(db, "bar-1", Presence.OFFLINE, DEC1 + 23.5 * H)
    assert kinds(db, DEC1 + 41.5 * H - M, AlertKind.OFFLINE) == []
    assert len(kinds(db, DEC1 + 41.5 * H + M, AlertKind.OFFLINE)) == 1
    # The same hours in UTC would have alerted an hour earlier.
    locations.set_hours(db, "Bar Roma", locations.Hours(time(18), time(2), "UTC"))
    assert len(kinds(db, DEC1 + 40 * H, AlertKind.OFFLINE)) == 1
    presence(db, "bar-1", Presence.ONLINE, DEC1 + 42 * H)
    assert kinds(db, DEC1 + 90 * H, AlertKind.OFFLINE) == []


def test_a_cabinet_that_never_connected_is_offline_since_it_was_added(
    fleet: psycopg.Connection[Any],
) -> None:
    store.add_cabinet(fleet, "bar-2", "Arcade")
    fleet.execute("UPDATE cabinets SET added_at = %s WHERE name = 'bar-2'", (DEC1,))
    fleet.commit()
    assert kinds(fleet, DEC1 + 2 * H, AlertKind.OFFLINE) == []  # all day, UTC: exactly 2 h
    (alert,) = kinds(fleet, DEC1 + 2 * H + M, AlertKind.OFFLINE)
    assert alert.cabinet == "bar-2" and alert.since == DEC1


def test_a_missing_switch_until_it_is_cleared(fleet: psycopg.Connection[Any]) -> None:
    db = fleet

    def fault(button: str, state: str, at: datetime) -> None:
        body = {"fault": "missing_switch", "state": state, "button": button, "games": 10}
        put(db, "bar-1", "fault", body, at=at, received=at)

    fault("p1.slot2", "raised", DEC1)
    fault("p2.slot4", "raised", DEC1 + H)
    fault("p1.slot2", "cleared", DEC1 + 2 * H)
    put(db, "bar-1", "fault", {"fault": "light_board_lost", "state": "raised"}, at=DEC1)
    (alert,) = kinds(db, DEC1 + 3 * H, AlertKind.MISSING_SWITCH)
    assert alert.since == DEC1 + H and alert.detail.startswith("p2.slot4: not pressed in 10")
    assert len(kinds(db, DEC1 + 1.5 * H, AlertKind.MISSING_SWITCH)) == 2  # as it was then


def test_coin_errors_over_the_threshold_in_the_window(fleet: psycopg.Connection[Any]) -> None:
    db = fleet

    def errors(line: int, n: int, at: datetime) -> None:
        body = {"counts": {}, "counted": {f"coin_errors{line}": n}}
        put(db, "bar-1", "money", body, at=at, received=at)

    errors(1, 9, DEC1 - 25 * H)  # outside the window
    errors(1, 3, DEC1 + H)
    errors(2, 1, DEC1 + 2 * H)
    now = DEC1 + 20 * H
    assert kinds(db, now, AlertKind.COIN_ERRORS) == []  # 4: under 5
    errors(2, 1, DEC1 + 3 * H)
    (alert,) = kinds(db, now, AlertKind.COIN_ERRORS)
    assert alert.detail == "5 coin errors in the last 24 h (line 1: 3, line 2: 2)"
    assert alert.since == DEC1 + H
    set_option(db, "coin_errors", "6")
    assert kinds(db, now, AlertKind.COIN_ERRORS) == []


def test_the_coin_door_opened_away_from_a_collection(fleet: psycopg.Connection[Any]) -> None:
    db = fleet
    put(db, "bar-1", "door", {"state": "open"}, at=DEC1 + 10 * H, received=DEC1 + 10 * H)
    put(db, "bar-1", "door", {"state": "closed"}, at=DEC1 + 10.1 * H, received=DEC1 + 11 * H)
    collections.record(db, "bar-1", 0, "carla", "", DEC1 + 11 * H)  # within 60 minutes
    assert kinds(db, DEC1 + 12 * H, AlertKind.DOOR_OPEN) == []
    put(db, "bar-1", "door", {"state": "open"}, at=DEC1 + 14 * H, received=DEC1 + 14 * H)
    collections.record(db, "bar-1", 0, "carla", "", DEC1 + 15 * H + M)  # 61 minutes
    (alert,) = kinds(db, DEC1 + 16 * H, AlertKind.DOOR_OPEN)
    assert alert.since == DEC1 + 14 * H and "1 time(s)" in alert.detail
    assert kinds(db, DEC1 + 38 * H + M, AlertKind.DOOR_OPEN) == []  # older than 24 h


def _tuesdays(db: psycopg.Connection[Any], cents: list[int], heartbeat: bool = True) -> None:
    """Earnings on the Tuesdays up to December 1st (23:30 UTC on Monday: Tuesday in
    Rome), and a heartbeat a day after."""
    weekday_earnings(db, "bar-1", DEC1 - 0.5 * H, cents)
    if not heartbeat:
        db.execute("DELETE FROM events WHERE kind = 'health'")
        db.commit()


@pytest.mark.parametrize(("yesterday", "fires"), [(1999, True), (2000, False)])
def test_low_earnings_against_the_same_weekday(
    fleet: psycopg.Connection[Any], yesterday: int, fires: bool
) -> None:
    _tuesdays(fleet, [4000, 4000, 3000, 5000, yesterday])
    found = kinds(fleet, DEC1 + 26 * H, AlertKind.LOW_EARNINGS)
    assert len(found) == int(fires)
    if fires:
        assert found[0].money and found[0].since == DEC1 - H  # midnight in Rome
        assert "earned 19.99; the 4 Tuesdays before, 40.00 on average" in found[0].detail


def test_low_earnings_needs_the_history_and_yesterday_whole(
    fleet: psycopg.Connection[Any],
) -> None:
    _tuesdays(fleet, [4000, 4000, 4000, 4000, 0], heartbeat=False)
    assert kinds(fleet, DEC1 + 26 * H, AlertKind.LOW_EARNINGS) == []  # the day not whole yet
    put(fleet, "bar-1", "health", {"version": "1"}, at=DEC1 + 24 * H, received=DEC1 + 24 * H)
    assert len(kinds(fleet, DEC1 + 26 * H, AlertKind.LOW_EARNINGS)) == 1
    fleet.execute("UPDATE cabinets SET added_at = %s", (DEC1 - 22 * 24 * H,))
    fleet.commit()
    assert kinds(fleet, DEC1 + 26 * H, AlertKind.LOW_EARNINGS) == []  # three weeks only


def test_options_are_checked(db: psycopg.Connection[Any]) -> None:
    empty(db)
    assert options(db)["offline_hours"] == 2.0
    assert set_option(db, "offline_hours", "4.5") == 4.5 and options(db)["offline_hours"] == 4.5
    with pytest.raises(OptionError, match="no option 'offline'"):
        set_option(db, "offline", "1")
    with pytest.raises(OptionError, match="low_earnings_fraction: 2 is not a fraction"):
        set_option(db, "low_earnings_fraction", "2")
    with pytest.raises(OptionError, match="'carla' is not a mail address"):
        set_option(db, "digest_to", "ops@example.com, carla")
    with pytest.raises(locations.LocationError, match="not a time zone"):
        locations.set_hours(db, "Bar", locations.Hours(time(1), time(2), "Mars/Olympus"))
