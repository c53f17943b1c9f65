"""The link's state, as the sender keeps it in the ``fleet`` table (``link.*`` rows) and
``spit-cabinet fleet status``, the service menu's Fleet page and ``doctor`` read it."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from cabinet.storage import outbox
from fleet.join_file import Join

CONNECTED = "link.connected"
ACKED = "link.acked"
ERROR = "link.error"
SINCE = "link.since"
"""When ``link.connected`` last changed (ISO 8601 UTC)."""


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """What the link has done, and what waits."""

    join: Join | None
    """The fleet joined, or ``None``: the cabinet opens no connection."""
    epoch: str
    connected: bool
    since: str
    queued: int
    acked: int
    """The highest sequence number the fleet has said it stored."""
    error: str
    dropped: dict[str, int]
    """Events the outbox dropped to stay within its bound, by kind."""

    def lines(self) -> list[str]:
        """The status as ``name: value`` lines, for the command and the menu."""
        if self.join is None:
            return ["fleet: none (the cabinet opens no connection)"]
        dropped = ", ".join(f"{n} {k}" for k, n in sorted(self.dropped.items())) or "none"
        return [
            f"fleet: {self.join.fleet}",
            f"cabinet: {self.join.cabinet} at {self.join.location}",
            f"broker: {self.join.host}:{self.join.port} (TLS)",
            f"connected: {'yes' if self.connected else 'no'}"
            + (f" since {self.since}" if self.since else ""),
            f"queued: {self.queued}",
            f"last acknowledged: {self.acked} (epoch {self.epoch})",
            f"last error: {self.error or 'none'}",
            f"dropped: {dropped}",
        ]

    def to_json(self) -> dict[str, object]:
        return {
            "fleet": None if self.join is None else self.join.fleet,
            "cabinet": None if self.join is None else self.join.cabinet,
            "epoch": self.epoch,
            "connected": self.connected,
            "since": self.since or None,
            "queued": self.queued,
            "acked": self.acked,
            "error": self.error or None,
            "dropped": self.dropped,
        }


def read_status(conn: sqlite3.Connection) -> LinkStatus:
    """The link's state in the database open on ``conn``."""
    rows = outbox.fleet_values(conn)
    dropped = {
        name.removeprefix("dropped."): int(value)
        for name, value in rows.items()
        if name.startswith("dropped.") and value.isdigit()
    }
    acked = rows.get(ACKED, "0")
    return LinkStatus(
        join=Join.from_rows(rows),
        epoch=rows.get("epoch", ""),
        connected=rows.get(CONNECTED) == "yes",
        since=rows.get(SINCE, ""),
        queued=outbox.queued(conn),
        acked=int(acked) if acked.isdigit() else 0,
        error=rows.get(ERROR, ""),
        dropped=dropped,
    )
