"""One cabinet's page's data: bounded queries (a span of days, a LIMIT on each list), so
its time does not grow with the length of its history."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

import psycopg

from fleet.web import fmt
from fleet.wire_down import CHAMPION_CATEGORIES

SPANS = (30, 90, 365)
"""The spans of days the page offers (90 unless asked)."""
LIST_LIMIT = 10
HEALTH_LIMIT = 2000
FAULT_LIMIT = 30
FAME_LIMIT = 500


@dataclass(frozen=True, slots=True)
class Cabinet:
    name: str
    location: str
    added_at: datetime.datetime
    revoked_at: datetime.datetime | None
    state: str
    version: str
    presence_at: datetime.datetime | None
    queue_faults: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Game:
    at: datetime.datetime
    game: int
    seats: str
    result: str
    closest_margin_ns: int | None
    closest_winner: int | None


@dataclass(frozen=True, slots=True)
class Fault:
    at: datetime.datetime
    fault: str
    state: str


@dataclass(frozen=True, slots=True)
class FameEntry:
    category: str
    initials: str
    figure: int
    date: str

    @property
    def shown(self) -> str:
        """The figure in its category's unit."""
        return fmt.figure(self.category, self.figure)


@dataclass
class Series:
    """Columns for a chart: times (seconds since the epoch) and one list per series."""

    t: list[int] = field(default_factory=list)
    values: dict[str, list[float | None]] = field(default_factory=dict)

    def add(self, at: datetime.datetime | datetime.date, **values: float | None) -> None:
        if isinstance(at, datetime.datetime):
            seconds = int(at.timestamp())
        else:
            seconds = int(
                datetime.datetime(at.year, at.month, at.day, tzinfo=datetime.UTC).timestamp()
            )
        self.t.append(seconds)
        for key, value in values.items():
            self.values.setdefault(key, []).append(value)

    def to_json(self) -> dict[str, list[Any]]:
        return {"t": self.t, **self.values}


def cabinet(conn: psycopg.Connection[Any], name: str) -> Cabinet | None:
    row = conn.execute(
        "SELECT c.name, c.location, c.added_at, c.revoked_at, coalesce(p.state, 'never'), "
        "coalesce(p.version, ''), p.at, coalesce(p.faults, '{}') "
        "FROM cabinets c LEFT JOIN presence p ON p.cabinet = c.name WHERE c.name = %s",
        (name,),
    ).fetchone()
    if row is None:
        return None
    name, location, added_at, revoked_at, state, version, at, faults = row
    return Cabinet(name, location, added_at, revoked_at, state, version, at, tuple(faults))


def daily(conn: psycopg.Connection[Any], name: str, days: int, *, money: bool) -> Series:
    """Games (and earnings, in cents) a day for the last ``days`` days, every day there."""
    rows = conn.execute(
        "SELECT start, games, earnings_cents FROM rollups WHERE cabinet = %s "
        "AND period = 'day' AND start > current_date - %s::int ORDER BY start",
        (name, days),
    ).fetchall()
    today = conn.execute("SELECT current_date").fetchone()
    assert today is not None
    by_day = {start: (games, cents) for start, games, cents in rows}
    series = Series()
    for back in range(days - 1, -1, -1):
        day = today[0] - datetime.timedelta(days=back)
        games, cents = by_day.get(day, (0, 0))
        if money:
            series.add(day, games=games, earnings=cents / 100)
        else:
            series.add(day, games=games)
    return series


def health(conn: psycopg.Connection[Any], name: str, days: int) -> Series:
    """The health reports of the last ``days`` days, oldest first (at most
    :data:`HEALTH_LIMIT`, the newest)."""
    rows = conn.execute(
        "SELECT received_at, body -> 'table_restarts', body -> 'rollbacks', "
        "body -> 'led_link_drops' FROM events WHERE cabinet = %s AND kind = 'health' "
        "AND received_at > now() - make_interval(days => %s) "
        "ORDER BY received_at DESC LIMIT %s",
        (name, days, HEALTH_LIMIT),
    ).fetchall()
    series = Series()
    for at, restarts, rollbacks, drops in reversed(rows):
        series.add(
            at,
            table_restarts=_number(restarts),
            rollbacks=_number(rollbacks),
            led_link_drops=_number(drops),
        )
    return series


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def online(conn: psycopg.Connection[Any], name: str, days: int) -> Series:
    """Online (1) and offline (0) over the last ``days`` days, from the presence log: the
    state at the span's start, then each change."""
    since = conn.execute("SELECT now() - make_interval(days => %s)", (days,)).fetchone()
    assert since is not None
    before = conn.execute(
        "SELECT state FROM presence_log WHERE cabinet = %s AND at <= %s ORDER BY at DESC LIMIT 1",
        (name, since[0]),
    ).fetchone()
    rows = conn.execute(
        "SELECT state, at FROM presence_log WHERE cabinet = %s AND at > %s "
        "ORDER BY at DESC LIMIT %s",
        (name, since[0], HEALTH_LIMIT),
    ).fetchall()
    series = Series()
    if before is not None:
        series.add(since[0], online=float(before[0] == "online"))
    for state, at in reversed(rows):
        series.add(at, online=float(state == "online"))
    return series


