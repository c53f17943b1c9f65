"""A route's history, made up in PostgreSQL at once (set-based SQL,
:mod:`tests.web.fill_sql`): the one generator of the web tests (:func:`fill_route`), the
bench's year of 500 cabinets (``bench/route_history.py``) and the documentation's
screenshots (``scripts/route_screenshots.py``). The rows are those a real route of
cabinets would have left, in the wire's body shapes (:func:`fleet.wire.check_body` holds
each kind's sample), consistent with each other; a :class:`Route` says which cabinets at
which venues, and :func:`fill` makes ``days`` of their history ending at ``end``:

- ``locations``: the venues, each with opening hours in its time zone; ``cabinets`` at them.
- ``events``: per cabinet and day, games (about the cabinet's popularity: the day of the
  week, noise; an idle day now and then), each paid by one ``money`` event before it (a
  one-player game by a 1.00 coin, every fifth game two players by a 2.00 coin; ``counts``
  absolute, ``counted`` the coin), a ``health`` heartbeat an hour while the venue is open,
  and at the day's end what happened that day: faults (raised, cleared; a cabinet's
  ``fault_open`` leaves its last day's raised), a hall-of-fame entry, doctor, a settings
  report, the door (opened and closed), the audits. ``seq`` follows the cabinet's time;
  ``received_at`` is its time plus a few milliseconds.
- ``rollups``: per day and week from the events, by the day the cabinet wrote each (ingest's).
- ``presence_log``, ``presence``: online at opening, offline at closing (venues switch
  their cabinets off); a few cabinets offline for the last days (no events since);
  ``presence`` as the log says now.
- ``progress``: each cabinet's epoch, stored through its last event.
- ``collections``: about every 29 days per cabinet, the door open, the cash counted: the
  books since the last collection, a few short or over.

Deterministic: every choice is a hash of the seed and the row; nothing is later than
``end``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import psycopg
from psycopg.conninfo import make_conninfo
from psycopg.types.json import Jsonb

from tests.fleet.cabinets import cpu_game
from tests.web import fill_sql

#: Venues' opening hours (local), taken in turn.
HOURS = (("11:00", "23:00"), ("12:00", "23:30"), ("10:00", "22:00"), ("16:00", "23:30"))


@dataclass(frozen=True)
class Venue:
    """A location: its name, and its opening hours (``"HH:MM"``, local to ``timezone``;
    ``closes`` equal to ``opens``: open all day)."""

    name: str
    opens: str = "00:00"
    closes: str = "00:00"
    timezone: str = "UTC"


@dataclass(frozen=True)
class RouteCabinet:
    """A cabinet: its name, its venue (an index into :attr:`Route.venues`), the games it
    plays on an average day, and whether its last day's fault is left raised."""

    name: str
    venue: int
    popularity: int
    fault_open: bool = False


@dataclass(frozen=True)
class Route:
    """The cabinets whose history :func:`fill` makes, at their venues."""

    venues: tuple[Venue, ...]
    cabinets: tuple[RouteCabinet, ...]


def spread(n: int, span: int) -> int:
    """Cabinet ``n``'s draw from ``0 .. span - 1``, the same every time."""
    return (n * 2654435761 % 2**32) % span


def fill(
    conninfo: str,
    route: Route,
    summaries: Sequence[dict[str, Any]],
    *,
    days: int = 365,
    seed: int = 24,
    end: datetime | None = None,
    workers: int = 2,
) -> dict[str, int]:
    """Fill an empty fleet database (schema made) with ``days`` of ``route``'s history
    ending at ``end`` (default: now); ``summaries``: real games' summaries the game events
    carry. Returns the rows made, by table."""
    end = end or datetime.now(UTC)
    first = (end - timedelta(days=days - 1)).date()
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '512MB'; SET work_mem = '256MB'")
        _route_tables(conn, route, end, first)
        conn.execute(fill_sql.plan_sql(seed, days).encode(), {"first": first})
        conn.execute("ALTER TABLE events DROP CONSTRAINT events_pkey")
        conn.execute("DROP INDEX events_by_kind, events_by_received, events_by_written")
    params = {"summaries": [Jsonb(s) for s in summaries], "first": first}
    statements = (fill_sql.STREAM, fill_sql.SPECIALS)
    _parallel(
        conninfo,
        [
            [(sql, {**params, "workers": workers, "worker": w}) for sql in statements]
            for w in range(workers)
        ],
    )
    _parallel(conninfo, [[(sql, {}) for sql in lane] for lane in fill_sql.INDEXES])
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("SET work_mem = '256MB'")
        for statement in fill_sql.AFTER:
            conn.execute(statement.encode(), {"end": end})
        conn.execute("DROP TABLE fill_plan, fill_cabinets, fill_fame")
        conn.execute("VACUUM ANALYZE")
        tables = ("events", "rollups", "presence_log", "collections")
        return {t: int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in tables}  # type: ignore[index]


