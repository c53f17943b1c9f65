"""The messages ingest refused, as counted per cabinet and refusal (``refused_counts``,
:func:`fleet.store.refuse`): for a cabinet's page and the route's refused-messages page.
Bounded reads: a row per cabinet and refusal, at most :data:`ROUTE_LIMIT` on the route's
page."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import psycopg

from fleet.wire_common import Refusal

ROUTE_LIMIT = 500
"""The most rows the route's page lists (the latest refused first)."""

TITLES: dict[str, str] = {
    Refusal.OVERSIZED: "Too large",
    Refusal.NOT_JSON: "Not JSON",
    Refusal.WIRE_VERSION: "Another wire version",
    Refusal.MALFORMED: "Malformed",
    Refusal.TOPIC: "Not its topic",
    Refusal.WRONG_CABINET: "Claims another cabinet's name",
    Refusal.REVOKED: "From a revoked cabinet",
    Refusal.UNKNOWN_CABINET: "From a cabinet not in the fleet",
}
"""Each refusal as the pages name it (docs/fleet.md says what to do about each)."""


@dataclass(frozen=True, slots=True)
class RefusedCount:
    """How many messages of ``cabinet`` (``""``: a topic naming none) were refused for
    ``refusal``, the first and the last time, and the last one's reason in full."""

    cabinet: str
    refusal: str
    count: int
    first_at: datetime.datetime
    last_at: datetime.datetime
    last_reason: str
    known: bool
    """Whether ``cabinet`` is one of the fleet's (its page can be opened)."""

    @property
    def title(self) -> str:
        return TITLES.get(self.refusal, self.refusal)


_SELECT = (
    "SELECT r.cabinet, r.refusal, r.count, r.first_at, r.last_at, r.last_reason, "
    "c.name IS NOT NULL FROM refused_counts r LEFT JOIN cabinets c ON c.name = r.cabinet "
)


def of_cabinet(conn: psycopg.Connection[Any], name: str) -> list[RefusedCount]:
    """Cabinet ``name``'s refused messages, by refusal, the latest refused first."""
    rows = conn.execute(
        _SELECT + "WHERE r.cabinet = %s ORDER BY r.last_at DESC, r.refusal", (name,)
    ).fetchall()
    return [RefusedCount(*row) for row in rows]


def of_route(conn: psycopg.Connection[Any]) -> list[RefusedCount]:
    """The route's refused messages by cabinet and refusal, the latest refused first (at
    most :data:`ROUTE_LIMIT`)."""
    rows = conn.execute(
        _SELECT + "ORDER BY r.last_at DESC, r.cabinet, r.refusal LIMIT %s", (ROUTE_LIMIT,)
    ).fetchall()
    return [RefusedCount(*row) for row in rows]
