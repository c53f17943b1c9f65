"""``refused_counts`` in the real PostgreSQL: what :func:`fleet.store.refuse` counts by
the topic's cabinet and the refusal (one transaction with its row in ``refused``), and the
refusals a version-2 database kept counted the same way when it is brought to version 3.
Through the real broker and ingest: tests/fleet/test_bad_messages.py."""

from __future__ import annotations

import os
from typing import Any

import psycopg

from fleet import store
from fleet.schema import MIGRATIONS
from fleet.wire import batch_topic, presence_topic
from fleet.wire_common import Refusal
from tests.fleet.services import Postgres


def _counts(conn: psycopg.Connection[Any]) -> dict[tuple[str, str], tuple[int, str]]:
    rows = conn.execute("SELECT cabinet, refusal, count, last_reason FROM refused_counts")
    counts = {(c, r): (n, reason) for c, r, n, reason in rows.fetchall()}
    conn.commit()
    return counts


def test_each_refusal_is_counted_by_the_topic_s_cabinet(postgres: Postgres) -> None:
    conn = store.connect(postgres.new_database(f"refused_{os.getpid()}"))
    try:
        store.refuse(
            conn,
            batch_topic("ghost"),
            10,
            "from a cabinet that is unknown: ghost",
            Refusal.UNKNOWN_CABINET,
        )
        store.refuse(
            conn,
            presence_topic("old-1"),
            20,
            "from a cabinet that is revoked: old-1",
            Refusal.REVOKED,
        )
        store.refuse(
            conn,
            batch_topic("old-1"),
            30,
            "from a cabinet that is revoked: old-1 (2)",
            Refusal.REVOKED,
        )
        store.refuse(conn, "spit/up/Not A Name/events", 40, "not a fleet up topic", Refusal.TOPIC)
        assert _counts(conn) == {
            ("ghost", "unknown_cabinet"): (1, "from a cabinet that is unknown: ghost"),
            ("old-1", "revoked"): (2, "from a cabinet that is revoked: old-1 (2)"),
            ("", "topic"): (1, "not a fleet up topic"),
        }
        (rows,) = conn.execute("SELECT count(*) FROM refused").fetchone() or (0,)
        assert rows == 4
        first, last = conn.execute(
            "SELECT first_at, last_at FROM refused_counts WHERE cabinet = 'old-1'"
        ).fetchone() or (None, None)
        assert first is not None and last is not None and first <= last
    finally:
        conn.close()


VERSION_2_REFUSALS = [
    ("spit/up/bar-1/events", "not JSON (Expecting value: line 1 column 1 (char 0))"),
    ("spit/up/bar-1/events", "not a JSON object"),
    ("spit/up/bar-1/events", "oversized: 300000 bytes (at most 262144)"),
    ("spit/up/bar-1/events", "wire version 2 (this fleet reads 1)"),
    ("spit/up/bar-1/events", "unknown event kind 'jackpot'"),
    ("spit/up/bar-1/events", "addressed to bar-1's topic but says it is from bar-2"),
    ("spit/up/bar-1/presence", "not a presence topic: 'spit/up/bar-1/x'"),
    ("spit/up/old-1/events", "from a cabinet that is revoked: old-1"),
    ("spit/up/ghost/presence", "from a cabinet that is unknown: ghost"),
    ("spit/up/Bad Name/events", "'Bad Name' is not a cabinet id (lower-case letters…)"),
]


def test_a_version_2_database_s_refusals_are_counted_when_it_is_brought_up(
    postgres: Postgres,
) -> None:
    conn = psycopg.connect(postgres.new_database(f"refused_v2_{os.getpid()}"))
    try:
        with conn.transaction():
            conn.execute("CREATE TABLE fleet_schema (version integer NOT NULL)")
            conn.execute("INSERT INTO fleet_schema (version) VALUES (2)")
            for script in MIGRATIONS[:2]:
                conn.execute(script.encode())
            for topic, reason in VERSION_2_REFUSALS:
                conn.execute(
                    "INSERT INTO refused (topic, size, reason) VALUES (%s, 1, %s)", (topic, reason)
                )
        assert store.migrate(conn) == 2
        assert _counts(conn) == {
            ("bar-1", "not_json"): (2, "not a JSON object"),
            ("bar-1", "oversized"): (1, "oversized: 300000 bytes (at most 262144)"),
            ("bar-1", "wire_version"): (1, "wire version 2 (this fleet reads 1)"),
            ("bar-1", "malformed"): (1, "unknown event kind 'jackpot'"),
            ("bar-1", "wrong_cabinet"): (
                1,
                "addressed to bar-1's topic but says it is from bar-2",
            ),
            ("bar-1", "topic"): (1, "not a presence topic: 'spit/up/bar-1/x'"),
            ("old-1", "revoked"): (1, "from a cabinet that is revoked: old-1"),
            ("ghost", "unknown_cabinet"): (1, "from a cabinet that is unknown: ghost"),
            ("", "topic"): (1, "'Bad Name' is not a cabinet id (lower-case letters…)"),
        }
        assert {r.value for r in Refusal} >= {refusal for _, refusal in _counts(conn)}
    finally:
        conn.close()
