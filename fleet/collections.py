"""Collections: the cash a collector counted at a cabinet, set against the cabinet's books
for the same period (docs/fleet.md, "Collections").

A collection closes a *period*: from the cabinet's collection before it (exclusive; the
cabinet's first period has no start) to the collection's own time (inclusive). The
*books* of a period are the ``earnings_cents`` its money events counted, each placed by
when the cabinet wrote it (``events.written_at``: its own clock when that was
synchronised, else when the fleet received it), never by when it arrived: a coin taken
while the venue's internet was down belongs to the period it was taken in, however late
it comes.

**Estimated.** The books of a period ending at ``T`` are *estimated* (the cabinet may
still hold some of its events) until the fleet holds an event of the cabinet that was
both written and received after ``T`` and lies within the cabinet's acknowledged prefix
(``seq`` at most ``progress.through`` of its epoch). The cabinet sends its outbox in
order and writes a ``health`` heartbeat at every connection and every 5 minutes, so such
an event proves every event written before it, every coin up to ``T`` included, is
stored. The period still open (until now) is estimated while the cabinet is offline, or
when the fleet holds no acknowledged event of it written in the last
:data:`OPEN_GRACE` (two heartbeats). Nothing is stored of this: it is worked out at each
read, so an estimated collection settles by itself once the cabinet has caught up.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg

OPEN_GRACE = timedelta(minutes=10)
"""The open period is whole while the cabinet is online and has an acknowledged event
written this recently (it writes a heartbeat every 5 minutes)."""


class CollectionError(ValueError):
    """A collection the fleet will not record (the message says why)."""


@dataclass(frozen=True)
class Reconciliation:
    """One period of one cabinet: its books against what was counted (``counted_cents``
    ``None``: the open period, not collected yet)."""

    collection: int | None
    cabinet: str
    since: datetime | None
    until: datetime
    books_cents: int
    counted_cents: int | None
    difference_cents: int | None
    """Counted less the books: below zero, cash is missing."""
    estimated: bool
    offline_since: datetime | None
    """When the cabinet went offline, if it is offline now and the period is estimated."""
    entered_by: str
    note: str


# Ranges are written as ``coalesce(bound, ±infinity)``, never ``bound IS NULL OR ...``:
# a prepared statement's generic plan can use the index for the former only.
_BOOKS = """
SELECT coalesce(sum((body -> 'counted' ->> 'earnings_cents')::bigint), 0)
FROM events
WHERE cabinet = %(cabinet)s AND kind = 'money'
  AND written_at > coalesce(%(since)s::timestamptz, '-infinity') AND written_at <= %(until)s