def presence_changes(
    conn: psycopg.Connection[Any], name: str
) -> list[tuple[str, datetime.datetime]]:
    return [
        (str(state), at)
        for state, at in conn.execute(
            "SELECT state, at FROM presence_log WHERE cabinet = %s ORDER BY at DESC LIMIT %s",
            (name, LIST_LIMIT),
        )
    ]


def latest_audits(
    conn: psycopg.Connection[Any], name: str, *, money: bool
) -> tuple[datetime.datetime | None, list[tuple[str, int, int]]]:
    """The newest audits report: each counter's current and lifetime value (the money
    ones only for an account that sees money)."""
    row = conn.execute(
        "SELECT received_at, body -> 'counters' FROM events WHERE cabinet = %s "
        "AND kind = 'audits' ORDER BY received_at DESC LIMIT 1",
        (name,),
    ).fetchone()
    if row is None or not isinstance(row[1], dict):
        return None, []
    counters = [
        (str(key), int(pair[0]), int(pair[1]))
        for key, pair in sorted(row[1].items())
        if money or not str(key).startswith("money.")
    ]
    return row[0], counters


def money_counts(
    conn: psycopg.Connection[Any], name: str
) -> list[tuple[datetime.datetime, int, int, int]]:
    """The newest money events: when, earnings (cents), coins in mechanism 1 and 2."""
    rows = conn.execute(
        "SELECT received_at, body -> 'counted' FROM events WHERE cabinet = %s "
        "AND kind = 'money' ORDER BY received_at DESC, seq DESC LIMIT %s",
        (name, LIST_LIMIT),
    ).fetchall()
    out = []
    for at, counted in rows:
        c = counted if isinstance(counted, dict) else {}
        out.append(
            (at, int(c.get("earnings_cents", 0)), int(c.get("coins1", 0)), int(c.get("coins2", 0)))
        )
    return out


def faults(conn: psycopg.Connection[Any], name: str) -> tuple[list[Fault], list[Fault]]:
    """The open faults (raised, not cleared since), and the newest fault events."""
    open_rows = conn.execute(
        "SELECT at, fault, state FROM ("
        " SELECT DISTINCT ON (body ->> 'fault') received_at AS at, body ->> 'fault' AS fault,"
        " body ->> 'state' AS state FROM events WHERE cabinet = %s AND kind = 'fault'"
        " ORDER BY body ->> 'fault', received_at DESC, seq DESC"
        ") newest WHERE state = 'raised' ORDER BY at DESC",
        (name,),
    ).fetchall()
    recent = conn.execute(
        "SELECT received_at, body ->> 'fault', body ->> 'state' FROM events "
        "WHERE cabinet = %s AND kind = 'fault' ORDER BY received_at DESC, seq DESC LIMIT %s",
        (name, FAULT_LIMIT),
    ).fetchall()
    return [Fault(*r) for r in open_rows], [Fault(*r) for r in recent]


def last_games(conn: psycopg.Connection[Any], name: str) -> list[Game]:
    """The newest games, each with its closest race."""
    rows = conn.execute(
        "SELECT received_at, body -> 'game', body -> 'seats', body -> 'summary' FROM events "
        "WHERE cabinet = %s AND kind = 'game' ORDER BY received_at DESC, seq DESC LIMIT %s",
        (name, LIST_LIMIT),
    ).fetchall()
    games = []
    for at, game, seats, summary in rows:
        s = summary if isinstance(summary, dict) else {}
        race = s.get("closest_race") if isinstance(s.get("closest_race"), dict) else None
        winner = s.get("winner")
        if s.get("draw"):
            result = "draw"
        elif isinstance(winner, int):
            result = f"player {winner + 1} won"
        else:
            result = str(s.get("termination") or "unfinished")
        games.append(
            Game(
                at,
                int(game) if isinstance(game, int) else 0,
                " v ".join(str(x) for x in seats) if isinstance(seats, list) else "",
                result,
                race.get("margin_ns") if race else None,
                race.get("winner") if race else None,
            )
        )
    return games


def hall_of_fame(conn: psycopg.Connection[Any], name: str) -> dict[str, list[FameEntry]]:
    """The hall of fame as the cabinet's fame events leave it (entries since their
    category, or all, was last cleared), by category."""
    rows = conn.execute(
        "SELECT body FROM events WHERE cabinet = %s AND kind = 'fame' "
        "ORDER BY received_at DESC, seq DESC LIMIT %s",
        (name, FAME_LIMIT),
    ).fetchall()
    board: dict[str, dict[int, FameEntry]] = {}
    for (body,) in reversed(rows):
        if not isinstance(body, dict):
            continue
        if "cleared" in body:
            if body["cleared"] == "all":
                board.clear()
            else:
                board.pop(str(body["cleared"]), None)
            continue
        category = str(body.get("category", ""))
        board.setdefault(category, {})[int(body.get("entry", 0))] = FameEntry(
            category,
            str(body.get("initials", "")),
            int(body.get("figure", 0)),
            str(body.get("date", "")),
        )
    order = list(CHAMPION_CATEGORIES)
    return {
        fmt.category(cat): sorted(
            entries.values(),
            key=lambda e: (e.figure if CHAMPION_CATEGORIES.get(cat, True) else -e.figure, e.date),
        )
        for cat, entries in sorted(
            board.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else 99, kv[0])
        )
    }
