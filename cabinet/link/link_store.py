"""The link's own connection to the cabinet's database, used by the link's thread alone:
the join and the acknowledged point it starts from, the outbox rows to send, forgetting
what the fleet acknowledged, queueing what the link itself reports (heartbeats, the door,
the light board), keeping the fleet-wide documents (:mod:`cabinet.link.down`) and noting
its state for ``fleet status``, and keeping a release offered to it."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from cabinet.link import status as link_status
from cabinet.storage import fleet_documents, outbox, release_offers
from cabinet.storage.database import BUSY_TIMEOUT_S, utc_now
from cabinet.storage.outbox import Kind, Row
from fleet.join_file import Join
from fleet.wire_down import Champions, ReleaseOffer, SettingsDocument

log = logging.getLogger("cabinet.link")


def _nothing() -> None:
    pass


class LinkStore:
    """The database at the path :meth:`open` was given, as the link sees it; ``committed``
    is called after each of its commits (:attr:`cabinet.link.connection.Connection.changed`
    says why)."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        join: Join,
        epoch: str,
        acked: int,
        committed: Callable[[], None] = _nothing,
    ) -> None:
        self._conn = conn
        self.join = join
        self.epoch = epoch
        """This database's epoch (on the wire with every batch)."""
        self.acked = acked
        """The highest sequence number the fleet had acknowledged when it was opened."""
        self._committed = committed

    @classmethod
    def open(cls, path: Path, committed: Callable[[], None] = _nothing) -> LinkStore | None:
        """The database at ``path``, or ``None`` when the cabinet is in no fleet."""
        # Opened by whoever starts the link, then used by the link's thread alone.
        conn = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
        rows = outbox.fleet_values(conn)
        join = Join.from_rows(rows)
        if join is None:
            conn.close()
            return None
        acked = rows.get(link_status.ACKED, "0")
        epoch = rows.get("epoch", "")
        return cls(conn, join, epoch, int(acked) if acked.isdigit() else 0, committed)

    def data_version(self) -> int:
        """Changes when another connection commits (SQLite's ``PRAGMA data_version``)."""
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def pending(self, after: int, limit: int) -> list[Row]:
        return outbox.pending(self._conn, after, limit)

    def forget_through(self, through: int) -> None:
        """The fleet has everything up to ``through``: delete it, and note the point."""
        with self._transaction():
            outbox.forget_through(self._conn, through)
            outbox.set_fleet_values(self._conn, {link_status.ACKED: str(through)})

    def queue(self, kind: Kind, body: Mapping[str, Any], synced: bool) -> None:
        """Queue an event the link itself reports."""
        with self._transaction():
            outbox.add(self._conn, kind, body, utc_now(), synced)

    def keep_champions(self, board: Champions) -> bool:
        """Keep the route's champions if newer than the board kept."""
        with self._transaction():
            return fleet_documents.keep_champions(self._conn, board)

    def hold(self, document: SettingsDocument) -> bool:
        """Hold a settings document for the display process, if it is this cabinet's and
        newer than what it decided."""
        with self._transaction():
            return fleet_documents.hold(self._conn, document)

    def hold_release(self, offered: ReleaseOffer | None) -> bool:
        """Keep a release offered (``None``: the fleet withdrew its offer), reported as
        offered when it is a new rollout's; returns whether anything changed."""
        with self._transaction():
            if offered is None:
                release_offers.withdraw(self._conn)
                return True
            return release_offers.hold(self._conn, offered, outbox.clock_synced())

    def note(self, values: Mapping[str, str]) -> None:
        """Note the link's state (``link.*``); a failure is logged, never raised."""
        try:
            with self._transaction():
                outbox.set_fleet_values(self._conn, values)
        except sqlite3.Error as exc:
            log.warning("fleet link: cannot note its state: %s", exc)

    def lifetime(self, names: Iterable[str]) -> dict[str, int]:
        """Lifetime audit counters by name (0 for one not there)."""
        wanted = list(names)
        marks = ", ".join("?" for _ in wanted)
        found = dict(
            self._conn.execute(
                f"SELECT name, lifetime FROM audit_counters WHERE name IN ({marks})", wanted
            ).fetchall()
        )
        return {name: int(found.get(name, 0)) for name in wanted}

    def close(self) -> None:
        self._conn.close()

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn, self._committed)


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (then ``committed``), or ``ROLLBACK`` if the block
    raises."""

    def __init__(self, conn: sqlite3.Connection, committed: Callable[[], None]) -> None:
        self._conn = conn
        self._committed = committed

    def __enter__(self) -> None:
        self._conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        if kind is None:
            self._conn.execute("COMMIT")
            self._committed()
        elif self._conn.in_transaction:
            self._conn.execute("ROLLBACK")
