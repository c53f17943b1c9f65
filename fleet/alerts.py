"""The route's open alerts, worked out of what the fleet holds at a time given
(docs/fleet.md, "Alerts"; the thresholds are options, :mod:`fleet.options`):

- **offline**: the cabinet has been offline (its retained presence says so, or it never
  connected since it was added) for more than ``offline_hours`` counted only within its
  venue's opening hours (:mod:`fleet.locations`).
- **missing switch**: the newest ``missing_switch`` fault of a button is ``raised``.
- **coin errors**: the money events written in the last ``coin_error_hours`` counted at
  least ``coin_errors`` coin errors (``coin_errors1`` + ``coin_errors2``).
- **door open**: the coin door was opened (a ``door`` event, ``open``) in the last
  ``door_hours``, and no collection of that cabinet was entered within ``door_minutes``
  of it, before or after.
- **low earnings** (reveals money): yesterday, a whole day of the venue's calendar, the
  cabinet earned less than ``low_earnings_fraction`` of its mean on the same weekday of
  the ``low_earnings_weeks`` weeks before. Only when the cabinet was in the fleet all of
  those days, the mean is at least ``low_earnings_min_cents``, and yesterday's data is
  whole (:mod:`fleet.collections`' rule: an acknowledged event written and received
  after it); earnings are placed by when the cabinet wrote them, as the books and the
  rollups are (by arrival, a cabinet offline for a day would make a false alarm), per
  calendar day of the venue's time zone.

- **rollout halted**: the newest rollout of a release was halted by a cabinet that rolled
  back or refused it (docs/releases.md, "Rollouts"); open until another rollout starts.

Everything is deterministic in ``now``: no clock is read here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

import psycopg

from fleet.collections import books_between, proven_after
from fleet.locations import ALL_DAY, Hours, hours, local_day, open_time, zone
from fleet.options import options as options
from fleet.options import set_option as set_option


class AlertKind(StrEnum):
    OFFLINE = "offline"
    MISSING_SWITCH = "missing_switch"
    COIN_ERRORS = "coin_errors"
    DOOR_OPEN = "door_open"
    LOW_EARNINGS = "low_earnings"
    ROLLOUT_HALTED = "rollout_halted"


@dataclass(frozen=True)
class Alert:
    kind: AlertKind
    cabinet: str
    location: str
    since: datetime
    detail: str
    money: bool
    """It reveals money (earnings): for owners and collectors, not technicians."""


def _hours_text(span: timedelta) -> str:
    return f"{span.total_seconds() / 3600:.1f} h"


def _cents(cents: float) -> str:
    return f"{cents / 100:.2f}"


def _offline(
    conn: psycopg.Connection[Any], now: datetime, opt: dict[str, Any], where: dict[str, Hours]
) -> list[Alert]:
    rows = conn.execute(
        "SELECT c.name, c.location, coalesce(p.at, c.added_at) FROM cabinets c "
        "LEFT JOIN presence p ON p.cabinet = c.name "
        "WHERE c.revoked_at IS NULL AND (p.state IS NULL OR p.state <> 'online') "
        "AND coalesce(p.at, c.added_at) <= %s",
        (now,),
    ).fetchall()
    found = []
    for name, location, since in rows:
        span = open_time(where.get(location, ALL_DAY), since, now)
        if span > timedelta(hours=opt["offline_hours"]):
            detail = f"{_hours_text(span)} offline within opening hours"
            found.append(Alert(AlertKind.OFFLINE, name, location, since, detail, False))
    return found


def _missing_switches(conn: psycopg.Connection[Any], now: datetime) -> list[Alert]:
    rows = conn.execute(
        "SELECT DISTINCT ON (e.cabinet, e.body ->> 'button') e.cabinet, c.location, "
        "e.body ->> 'button', e.body ->> 'state', e.written_at, e.body -> 'games' "
        "FROM events e JOIN cabinets c ON c.name = e.cabinet AND c.revoked_at IS NULL "
        "WHERE e.kind = 'fault' AND e.body ->> 'fault' = 'missing_switch' "
        "AND e.written_at <= %s "
        "ORDER BY e.cabinet, e.body ->> 'button', e.written_at DESC, e.seq DESC",
        (now,),
    ).fetchall()
    return [
        Alert(
            AlertKind.MISSING_SWITCH,
            name,
            location,
            at,
            f"{button}: not pressed in {games} games while the buttons beside it were",
            False,
        )
        for name, location, button, state, at, games in rows
        if state == "raised"
    ]


def _coin_errors(conn: psycopg.Connection[Any], now: datetime, opt: dict[str, Any]) -> list[Alert]:
    window = timedelta(hours=opt["coin_error_hours"])
    rows = conn.execute(
        "SELECT e.cabinet, c.location, min(e.written_at), "
        "sum(coalesce((e.body -> 'counted' ->> 'coin_errors1')::bigint, 0)), "
        "sum(coalesce((e.body -> 'counted' ->> 'coin_errors2')::bigint, 0)) "
        "FROM events e JOIN cabinets c ON c.name = e.cabinet AND c.revoked_at IS NULL "
        "WHERE e.kind = 'money' AND e.written_at > %s AND e.written_at <= %s "
        "AND (e.body -> 'counted' ? 'coin_errors1' OR e.body -> 'counted' ? 'coin_errors2') "
        "GROUP BY e.cabinet, c.location",
        (now - window, now),
    ).fetchall()
    found = []
    for name, location, since, one, two in rows:
        if one + two >= opt["coin_errors"]:
            detail = (
                f"{one + two} coin errors in the last {opt['coin_error_hours']:g} h "
                f"(line 1: {one}, line 2: {two})"
            )
            found.append(Alert(AlertKind.COIN_ERRORS, name, location, since, detail, False))
    return found


def _doors(conn: psycopg.Connection[Any], now: datetime, opt: dict[str, Any]) -> list[Alert]:
    near = timedelta(minutes=opt["door_minutes"])
    rows = conn.execute(
        "SELECT e.cabinet, c.location, min(e.written_at), max(e.written_at), count(*) "
        "FROM events e JOIN cabinets c ON c.name = e.cabinet AND c.revoked_at IS NULL "
        "WHERE e.kind = 'door' AND e.body ->> 'state' = 'open' "
        "AND e.written_at > %(since)s AND e.written_at <= %(now)s "
        "AND NOT EXISTS (SELECT 1 FROM collections k WHERE k.cabinet = e.cabinet "
        "    AND k.at BETWEEN e.written_at - %(near)s AND e.written_at + %(near)s) "
        "GROUP BY e.cabinet, c.location",
        {"since": now - timedelta(hours=opt["door_hours"]), "now": now, "near": near},
    ).fetchall()
    return [
        Alert(
            AlertKind.DOOR_OPEN,
            name,
            location,
            first,
            f"coin door opened {count} time(s) with no collection entered, "
            f"last at {last:%Y-%m-%d %H:%M} UTC",
            False,
        )
        for name, location, first, last, count in rows
    ]


def _low_earnings(
    conn: psycopg.Connection[Any], now: datetime, opt: dict[str, Any], where: dict[str, Hours]
) -> list[Alert]:
    weeks = int(opt["low_earnings_weeks"])
    rows = conn.execute(
        "SELECT name, location, added_at FROM cabinets WHERE revoked_at IS NULL ORDER BY name"
    ).fetchall()
    found = []
    for name, location, added_at in rows:
        venue = where.get(location, ALL_DAY)
        yesterday = now.astimezone(zone(venue.timezone)).date() - timedelta(days=1)
        start, end = local_day(venue, yesterday)
        first, _ = local_day(venue, yesterday - timedelta(days=7 * weeks))
        if added_at > first or not proven_after(conn, name, end):
            continue
        earned = books_between(conn, name, start, end)
        before = [
            books_between(conn, name, *local_day(venue, yesterday - timedelta(days=7 * k)))
            for k in range(1, weeks + 1)
        ]
        mean = sum(before) / weeks
        if mean >= opt["low_earnings_min_cents"] and earned < opt["low_earnings_fraction"] * mean:
            detail = (
                f"{yesterday:%A %Y-%m-%d} earned {_cents(earned)}; the {weeks} "
                f"{yesterday:%A}s before, {_cents(mean)} on average"
            )
            found.append(Alert(AlertKind.LOW_EARNINGS, name, location, start, detail, True))
    return found


def _rollout_halted(conn: psycopg.Connection[Any]) -> list[Alert]:
    row = conn.execute(
        "SELECT r.id, r.release, r.reason, r.ended_at, m.cabinet, c.location "
        "FROM rollouts r JOIN rollout_cabinets m ON m.rollout = r.id "
        "JOIN cabinets c ON c.name = m.cabinet "
        "WHERE r.id = (SELECT max(id) FROM rollouts) AND r.state = 'halted' "
        "AND m.state IN ('rolled_back', 'refused') ORDER BY m.changed_at LIMIT 1"
    ).fetchone()
    if row is None:
        return []
    rollout, release, reason, ended, cabinet, location = row
    detail = f"rollout {rollout} of {release} halted: {reason}"
    return [Alert(AlertKind.ROLLOUT_HALTED, cabinet, location, ended, detail, money=False)]


def open_alerts(conn: psycopg.Connection[Any], now: datetime) -> list[Alert]:
    """Every open alert at ``now``, by location, cabinet and kind."""
    opt = options(conn)
    where = hours(conn)
    found = [
        *_offline(conn, now, opt, where),
        *_missing_switches(conn, now),
        *_coin_errors(conn, now, opt),
        *_doors(conn, now, opt),
        *_low_earnings(conn, now, opt, where),
        *_rollout_halted(conn),
    ]
    conn.commit()
    order = list(AlertKind)
    return sorted(found, key=lambda a: (a.location, a.cabinet, order.index(a.kind), a.detail))