def _route_tables(conn: psycopg.Connection[Any], route: Route, end: datetime, first: date) -> None:
    """The route's venues and cabinets, in ``locations`` and ``cabinets`` and in the
    working tables the SQL reads (``fill_cabinets``, ``fill_fame``)."""
    conn.cursor().executemany(
        "INSERT INTO locations (id, name, opens, closes, timezone) VALUES (%s, %s, %s, %s, %s)",
        [(i, v.name, v.opens, v.closes, v.timezone) for i, v in enumerate(route.venues, 1)],
    )
    conn.execute("SELECT setval('locations_id_seq', %s)", (len(route.venues),))
    conn.execute(
        "CREATE TABLE fill_cabinets (n int, name text, location bigint, epoch text, "
        "popularity int, cutoff timestamptz, fault_open boolean)"
    )
    conn.cursor().executemany(
        "INSERT INTO fill_cabinets VALUES (%s, %s, %s, %s, %s, %s, %s)",
        [
            (n, c.name, c.venue + 1, _epoch(n), c.popularity, _cutoff(n, end), c.fault_open)
            for n, c in enumerate(route.cabinets, 1)
        ],
    )
    conn.execute(
        "INSERT INTO cabinets (name, location, added_at) SELECT b.name, l.name, %s "
        "FROM fill_cabinets b JOIN locations l ON l.id = b.location",
        (datetime.combine(first, datetime.min.time(), UTC) - timedelta(days=1),),
    )
    conn.execute("CREATE TABLE fill_fame (idx int, category text, low bigint, high bigint)")
    conn.cursor().executemany(
        "INSERT INTO fill_fame VALUES (%s, %s, %s, %s)",
        [(i, *fame) for i, fame in enumerate(fill_sql.FAME)],
    )


def _epoch(n: int) -> str:
    return f"{(n * 0x9E3779B97F4A7C15) % 2**64:016x}"


def _cutoff(n: int, end: datetime) -> datetime:
    """The end of cabinet ``n``'s history: ``end``, or a day or few before for a few
    cabinets (offline since, nothing since)."""
    if n % 31 == 5:
        return end - timedelta(days=n % 4, hours=3 + n % 5)
    return end


def _parallel(conninfo: str, lanes: list[list[tuple[str, dict[str, Any]]]]) -> None:
    """Run each lane's statements in order, the lanes at once (one connection each)."""
    errors: list[BaseException] = []

    def run(lane: list[tuple[str, dict[str, Any]]]) -> None:
        try:
            with psycopg.connect(conninfo, autocommit=True) as conn:
                conn.execute("SET maintenance_work_mem = '512MB'; SET work_mem = '128MB'")
                for statement, values in lane:
                    conn.execute(statement.encode(), values)
        except BaseException as exc:  # reported by the caller
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(lane,)) for lane in lanes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def web_route(cabinets: int, timezone: str, *, games: int = 3) -> Route:
    """The web tests' route: cabinets ``cab-0001``… at ``cabinets // 12 + 1`` venues
    ``Venue 0``… (cabinet ``i`` at ``Venue i % venues``), open by day in ``timezone`` (each
    closes before midnight, so a day's events all fall on that day); on an average day
    each plays 1 to ``games`` games; every tenth cabinet's last fault is left open."""
    count = cabinets // 12 + 1
    venues = tuple(Venue(f"Venue {k}", *HOURS[k % 4], timezone) for k in range(count))
    return Route(
        venues,
        tuple(
            RouteCabinet(f"cab-{i:04d}", i % count, 1 + spread(i, games), i % 10 == 0)
            for i in range(1, cabinets + 1)
        ),
    )


def fill_route(
    conn: psycopg.Connection[Any],
    cabinets: int = 500,
    days: int = 365,
    *,
    money: int = 3,
    games: int = 3,
) -> None:
    """Fill an empty fleet database, the one ``conn`` is connected to, with
    :func:`web_route`'s history: ``days`` days ending with today (in the database's time
    zone, whose day the route's figures count), all of today's play there however early
    the tests run (what is later than now is in the future, as though already sent). On
    an average day a cabinet plays 1 to the smaller of ``money`` and ``games`` games, each
    paid by one coin (so the two bound the same number)."""
    row = conn.execute(
        "SELECT current_setting('TimeZone'), (current_date + 1)::timestamptz - interval '1 us'"
    ).fetchone()
    conn.commit()
    assert row is not None
    timezone, end = row
    summaries = [cpu_game(seed).summary.to_json() for seed in range(1, 9)]
    conninfo = make_conninfo(conn.info.dsn, password=conn.info.password)
    route = web_route(cabinets, timezone, games=min(money, games))
    fill(conninfo, route, summaries, days=days, end=end)