"""

# The acknowledged point as a subquery, not a join: joined, the planner walked the
# primary key up to it (every event of the cabinet's epoch, 40 ms on a year) instead of
# the few received after ``after`` (``events_by_received``: 0.4 ms).
_PROVEN = """
SELECT EXISTS (
    SELECT 1 FROM events e
    WHERE e.cabinet = %(cabinet)s AND e.received_at > %(after)s AND e.written_at > %(after)s
      AND e.seq <= (SELECT p.through FROM progress p
                    WHERE p.cabinet = e.cabinet AND p.epoch = e.epoch)
)
"""

_OFFLINE = """
SELECT state, at FROM presence WHERE cabinet = %s
"""


def books_between(
    conn: psycopg.Connection[Any], cabinet: str, since: datetime | None, until: datetime
) -> int:
    """The earnings ``cabinet``'s money events counted, written after ``since`` (``None``:
    from the first) and up to ``until``."""
    row = conn.execute(_BOOKS, {"cabinet": cabinet, "since": since, "until": until}).fetchone()
    return int(row[0]) if row is not None else 0


def proven_after(conn: psycopg.Connection[Any], cabinet: str, after: datetime) -> bool:
    """Whether the fleet holds every event ``cabinet`` wrote up to ``after`` (an
    acknowledged event written and received after it: the module's rule)."""
    row = conn.execute(_PROVEN, {"cabinet": cabinet, "after": after}).fetchone()
    return bool(row and row[0])


def _offline_since(conn: psycopg.Connection[Any], cabinet: str) -> tuple[bool, datetime | None]:
    """Whether ``cabinet`` is offline now (or never said it was online), and since when."""
    row = conn.execute(_OFFLINE, (cabinet,)).fetchone()
    if row is None:
        return True, None
    return row[0] != "online", (row[1] if row[0] != "online" else None)


def _last(conn: psycopg.Connection[Any], cabinet: str, before: datetime | None) -> Any:
    return conn.execute(
        "SELECT id, at FROM collections WHERE cabinet = %(cabinet)s "
        "AND at <= coalesce(%(before)s::timestamptz, 'infinity') "
        "ORDER BY at DESC, id DESC LIMIT 1",
        {"cabinet": cabinet, "before": before},
    ).fetchone()


def open_period(conn: psycopg.Connection[Any], cabinet: str, now: datetime) -> Reconciliation:
    """``cabinet``'s books since its last collection, until ``now`` (nothing counted)."""
    last = _last(conn, cabinet, now)
    since = None if last is None else last[1]
    books = books_between(conn, cabinet, since, now)
    offline, offline_at = _offline_since(conn, cabinet)
    estimated = offline or not proven_after(conn, cabinet, now - OPEN_GRACE)
    conn.commit()
    return Reconciliation(
        None,
        cabinet,
        since,
        now,
        books,
        None,
        None,
        estimated,
        offline_at if estimated else None,
        "",
        "",
    )


def record(
    conn: psycopg.Connection[Any],
    cabinet: str,
    counted_cents: int,
    entered_by: str,
    note: str,
    at: datetime,
) -> int:
    """Record a collection of ``counted_cents`` at ``cabinet`` at ``at``; returns its id."""
    if type(counted_cents) is not int or not 0 <= counted_cents < 2**62:
        raise CollectionError("the amount counted is not a whole number of cents from 0")
    if not entered_by.strip():
        raise CollectionError("a collection says who entered it")
    if at.tzinfo is None:
        raise CollectionError("a collection's time has no time zone")
    if len(note) > 2000:
        raise CollectionError("the note is longer than 2000 characters")
    with conn.transaction():
        known = conn.execute("SELECT 1 FROM cabinets WHERE name = %s", (cabinet,)).fetchone()
        if known is None:
            raise CollectionError(f"no cabinet {cabinet[:40]!r} in this fleet")
        row = conn.execute(
            "INSERT INTO collections (cabinet, at, counted_cents, entered_by, note) "
            "VALUES (%s, %s, %s, %s, %s) RETURNING id",
            (cabinet, at, counted_cents, entered_by, note),
        ).fetchone()
    conn.commit()
    assert row is not None
    return int(row[0])


_HISTORY = """
SELECT id, cabinet, since, at, counted_cents, entered_by, note FROM (
    SELECT id, cabinet, at, counted_cents, entered_by, note,
           lag(at) OVER (PARTITION BY cabinet ORDER BY at, id) AS since
    FROM collections
    WHERE %(cabinet)s::text IS NULL OR cabinet = %(cabinet)s
) c
ORDER BY at DESC, id DESC
LIMIT %(limit)s
"""


def history(
    conn: psycopg.Connection[Any], cabinet: str | None, limit: int = 100
) -> list[Reconciliation]:
    """The collections of ``cabinet`` (``None``: every cabinet), newest first, each set
    against the books of its period."""
    rows = conn.execute(_HISTORY, {"cabinet": cabinet, "limit": limit}).fetchall()
    result = []
    offline: dict[str, tuple[bool, datetime | None]] = {}
    for id_, name, since, until, counted, entered_by, note in rows:
        books = books_between(conn, name, since, until)
        estimated = not proven_after(conn, name, until)
        if name not in offline:
            offline[name] = _offline_since(conn, name)
        result.append(
            Reconciliation(
                int(id_),
                str(name),
                since,
                until,
                books,
                int(counted),
                int(counted) - books,
                estimated,
                offline[name][1] if estimated else None,
                str(entered_by),
                str(note),
            )
        )
    conn.commit()
    return result


CSV_COLUMNS = (
    "collection",
    "cabinet",
    "location",
    "since",
    "until",
    "books",
    "counted",
    "difference",
    "estimated",
    "entered_by",
    "note",
)
"""The bookkeeper's export: amounts in the currency's units (two decimals), times in
ISO 8601 UTC, ``estimated`` yes or no."""


def _amount(cents: int | None) -> str:
    if cents is None:
        return ""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def _time(at: datetime | None) -> str:
    return "" if at is None else at.astimezone(UTC).isoformat()


def _text(value: str) -> str:
    """A text cell a spreadsheet will not take for a formula."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def csv_text(conn: psycopg.Connection[Any], rows: Sequence[Reconciliation]) -> str:
    """``rows`` as CSV for the bookkeeper (:data:`CSV_COLUMNS`, a header first), each
    with its cabinet's location."""
    names = sorted({r.cabinet for r in rows})
    found = conn.execute(
        "SELECT name, location FROM cabinets WHERE name = ANY(%s)", (names,)
    ).fetchall()
    conn.commit()
    locations = {str(n): str(loc) for n, loc in found}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for r in rows:
        writer.writerow(
            [
                "" if r.collection is None else r.collection,
                r.cabinet,
                _text(locations.get(r.cabinet, "")),
                _time(r.since),
                _time(r.until),
                _amount(r.books_cents),
                _amount(r.counted_cents),
                _amount(r.difference_cents),
                "yes" if r.estimated else "no",
                _text(r.entered_by),
                _text(r.note),
            ]
        )
    return out.getvalue()
