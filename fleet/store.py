"""The fleet's store in PostgreSQL (psycopg 3): every query parameterised, every batch in
one transaction, stored insert-if-absent on its key (:mod:`fleet.schema` has the tables).

Each of ingest's writes (a batch stored, a presence, a refusal; a rollout's step,
:mod:`fleet.rollouts`) says ``NOTIFY`` on :data:`CHANNEL` in its own transaction
(:func:`notify`), so whoever must know when the store changes (the tests) waits for it
rather than looking again and again.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from fleet.schema import MIGRATIONS, SCHEMA_VERSION
from fleet.wire import Batch, Event, Presence, cabinet_of
from fleet.wire_common import Refusal, WireError

CHANNEL = "fleet_stored"
"""The PostgreSQL notification channel ingest's writes are said on; the payload says what
was written (``events``, ``presence``, ``refused``, ``rollouts``)."""


def notify(conn: psycopg.Connection[Any], what: str) -> None:
    """Say ``NOTIFY fleet_stored`` (:data:`CHANNEL`), ``what`` as its payload, inside the
    caller's transaction: PostgreSQL delivers it at the commit, never for a rollback."""
    conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, what))


class CabinetState(StrEnum):
    ACTIVE = "active"
    REVOKED = "revoked"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Stored:
    """What storing one batch did."""

    new: int
    """Events it stored that were not there yet."""
    through: int
    """The highest sequence number stored with all before it (the acknowledgement)."""
    kinds: frozenset[str] = frozenset()
    """The kinds of the events it stored that were new (ingest works out the champions
    again only after a new ``fame`` event)."""


def connect(conninfo: str) -> psycopg.Connection[Any]:
    """A connection to the fleet's database, its schema brought up to date."""
    conn = psycopg.connect(conninfo, autocommit=False)
    migrate(conn)
    return conn


def migrate(conn: psycopg.Connection[Any]) -> int:
    """Bring the schema to :data:`SCHEMA_VERSION`, one transaction a step; returns the
    version found."""
    with conn.transaction():
        conn.execute("CREATE TABLE IF NOT EXISTS fleet_schema (version integer NOT NULL)")
        conn.execute("LOCK TABLE fleet_schema IN EXCLUSIVE MODE")
        row = conn.execute("SELECT version FROM fleet_schema").fetchone()
        if row is None:
            conn.execute("INSERT INTO fleet_schema (version) VALUES (0)")
        found = 0 if row is None else int(row[0])
    for version in range(found, SCHEMA_VERSION):
        with conn.transaction():
            conn.execute(MIGRATIONS[version].encode())
            conn.execute("UPDATE fleet_schema SET version = %s", (version + 1,))
    conn.commit()
    return found


def add_cabinet(conn: psycopg.Connection[Any], name: str, location: str) -> bool:
    """Add a cabinet (or let a revoked one back in, at ``location``); a location not in
    ``locations`` yet is added (open all day, UTC, until the operator says otherwise).
    Returns whether the cabinet is new to the fleet (its row made now)."""
    with conn.transaction():
        ensure_location(conn, location)
        row = conn.execute(
            "INSERT INTO cabinets (name, location) VALUES (%s, %s) ON CONFLICT (name) "
            "DO UPDATE SET location = excluded.location, revoked_at = NULL "
            "RETURNING xmax = 0",
            (name, location),
        ).fetchone()
    conn.commit()
    return bool(row and row[0])


def add_cabinets(conn: psycopg.Connection[Any], cabinets: Sequence[tuple[str, str]]) -> None:
    """Add cabinets new to the fleet, ``(name, location)`` each, and their locations, in
    one transaction: a name the fleet has already (added since it was checked) adds
    none of them (:class:`psycopg.errors.UniqueViolation`)."""
    with conn.transaction():
        for location in sorted({location for _, location in cabinets}):
            ensure_location(conn, location)
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO cabinets (name, location) VALUES (%s, %s)", list(cabinets)
            )
    conn.commit()


def known(conn: psycopg.Connection[Any], names: Sequence[str]) -> dict[str, bool]:
    """Those of ``names`` the fleet has, each with whether it is revoked."""
    rows = conn.execute(
        "SELECT name, revoked_at IS NOT NULL FROM cabinets WHERE name = ANY(%s)", (list(names),)
    ).fetchall()
    conn.commit()
    return {str(name): bool(revoked) for name, revoked in rows}


def ensure_location(conn: psycopg.Connection[Any], name: str) -> None:
    """Add location ``name`` to ``locations`` if it is not there (inside the caller's
    transaction)."""
    conn.execute("INSERT INTO locations (name) VALUES (%s) ON CONFLICT (name) DO NOTHING", (name,))


