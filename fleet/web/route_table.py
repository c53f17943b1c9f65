"""The route page's table: every cabinet, in a few set-based queries (no query per
cabinet), whatever the length of its history.

- today's and this week's games and earnings: the ``rollups`` of today and this week;
- earnings since the last collection: the money events of the collection's own day after
  it (``events_by_written``, a range on ``(cabinet, 'money', written_at)``), and the day
  rollups of every later day (days by when the cabinet wrote each event, as the books
  of :mod:`fleet.collections` count), so a cabinet collected long ago adds a row a day,
  not an event a coin (a cabinet never collected: every day since it was added);
- online, version, last seen: ``presence``, and each cabinet's newest event
  (``events_by_received``);
- open faults: each fault's newest event (raised, not since cleared), and what the cabinet
  said in its presence it could not queue.

Days are the database's, as ingest's rollups count them. Money is left out of the queries
altogether for an account that may not see it.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import psycopg

#: The columns the table can be sorted by, and those that are money.
COLUMNS = (
    "cabinet",
    "location",
    "state",
    "last_seen",
    "version",
    "earnings_today",
    "earnings_week",
    "earnings_since",
    "games_today",
    "games_week",
    "faults",
)
MONEY_COLUMNS = frozenset({"earnings_today", "earnings_week", "earnings_since"})


@dataclass(frozen=True, slots=True)
class RouteRow:
    cabinet: str
    location: str
    state: str
    """``online``, ``offline``, or ``never`` (no presence yet)."""
    last_seen: datetime.datetime | None
    version: str
    games_today: int
    games_week: int
    faults: tuple[str, ...]
    earnings_today: int | None = None
    """Cents; ``None`` for an account that sees no money (as the two below)."""
    earnings_week: int | None = None
    earnings_since: int | None = None
    collected_at: datetime.datetime | None = None


_CABINETS = """
WITH cab AS (
    SELECT name, location, added_at FROM cabinets
    WHERE revoked_at IS NULL AND (%(location)s::text IS NULL OR location = %(location)s)
), seen AS (
    SELECT cab.name, last.received_at FROM cab
    LEFT JOIN LATERAL (
        SELECT received_at FROM events e WHERE e.cabinet = cab.name
        ORDER BY received_at DESC LIMIT 1
    ) last ON true
), faults AS (
    SELECT cabinet, array_agg(fault ORDER BY fault) AS open FROM (
        SELECT DISTINCT ON (e.cabinet, e.body ->> 'fault')
               e.cabinet, e.body ->> 'fault' AS fault, e.body ->> 'state' AS state
        FROM events e JOIN cab ON e.cabinet = cab.name
        WHERE e.kind = 'fault'
        ORDER BY e.cabinet, e.body ->> 'fault', e.received_at DESC, e.seq DESC
    ) newest WHERE state = 'raised' GROUP BY cabinet
)
SELECT cab.name, cab.location, coalesce(p.state, 'never'),
       greatest(p.at, seen.received_at), coalesce(p.version, ''),
       coalesce(rd.games, 0), coalesce(rw.games, 0),
       coalesce(faults.open, '{}') || coalesce(p.faults, '{}'),
       coalesce(rd.earnings_cents, 0), coalesce(rw.earnings_cents, 0)
FROM cab
LEFT JOIN presence p ON p.cabinet = cab.name
LEFT JOIN seen ON seen.name = cab.name
LEFT JOIN rollups rd
  ON rd.cabinet = cab.name AND rd.period = 'day' AND rd.start = current_date
LEFT JOIN rollups rw
  ON rw.cabinet = cab.name AND rw.period = 'week'
 AND rw.start = date_trunc('week', now())::date
LEFT JOIN faults ON faults.cabinet = cab.name
ORDER BY cab.name
"""

_SINCE_COLLECTION = """
WITH cab AS (
    SELECT name FROM cabinets
    WHERE revoked_at IS NULL AND (%(location)s::text IS NULL OR location = %(location)s)
), since AS (
    SELECT cab.name, last.at FROM cab
    LEFT JOIN LATERAL (
        SELECT at FROM collections c WHERE c.cabinet = cab.name ORDER BY at DESC LIMIT 1
    ) last ON true
), first_day AS (
    SELECT s.name, sum((e.body -> 'counted' ->> 'earnings_cents')::bigint) AS cents
    FROM since s JOIN events e
      ON e.cabinet = s.name AND e.kind = 'money'
     AND e.written_at > s.at AND e.written_at < (s.at::date + 1)::timestamptz
    GROUP BY s.name
)
SELECT s.name, s.at, coalesce(f.cents, 0) + coalesce(l.cents, 0)
FROM since s
LEFT JOIN first_day f ON f.name = s.name
LEFT JOIN LATERAL (
    SELECT sum(r.earnings_cents) AS cents FROM rollups r
    WHERE r.cabinet = s.name AND r.period = 'day'
      AND r.start > coalesce(s.at::date, '-infinity'::date)
) l ON true
"""


def route_rows(
    conn: psycopg.Connection[Any], *, location: str | None, money: bool
) -> list[RouteRow]:
    """Every cabinet still in the fleet (at ``location`` only, if given), by name."""
    params = {"location": location}
    rows = conn.execute(_CABINETS, params).fetchall()
    since: Mapping[str, tuple[datetime.datetime | None, int]] = {}
    if money:
        since = {
            name: (at, int(cents))
            for name, at, cents in conn.execute(_SINCE_COLLECTION, params).fetchall()
        }
    out = []
    for name, loc, state, seen, version, g_day, g_week, faults, e_day, e_week in rows:
        collected_at, e_since = since.get(name, (None, 0))
        out.append(
            RouteRow(
                cabinet=name,
                location=loc,
                state=state,
                last_seen=seen,
                version=version,
                games_today=int(g_day),
                games_week=int(g_week),
                faults=tuple(dict.fromkeys(faults)),
                earnings_today=int(e_day) if money else None,
                earnings_week=int(e_week) if money else None,
                earnings_since=e_since if money else None,
                collected_at=collected_at if money else None,
            )
        )
    return out


def locations(conn: psycopg.Connection[Any]) -> list[str]:
    """The locations of the cabinets in the fleet, for the filter."""
    rows = conn.execute(
        "SELECT DISTINCT location FROM cabinets WHERE revoked_at IS NULL ORDER BY location"
    )
    return [str(r[0]) for r in rows]


_FAR_PAST = datetime.datetime.min.replace(tzinfo=datetime.UTC)


def sort_key(column: str) -> Any:
    """The key that sorts rows by ``column`` (a name from :data:`COLUMNS`).

    >>> rows = [RouteRow("b", "X", "online", None, "1", 3, 5, ()),
    ...         RouteRow("a", "Y", "offline", None, "2", 1, 9, ("tilt",))]
    >>> [r.cabinet for r in sorted(rows, key=sort_key("games_today"))]
    ['a', 'b']
    >>> [r.cabinet for r in sorted(rows, key=sort_key("faults"))]
    ['b', 'a']
    """
    if column == "faults":
        return lambda r: (len(r.faults), r.cabinet)
    if column == "last_seen":
        return lambda r: (r.last_seen or _FAR_PAST, r.cabinet)
    if column in MONEY_COLUMNS:
        return lambda r: (getattr(r, column) or 0, r.cabinet)
    return lambda r: (getattr(r, column), r.cabinet)
