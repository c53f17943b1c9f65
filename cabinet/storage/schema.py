"""The cabinet database's schema: the mark that says a file is the cabinet's, the
migrations that build its tables step by step, and the checks that a file's schema is
one this program can use (:mod:`cabinet.storage.opening` opens files with them)."""

from __future__ import annotations

import functools
import sqlite3

from game.values import is_int


class UnusableDatabaseError(Exception):
    """The file opened but cannot be used (corrupt, from a newer program, no WAL)."""


APPLICATION_ID = 0x53504954
"""The mark in the database header (``PRAGMA application_id``, "SPIT" in ASCII) that says
a file is the cabinet's database; see ``file`` or ``sqlite3 FILE 'PRAGMA application_id'``."""

CABINET_TABLES = frozenset({"settings", "audit_groups", "audit_counters", "games"})
"""The tables that make an unmarked database the cabinet's (written before the mark)."""


READERS_TABLE = "schema_readers"
"""Where a newer schema says which older programs may still use it: the row
``readable_from`` holds the oldest schema version that can (docs/storage.md)."""


#: The schema, one script per version: ``MIGRATIONS[n]`` takes a database from version n
#: to version n + 1 (``PRAGMA user_version``). Append, never edit a released script. Every
#: step from the fourth on sets ``schema_readers.readable_from``: to what it was if the step
#: only adds (older programs may go on using the file), to its own version if it changes
#: what an older program reads.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE settings (
        name  TEXT PRIMARY KEY,
        value TEXT NOT NULL            -- JSON
    );
    CREATE TABLE audit_groups (
        name       TEXT PRIMARY KEY,
        cleared_at TEXT NOT NULL       -- ISO 8601 UTC: when its counters last started at 0
    );
    CREATE TABLE audit_counters (
        name     TEXT PRIMARY KEY,     -- "<group>.<counter>", e.g. "games.draws"
        current  INTEGER NOT NULL,     -- since the group was last cleared
        lifetime INTEGER NOT NULL      -- never cleared
    );
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        ended_at    TEXT NOT NULL,     -- ISO 8601 UTC
        players     TEXT NOT NULL,     -- e.g. "human,cpu"
        levels      TEXT NOT NULL,     -- JSON: CPU level per seat, null for a person
        termination TEXT NOT NULL,     -- went_out, blocked or abandoned
        winner      INTEGER,           -- 0 or 1; NULL for a draw or an abandoned game
        duration_ms INTEGER NOT NULL,
        record      TEXT NOT NULL      -- the match record, MatchRecord.dumps()
    );
    """,
    """
    CREATE TABLE money (
        name  TEXT PRIMARY KEY,        -- a count of cabinet.money.ledger.Ledger
        value INTEGER NOT NULL         -- since the cabinet first started; never reset
    );
    """,
    """
    CREATE TABLE hall_of_fame (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,  -- the entry's order: earlier first
        category TEXT NOT NULL,        -- cabinet.halloffame.board.Category value
        initials TEXT NOT NULL,        -- three characters; "   " until entered
        figure   INTEGER NOT NULL,     -- ms, ns or a count (Category.unit)
        date     TEXT NOT NULL,        -- ISO 8601 day (UTC) it was set
        game     INTEGER               -- the game that set it (games.id), if still kept
    );
    """,
    f"""
    CREATE TABLE outbox (              -- cabinet.storage.outbox: what waits for the fleet
        seq    INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: the key on the wire
        kind   TEXT NOT NULL,          -- cabinet.storage.outbox.Kind value
        at     TEXT NOT NULL,          -- ISO 8601 UTC, the cabinet's clock
        synced INTEGER NOT NULL,       -- 1 if that clock was synchronised
        body   TEXT NOT NULL           -- JSON
    );
    CREATE TABLE fleet (
        name  TEXT PRIMARY KEY,        -- epoch, join.*, link.*, dropped.<kind>
        value TEXT NOT NULL
    );
    INSERT INTO fleet (name, value) VALUES ('epoch', lower(hex(randomblob(8))));
    CREATE TABLE button_silence (      -- cabinet.inputs.missing_switch
        control TEXT PRIMARY KEY,      -- e.g. "p1.slot2"
        games   INTEGER NOT NULL       -- games silent while its neighbours were pressed
    );
    CREATE TABLE IF NOT EXISTS {READERS_TABLE} (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
    INSERT OR REPLACE INTO {READERS_TABLE} (name, value) VALUES ('readable_from', 3);
    """,
    f"""
    CREATE TABLE fairness (            -- cabinet.storage.fairness: fairness certificates
        id       INTEGER PRIMARY KEY AUTOINCREMENT,  -- later tests after
        taken_at TEXT NOT NULL,        -- ISO 8601 UTC, the cabinet's clock
        passed   INTEGER NOT NULL,     -- 1 if the certificate passed
        body     TEXT NOT NULL         -- JSON: cabinet.fairness.certificate.Certificate.body
    );
    INSERT OR REPLACE INTO {READERS_TABLE} (name, value) VALUES ('readable_from', 3);
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this program writes."""


def check_version(conn: sqlite3.Connection) -> None:
    """Raise :class:`UnusableDatabaseError` for a schema newer than this program reads:
    newer than :data:`SCHEMA_VERSION`, unless the database says a program of this schema
    may still use it (a newer program's steps that only added to it)."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION and (readable_from(conn) or version) > SCHEMA_VERSION:
        raise UnusableDatabaseError(
            f"written by a newer program (schema {version}; this one reads up to {SCHEMA_VERSION})"
        )


def readable_from(conn: sqlite3.Connection) -> int | None:
    """The oldest schema version that may use this database, as a newer program marked
    it (``None``: no mark, or not a whole number)."""
    found = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (READERS_TABLE,)
    ).fetchone()
    if found is None:
        return None
    row = conn.execute(f"SELECT value FROM {READERS_TABLE} WHERE name = 'readable_from'").fetchone()
    value = None if row is None else row[0]
    return value if is_int(value) and value > 0 else None


@functools.cache
def _columns_wanted() -> dict[str, frozenset[str]]:
    """Each table's columns, as the migrations make them."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrate(conn)
        return _columns(conn)
    finally:
        conn.close()


def _columns(conn: sqlite3.Connection) -> dict[str, frozenset[str]]:
    tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    return {
        str(t): frozenset(
            str(row[1]) for row in conn.execute("SELECT * FROM pragma_table_info(?)", (t,))
        )
        for t in tables
    }


def check_columns(conn: sqlite3.Connection) -> None:
    """Raise :class:`UnusableDatabaseError` unless every table has the columns the
    cabinet writes (a damaged schema can pass SQLite's own check)."""
    found = _columns(conn)
    for table, wanted in _columns_wanted().items():
        missing = wanted - found.get(table, frozenset())
        if missing:
            raise UnusableDatabaseError(
                f"damaged (its table {table} has no column {sorted(missing)[0]})"
            )


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema up to :data:`SCHEMA_VERSION`, one transaction per step; returns
    the version found before."""
    found: int = conn.execute("PRAGMA user_version").fetchone()[0]
    for version in range(found, SCHEMA_VERSION):
        script = MIGRATIONS[version]
        try:
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {version + 1};\nCOMMIT;"
            )
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return found