def revoke(conn: psycopg.Connection[Any], name: str) -> bool:
    """Mark a cabinet revoked (ingest stores nothing more from it); ``False`` if unknown."""
    with conn.transaction():
        cursor = conn.execute(
            "UPDATE cabinets SET revoked_at = now() WHERE name = %s AND revoked_at IS NULL",
            (name,),
        )
    conn.commit()
    return cursor.rowcount > 0


def cabinet_state(conn: psycopg.Connection[Any], name: str) -> CabinetState:
    row = conn.execute("SELECT revoked_at FROM cabinets WHERE name = %s", (name,)).fetchone()
    conn.commit()
    if row is None:
        return CabinetState.UNKNOWN
    return CabinetState.ACTIVE if row[0] is None else CabinetState.REVOKED


_INSERT = """
WITH incoming AS (
    SELECT * FROM jsonb_to_recordset(%(events)s)
        AS e(seq bigint, kind text, at text, synced boolean, body jsonb, written timestamptz)
), new AS (
    INSERT INTO events (cabinet, epoch, seq, kind, cabinet_at, synced, body, written_at)
    SELECT %(cabinet)s, %(epoch)s, seq, kind, at, synced, body, coalesce(written, now())
    FROM incoming
    ON CONFLICT (cabinet, epoch, seq) DO NOTHING
    RETURNING kind, body, written_at
), counted AS (
    INSERT INTO rollups (cabinet, period, start, games, earnings_cents, coins)
    SELECT %(cabinet)s, p.period, p.start,
           count(*) FILTER (WHERE n.kind = 'game'),
           coalesce(sum((n.body -> 'counted' ->> 'earnings_cents')::bigint)
                    FILTER (WHERE n.kind = 'money'), 0),
           coalesce(sum(coalesce((n.body -> 'counted' ->> 'coins1')::bigint, 0)
                        + coalesce((n.body -> 'counted' ->> 'coins2')::bigint, 0))
                    FILTER (WHERE n.kind = 'money'), 0)
    FROM new n CROSS JOIN LATERAL (
        VALUES ('day', n.written_at::date), ('week', date_trunc('week', n.written_at)::date)
    ) AS p (period, start)
    GROUP BY p.period, p.start
    ON CONFLICT (cabinet, period, start) DO UPDATE SET
        games = rollups.games + excluded.games,
        earnings_cents = rollups.earnings_cents + excluded.earnings_cents,
        coins = rollups.coins + excluded.coins
    RETURNING 1
)
SELECT (SELECT count(*) FROM new), (SELECT count(*) FROM counted),
       (SELECT coalesce(array_agg(DISTINCT kind), '{}') FROM new)
"""


def written_at(event: Event) -> str | None:
    """When the cabinet wrote ``event`` by its clock, if that was synchronised and reads
    as an ISO 8601 time with its zone, as cabinets write it (else ``None``: the time it
    arrives). Worked out here rather than by the database function ``fleet_written_at``
    (which made the rows of version 1 so): a PL/pgSQL call with an exception block for
    every row cost ingest a sixth of its throughput.

    >>> written_at(Event(1, "door", "2026-12-02T10:00:00Z", True, {}))
    '2026-12-02T10:00:00+00:00'
    >>> written_at(Event(1, "door", "2026-12-02T10:00:00Z", False, {})) is None
    True
    >>> written_at(Event(1, "door", "yesterday", True, {})) is None
    True
    """
    if not event.synced:
        return None
    try:
        when = datetime.datetime.fromisoformat(event.at)
    except ValueError:
        return None
    if when.tzinfo is None or not 1 <= when.year <= 9999:
        return None
    return when.isoformat()


