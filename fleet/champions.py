"""The route's champions: the best entry of every hall-of-fame category across the active
cabinets, worked out from the ``fame`` events the fleet holds, and published retained on
:data:`~fleet.wire_down.CHAMPIONS_TOPIC` whenever it changes (docs/fleet.md, "Route
champions").

The rules, which :func:`board` keeps in one query:

- A cabinet's fame events are taken in its own order: epoch by epoch (in the order the
  fleet first stored each epoch's fame events), ``seq`` within one.
- An entry is ``(cabinet, epoch, entry)``; a later event of the same entry (its initials
  filled in) replaces the earlier.
- A clear (``{"cleared": <category>}``, or ``"all"``) removes the entries of that category
  (or every entry) that cabinet reported before it; an entry reported again after a
  clear is a new one (stored when it came again). Each cabinet's last clear of each kind
  bounds its reports, so the query is a few sorts of the fame events, whatever their
  number (a year of a 500-cabinet route: about 50,000).
- The best is the smallest figure where :data:`~fleet.wire.CHAMPION_CATEGORIES` says
  smaller is better, else the largest; a tie goes to the entry the fleet stored first
  (then the cabinet's name, then the entry's id, so the board is always the same).
- Revoked cabinets take no part; the venue is the cabinet's location.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from fleet.wire_down import CHAMPION_CATEGORIES, CHAMPIONS_TOPIC, Champion, Champions

Publish = Callable[[str, bytes], None]
"""Publish a payload on a topic, retained, QoS 1 (ingest's MQTT client)."""

_BOARD = """
WITH fame AS (
    SELECT e.cabinet, e.epoch, e.seq, e.received_at, e.body, c.location,
           min(e.received_at) OVER (PARTITION BY e.cabinet, e.epoch) AS epoch_at
    FROM events e JOIN cabinets c ON c.name = e.cabinet AND c.revoked_at IS NULL
    WHERE e.kind = 'fame'
), ordered AS (
    SELECT *, row_number() OVER (PARTITION BY cabinet ORDER BY epoch_at, epoch, seq) AS n
    FROM fame
), cleared AS (
    SELECT cabinet, body ->> 'cleared' AS what, max(n) AS n
    FROM ordered WHERE body ? 'cleared' GROUP BY cabinet, body ->> 'cleared'
), reports AS (
    SELECT o.cabinet, o.epoch, (o.body ->> 'entry')::bigint AS entry, o.body, o.location,
           o.n, o.received_at, greatest(coalesce(a.n, 0), coalesce(k.n, 0)) AS bound
    FROM ordered o
    LEFT JOIN cleared a ON a.cabinet = o.cabinet AND a.what = 'all'
    LEFT JOIN cleared k ON k.cabinet = o.cabinet AND k.what = o.body ->> 'category'
    WHERE NOT o.body ? 'cleared' AND o.body ->> 'category' = ANY(%(categories)s)
), kept AS (
    SELECT *, max(n) OVER w AS last_n,
           first_value(received_at) OVER (w ORDER BY n) AS since_at
    FROM reports WHERE n > bound
    WINDOW w AS (PARTITION BY cabinet, epoch, entry)
), live AS (
    SELECT * FROM kept WHERE n = last_n
)
SELECT DISTINCT ON (body ->> 'category')
       body ->> 'category', body ->> 'initials', (body ->> 'figure')::bigint, location,
       cabinet, body ->> 'date'
FROM live
ORDER BY body ->> 'category',
         CASE WHEN (body ->> 'category') = ANY(%(lower)s)
              THEN (body ->> 'figure')::numeric ELSE -(body ->> 'figure')::numeric END,
         since_at,
         cabinet, epoch, entry
"""


def board(conn: psycopg.Connection[Any]) -> tuple[Champion, ...]:
    """The route's champions now, one per category that has an entry, in
    :data:`~fleet.wire.CHAMPION_CATEGORIES`' order."""
    rows = conn.execute(
        _BOARD,
        {
            "categories": list(CHAMPION_CATEGORIES),
            "lower": [c for c, lower in CHAMPION_CATEGORIES.items() if lower],
        },
    ).fetchall()
    conn.commit()
    found = {
        str(category): Champion(
            str(category), str(initials), int(figure), str(venue), str(cabinet), str(date)
        )
        for category, initials, figure, venue, cabinet, date in rows
    }
    return tuple(found[c] for c in CHAMPION_CATEGORIES if c in found)


def newest(conn: psycopg.Connection[Any]) -> Champions | None:
    """The newest board the fleet made, if any."""
    row = conn.execute(
        "SELECT version, board FROM champions ORDER BY version DESC LIMIT 1"
    ).fetchone()
    conn.commit()
    if row is None:
        return None
    return Champions(int(row[0]), tuple(Champion(**c) for c in row[1]))


def publish_if_changed(conn: psycopg.Connection[Any], publish: Publish) -> Champions | None:
    """Work the board out; if it is not the newest one made (none made counts as an
    empty board), store it under a new version and publish it. Returns what it
    published, else ``None``."""
    champions = board(conn)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('fleet.champions'))")
        row = conn.execute("SELECT board FROM champions ORDER BY version DESC LIMIT 1").fetchone()
        before = [] if row is None else list(row[0])
        value = [c.to_json() for c in champions]
        if value == before:
            made = None
        else:
            (version,) = conn.execute(
                "INSERT INTO champions (board) VALUES (%s) RETURNING version", (Jsonb(value),)
            ).fetchone() or (0,)
            made = Champions(int(version), champions)
    conn.commit()
    if made is not None:
        publish(CHAMPIONS_TOPIC, made.dumps())
    return made


def republish(conn: psycopg.Connection[Any], publish: Publish) -> Champions | None:
    """Publish the newest board again (ingest does at every connection, so a broker that
    lost its retained messages holds it again); ``None`` if none was made yet."""
    champions = newest(conn)
    if champions is not None:
        publish(CHAMPIONS_TOPIC, champions.dumps())
    return champions
