"""The route's locations (venues): their opening hours and time zone, and how much of a
stretch of time fell within those hours (the offline alert counts only that).

Opening hours are one daily interval in the venue's own time zone: ``opens`` to
``closes``; ``closes`` before ``opens`` runs past midnight (a bar open 18:00 to 02:00);
``opens`` equal to ``closes`` is open all day (the default).

>>> bar = Hours(time(18), time(2), "Europe/Rome")
>>> open_time(bar, datetime(2026, 12, 1, 16, tzinfo=UTC), datetime(2026, 12, 2, 3, tzinfo=UTC))
datetime.timedelta(seconds=28800)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import psycopg

from fleet import store


class LocationError(ValueError):
    """Opening hours or a time zone the fleet cannot use."""


@dataclass(frozen=True, slots=True)
class Hours:
    opens: time
    closes: time
    timezone: str


ALL_DAY = Hours(time(0), time(0), "UTC")


@functools.cache
def zone(name: str) -> ZoneInfo:
    """The time zone ``name`` (``Europe/Rome``), else :class:`LocationError`."""
    if name not in available_timezones():
        raise LocationError(f"{name[:60]!r} is not a time zone (such as Europe/Rome)")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise LocationError(f"{name[:60]!r} is not a time zone (such as Europe/Rome)") from None


def parse_time(text: str) -> time:
    """``HH:MM`` as a time of day, else :class:`LocationError`."""
    try:
        hours, minutes = text.split(":")
        if len(hours) != 2 or len(minutes) != 2:
            raise ValueError
        return time(int(hours), int(minutes))
    except ValueError:
        raise LocationError(
            f"{text[:20]!r} is not a time of day as HH:MM (00:00 to 23:59)"
        ) from None


def set_hours(conn: psycopg.Connection[Any], name: str, hours: Hours) -> None:
    """Set location ``name``'s opening hours and time zone (adding the location if the
    fleet does not know it yet)."""
    zone(hours.timezone)
    if not name.strip() or len(name) > 200:
        raise LocationError("a location's name is one to 200 characters")
    with conn.transaction():
        store.ensure_location(conn, name)
        conn.execute(
            "UPDATE locations SET opens = %s, closes = %s, timezone = %s WHERE name = %s",
            (hours.opens, hours.closes, hours.timezone, name),
        )
    conn.commit()


def hours(conn: psycopg.Connection[Any]) -> dict[str, Hours]:
    """Every location's opening hours, by name."""
    rows = conn.execute("SELECT name, opens, closes, timezone FROM locations").fetchall()
    conn.commit()
    return {str(n): Hours(o, c, str(tz)) for n, o, c, tz in rows}


def _opening(hours: Hours, day: date) -> tuple[datetime, datetime]:
    """The opening that starts on local ``day``, in UTC (an aware datetime's arithmetic
    ignores a shared time zone's changes of offset: UTC has none)."""
    tz = zone(hours.timezone)
    if hours.opens == hours.closes:
        return local_day(hours, day)
    end_day = day if hours.closes > hours.opens else day + timedelta(days=1)
    start = datetime.combine(day, hours.opens, tz)
    return start.astimezone(UTC), datetime.combine(end_day, hours.closes, tz).astimezone(UTC)


def open_time(hours: Hours, since: datetime, until: datetime) -> timedelta:
    """How much of ``since``..``until`` the location was open."""
    if until <= since:
        return timedelta(0)
    tz = zone(hours.timezone)
    day = since.astimezone(tz).date() - timedelta(days=1)
    last = until.astimezone(tz).date()
    total = timedelta(0)
    while day <= last:
        start, end = _opening(hours, day)
        overlap = min(end, until.astimezone(UTC)) - max(start, since.astimezone(UTC))
        if overlap > timedelta(0):
            total += overlap
        day += timedelta(days=1)
    return total


def local_day(hours: Hours, day: date) -> tuple[datetime, datetime]:
    """Local calendar day ``day`` of the location, as its start and end in UTC."""
    tz = zone(hours.timezone)
    return (
        datetime.combine(day, time(0), tz).astimezone(UTC),
        datetime.combine(day + timedelta(days=1), time(0), tz).astimezone(UTC),
    )
