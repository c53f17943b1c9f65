"""The fleet-wide documents a cabinet keeps (``docs/fleet.md``, "What a cabinet takes"),
in rows of the ``fleet`` table under ``down.``: the route's champions (the newest board
seen, shown in attract even offline or after a restart), each settings document held
until the display process decides it, and what was last decided of each.

- ``down.champions``: the board as the fleet sent it (:class:`fleet.wire_down.Champions`).
- ``down.held.<document>``: a settings document waiting to be decided.
- ``down.decided.<document>``: ``{"version", "result", "applied", "location"}``: the
  last version applied or refused, the text of the last one applied, and the document's
  location (``null``: the route's).

Every function but the readers runs inside the caller's transaction; leaving (or
joining) a fleet deletes them all (:mod:`cabinet.link.membership`).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from cabinet.storage import outbox
from fleet.wire_common import WireError
from fleet.wire_down import Champions, SettingsDocument, parse_champions, settings_topic
from fleet.wire_down import parse_settings_document as parse_document

PREFIX = "down."
CHAMPIONS = "down.champions"
HELD = "down.held."
DECIDED = "down.decided."


@dataclass(frozen=True, slots=True)
class Decision:
    """The last version of a settings document decided, how, the text of the last
    version applied (``""``: none) and the document's location (``None``: the route's)."""

    version: int
    result: str
    applied: str
    location: str | None


def champions(conn: sqlite3.Connection) -> Champions | None:
    """The newest board kept (``None``: none yet, or one that no longer reads)."""
    text = outbox.fleet_value(conn, CHAMPIONS)
    if text is None:
        return None
    try:
        return parse_champions(text.encode())
    except WireError:
        return None


def keep_champions(conn: sqlite3.Connection, board: Champions) -> bool:
    """Keep ``board`` if it is newer than the one kept; returns whether it was."""
    kept = champions(conn)
    if kept is not None and kept.version >= board.version:
        return False
    outbox.set_fleet_values(conn, {CHAMPIONS: board.dumps().decode()})
    return True


def location(conn: sqlite3.Connection) -> str | None:
    """The cabinet's location, as its join says (``None``: in no fleet)."""
    return outbox.fleet_value(conn, "join.location")


def decided(conn: sqlite3.Connection, document: str) -> Decision | None:
    """What was last decided of ``document``."""
    text = outbox.fleet_value(conn, DECIDED + document)
    if text is None:
        return None
    try:
        value = json.loads(text)
        where = value["location"]
        return Decision(
            int(value["version"]),
            str(value["result"]),
            str(value["applied"]),
            None if where is None else str(where),
        )
    except (ValueError, KeyError, TypeError):
        return None


def concerns(conn: sqlite3.Connection, document: SettingsDocument) -> bool:
    """Whether ``document`` is this cabinet's to decide: the route's, or its location's."""
    return document.location is None or document.location == location(conn)


def newer(conn: sqlite3.Connection, document: SettingsDocument) -> bool:
    """Whether ``document``'s version is newer than the one last decided."""
    last = decided(conn, document.document)
    return last is None or document.version > last.version


def hold(conn: sqlite3.Connection, document: SettingsDocument) -> bool:
    """Hold ``document`` for the display process to decide, if it is this cabinet's and
    newer than what was decided and what is held; returns whether it was."""
    if not concerns(conn, document) or not newer(conn, document):
        return False
    for waiting in held(conn):
        if waiting.document == document.document and waiting.version >= document.version:
            return False
    outbox.set_fleet_values(conn, {HELD + document.document: document.dumps().decode()})
    return True


def held(conn: sqlite3.Connection) -> list[SettingsDocument]:
    """The documents waiting, the locations' before the route's (so the route's sees
    what its location's has just set)."""
    rows = conn.execute(
        "SELECT name, value FROM fleet WHERE substr(name, 1, ?) = ?", (len(HELD), HELD)
    ).fetchall()
    documents = []
    for name, value in rows:
        try:
            topic = settings_topic(str(name)[len(HELD) :])
            documents.append(parse_document(topic, str(value).encode()))
        except WireError:
            conn.execute("DELETE FROM fleet WHERE name = ?", (name,))
    return sorted(documents, key=lambda d: (d.location is None, d.document))


def decide(conn: sqlite3.Connection, document: SettingsDocument, applied: bool) -> None:
    """Note that ``document`` was applied or refused, and let it go from the held ones."""
    last = decided(conn, document.document)
    text = document.text if applied else (last.applied if last is not None else "")
    result = "applied" if applied else "refused"
    value = {
        "version": document.version,
        "result": result,
        "applied": text,
        "location": document.location,
    }
    outbox.set_fleet_values(conn, {DECIDED + document.document: json.dumps(value)})
    conn.execute("DELETE FROM fleet WHERE name = ?", (HELD + document.document,))


def decisions(conn: sqlite3.Connection) -> dict[str, Decision]:
    """Every document's last decision, by document id."""
    rows = conn.execute(
        "SELECT name FROM fleet WHERE substr(name, 1, ?) = ?", (len(DECIDED), DECIDED)
    ).fetchall()
    found = {}
    for (name,) in rows:
        document = str(name)[len(DECIDED) :]
        last = decided(conn, document)
        if last is not None:
            found[document] = last
    return found
