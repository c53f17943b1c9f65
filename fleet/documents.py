"""Settings documents, the fleet's side: the settings for the whole route (``route``) or
for the cabinets of one location (``location-<id>``), TOML as ``settings export`` writes
(docs/fleet.md, "Settings documents").

:func:`save_document` checks a document, gives it the next version of the
``settings_versions`` sequence and says ``NOTIFY fleet_documents`` in the same
transaction; ingest, listening, publishes every document whose version is past the one it
last published (:func:`unpublished`, :func:`mark_published`), retained on
:func:`~fleet.wire.settings_topic`. Each cabinet checks the document as ``settings
import`` checks a file and reports a ``settings`` event (applied or refused, and why):
:func:`states` sets those reports against the documents.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg

from fleet.wire_down import MAX_DOCUMENT_CHARS, SettingsDocument

CHANNEL = "fleet_documents"
"""The PostgreSQL notification channel a saved document is said on."""


class DocumentError(ValueError):
    """A settings document the fleet will not keep (the message says why)."""


@dataclass(frozen=True, slots=True)
class DocumentState:
    """Where one cabinet is with one document: its newest report of it, or pending (no
    report yet, or one of an older version)."""

    cabinet: str
    location: str
    version: int | None
    """The version the cabinet last reported of this document (``None``: none yet)."""
    result: str | None
    """What it reported of that version: ``applied`` or ``refused`` (``None``: none)."""
    reason: str
    at: datetime | None
    """When the fleet received that report."""
    pending: bool
    """No report of the document's current version yet."""


def document_id(conn: psycopg.Connection[Any], location: str | None) -> str:
    """``route`` for the route, ``location-<id>`` for a location (:class:`DocumentError`
    if the fleet knows no such location)."""
    if location is None:
        return "route"
    row = conn.execute("SELECT id FROM locations WHERE name = %s", (location,)).fetchone()
    if row is None:
        raise DocumentError(f"no location {location[:80]!r} in this fleet")
    return f"location-{int(row[0])}"


def check_body(body: str) -> dict[str, Any]:
    """The settings ``body`` holds, if it is TOML of at most
    :data:`~fleet.wire.MAX_DOCUMENT_CHARS` characters and a table of settings, as
    ``settings export`` writes: tables of groups (``[game]``, ``[cabinet]``…) holding
    settings, no array of tables; else :class:`DocumentError`. Whether each setting is one
    the cabinet knows, with a value it allows, the cabinet checks (and reports)."""
    if len(body) > MAX_DOCUMENT_CHARS:
        raise DocumentError(
            f"the document is {len(body)} characters long (at most {MAX_DOCUMENT_CHARS})"
        )
    try:
        value = tomllib.loads(body)
    except tomllib.TOMLDecodeError as exc:
        raise DocumentError(f"the document is not TOML: {exc}") from None
    if not value:
        raise DocumentError("the document holds no settings")
    for key, item in value.items():
        if not isinstance(item, dict):
            raise DocumentError(
                f"{key!r} is not a table of settings (settings go in [game], [cabinet]…)"
            )
        _no_array_of_tables(key, item)
    return value


def _no_array_of_tables(where: str, table: dict[str, Any]) -> None:
    for key, item in table.items():
        if isinstance(item, dict):
            _no_array_of_tables(f"{where}.{key}", item)
        elif isinstance(item, list) and any(isinstance(x, dict) for x in item):
            raise DocumentError(f"{where}.{key} is an array of tables, not a setting")


def save_document(
    conn: psycopg.Connection[Any], location: str | None, body: str, edited_by: str
) -> SettingsDocument:
    """Check and keep the settings document of ``location`` (``None``: the route's) under
    a new version, and tell ingest (``NOTIFY``) in the same transaction."""
    check_body(body)
    with conn.transaction():
        document = document_id(conn, location)
        (version,) = conn.execute("SELECT nextval('settings_versions')").fetchone() or (0,)
        conn.execute(
            "INSERT INTO settings_documents (id, location, version, body, edited_by, edited_at) "
            "VALUES (%s, %s, %s, %s, %s, now()) ON CONFLICT (id) DO UPDATE SET "
            "location = excluded.location, version = excluded.version, body = excluded.body, "
            "edited_by = excluded.edited_by, edited_at = excluded.edited_at",
            (document, location, version, body, edited_by),
        )
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, document))
    conn.commit()
    return SettingsDocument(document, int(version), location, body)


def _document(row: Any) -> SettingsDocument:
    return SettingsDocument(str(row[0]), int(row[1]), row[2], str(row[3]))


def documents(conn: psycopg.Connection[Any]) -> list[SettingsDocument]:
    """Every settings document: the route's first, then the locations' by name."""
    rows = conn.execute(
        "SELECT id, version, location, body FROM settings_documents ORDER BY location NULLS FIRST"
    ).fetchall()
    conn.commit()
    return [_document(row) for row in rows]


def document(conn: psycopg.Connection[Any], id: str) -> SettingsDocument | None:
    """The settings document ``id`` (``route``, ``location-<n>``), if there is one."""
    row = conn.execute(
        "SELECT id, version, location, body FROM settings_documents WHERE id = %s", (id,)
    ).fetchone()
    conn.commit()
    return None if row is None else _document(row)


def unpublished(conn: psycopg.Connection[Any], everything: bool = False) -> list[SettingsDocument]:
    """The documents edited since ingest last published them (``everything``: all)."""
    rows = conn.execute(
        "SELECT id, version, location, body FROM settings_documents "
        "WHERE version > published OR %s ORDER BY id",
        (everything,),
    ).fetchall()
    conn.commit()
    return [_document(row) for row in rows]


def mark_published(conn: psycopg.Connection[Any], published: SettingsDocument) -> None:
    """Note that version ``published.version`` of its document is on the broker."""
    with conn.transaction():
        conn.execute(
            "UPDATE settings_documents SET published = greatest(published, %s) WHERE id = %s",
            (published.version, published.document),
        )
    conn.commit()


_STATES = """
SELECT c.name, c.location, r.version, r.result, r.reason, r.received_at
FROM cabinets c
LEFT JOIN LATERAL (
    SELECT (e.body ->> 'version')::bigint AS version, e.body ->> 'result' AS result,
           e.body ->> 'reason' AS reason, e.received_at
    FROM events e
    WHERE e.cabinet = c.name AND e.kind = 'settings' AND e.body ->> 'document' = %(id)s
    ORDER BY (e.body ->> 'version')::bigint DESC, e.received_at DESC, e.seq DESC
    LIMIT 1
) r ON true
WHERE c.revoked_at IS NULL AND (%(location)s::text IS NULL OR c.location = %(location)s)
ORDER BY c.name
"""


def states(conn: psycopg.Connection[Any], document: str) -> list[DocumentState]:
    """Where every active cabinet ``document`` concerns (every one for ``route``, that
    location's for a location's) is with it; ``[]`` if there is no such document."""
    found = conn.execute(
        "SELECT version, location FROM settings_documents WHERE id = %s", (document,)
    ).fetchone()
    if found is None:
        conn.commit()
        return []
    current, location = int(found[0]), found[1]
    rows = conn.execute(_STATES, {"id": document, "location": location}).fetchall()
    conn.commit()
    result = []
    for cabinet, where, version, outcome, reason, at in rows:
        reported = None if version is None else int(version)
        result.append(
            DocumentState(
                str(cabinet),
                str(where),
                reported,
                None if outcome is None else str(outcome),
                "" if reason is None else str(reason),
                at,
                reported is None or reported < current,
            )
        )
    return result