def store_batch(conn: psycopg.Connection[Any], batch: Batch) -> Stored:
    """Store ``batch``'s events not stored yet and move its cabinet's progress, in one
    transaction. Returns what it stored and the acknowledgement to publish after."""
    events = [{**e.to_json(), "written": written_at(e)} for e in batch.events]
    key = {"cabinet": batch.cabinet, "epoch": batch.epoch}
    with conn.transaction():
        row = conn.execute(_INSERT, {**key, "events": Jsonb(events)}).fetchone()
        new, kinds = (row[0], row[2]) if row is not None else (0, [])
        conn.execute(
            "INSERT INTO progress (cabinet, epoch, through) VALUES (%(cabinet)s, %(epoch)s, 0) "
            "ON CONFLICT DO NOTHING",
            key,
        )
        (through,) = conn.execute(
            "SELECT through FROM progress WHERE cabinet = %(cabinet)s AND epoch = %(epoch)s "
            "FOR UPDATE",
            key,
        ).fetchone() or (0,)
        if batch.last > through:
            conn.execute(
                "INSERT INTO coverage (cabinet, epoch, first, last) "
                "VALUES (%(cabinet)s, %(epoch)s, %(first)s, %(last)s) "
                "ON CONFLICT (cabinet, epoch, first) "
                "DO UPDATE SET last = greatest(coverage.last, excluded.last)",
                {**key, "first": batch.first, "last": batch.last},
            )
            ranges = conn.execute(
                "SELECT first, last FROM coverage WHERE cabinet = %(cabinet)s AND "
                "epoch = %(epoch)s ORDER BY first",
                key,
            ).fetchall()
            for first, last in ranges:
                if first > through + 1:
                    break
                through = max(through, int(last))
            conn.execute(
                "DELETE FROM coverage WHERE cabinet = %(cabinet)s AND epoch = %(epoch)s AND "
                "last <= %(through)s",
                {**key, "through": through},
            )
            conn.execute(
                "UPDATE progress SET through = %(through)s WHERE cabinet = %(cabinet)s AND "
                "epoch = %(epoch)s",
                {**key, "through": through},
            )
        notify(conn, "events")
    conn.commit()
    return Stored(int(new), int(through), frozenset(kinds))


def record_presence(
    conn: psycopg.Connection[Any],
    cabinet: str,
    state: Presence,
    version: str,
    faults: tuple[str, ...] = (),
) -> None:
    """Keep ``cabinet``'s last presence, log it in ``presence_log`` (the offline alerts
    and the collections read when it was offline), and make sure its location is in
    ``locations``."""
    with conn.transaction():
        conn.execute(
            "INSERT INTO presence_log (cabinet, state, at) VALUES (%s, %s, now())",
            (cabinet, state.value),
        )
        conn.execute(
            "INSERT INTO locations (name) SELECT location FROM cabinets WHERE name = %s "
            "ON CONFLICT (name) DO NOTHING",
            (cabinet,),
        )
        conn.execute(
            "INSERT INTO presence (cabinet, state, version, faults, at) "
            "VALUES (%s, %s, %s, %s, now()) "
            "ON CONFLICT (cabinet) DO UPDATE SET state = excluded.state, "
            "version = excluded.version, faults = excluded.faults, at = excluded.at",
            (cabinet, state.value, version, list(faults)),
        )
        notify(conn, "presence")
    conn.commit()


def refuse(
    conn: psycopg.Connection[Any],
    topic: str,
    size: int,
    reason: str,
    refusal: Refusal = Refusal.MALFORMED,
) -> None:
    """Note a refused message in ``refused``, and count it in ``refused_counts`` by the
    cabinet its topic names (``""`` when it names none) and ``refusal``, in one
    transaction."""
    try:
        cabinet = cabinet_of(topic)[0]
    except WireError:
        cabinet = ""
    with conn.transaction():
        conn.execute(
            "INSERT INTO refused (topic, size, reason) VALUES (%s, %s, %s)",
            (topic[:200], size, reason[:500]),
        )
        conn.execute(
            "INSERT INTO refused_counts (cabinet, refusal, count, first_at, last_at, "
            "last_reason) VALUES (%s, %s, 1, now(), now(), %s) "
            "ON CONFLICT (cabinet, refusal) DO UPDATE SET count = refused_counts.count + 1, "
            "last_at = excluded.last_at, last_reason = excluded.last_reason",
            (cabinet, refusal.value, reason[:500]),
        )
        notify(conn, "refused")
    conn.commit()


# -- what the fleet knows, for its reports and the tests ----------------------------------


def counts(conn: psycopg.Connection[Any], cabinet: str) -> dict[str, int]:
    """Events stored per kind for ``cabinet``."""
    rows = conn.execute(
        "SELECT kind, count(*) FROM events WHERE cabinet = %s GROUP BY kind", (cabinet,)
    ).fetchall()
    conn.commit()
    return {str(k): int(n) for k, n in rows}


def latest(conn: psycopg.Connection[Any], cabinet: str, kind: str) -> dict[str, Any] | None:
    """The body of ``cabinet``'s newest ``kind`` event (by epoch's first sight, then seq)."""
    row = conn.execute(
        "SELECT body FROM events WHERE cabinet = %s AND kind = %s "
        "ORDER BY received_at DESC, seq DESC LIMIT 1",
        (cabinet, kind),
    ).fetchone()
    conn.commit()
    return None if row is None else dict(row[0])
