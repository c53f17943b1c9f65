"""A year of a route's history for ``bench/route.py``: the route's shape (``--cabinets``
cabinets spread in turn over ``--locations`` venues named as pubs are, with opening hours
in Europe/London, a few open all day; about 30 games a day a cabinet), its history made
by the web tests' generator, :func:`tests.web.fill.fill` (every event kind in the wire's
shapes, the rollups as ingest counts them, presence, collections; its docstring has the
rows), seeded, ending at the run's moment.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tests.web.fill import HOURS, Route, RouteCabinet, Venue, spread
from tests.web.fill import fill as fill_history

_ADJECTIVES = (
    "Red", "Golden", "Black", "White", "Royal", "Old", "Crown", "Blue", "Green", "Silver",
)  # fmt: skip
_NOUNS = ("Lion", "Anchor", "Swan", "Bell", "Oak", "Stag", "Rose", "Fox", "Plough", "Mill")


def year_route(cabinets: int, locations: int) -> Route:
    """``cabinets`` cabinets ``cab-001``… at ``locations`` venues (each tenth open all day),
    the cabinets in order over the venues, 15 to 45 games on an average day (30 on the
    whole)."""
    venues = []
    for i in range(1, locations + 1):
        name = f"The {_ADJECTIVES[i % 10]} {_NOUNS[(i // 10 + i * 3) % 10]} {i}"
        opens, closes = ("00:00", "00:00") if i % 10 == 0 else HOURS[i % 4]
        venues.append(Venue(name, opens, closes, "Europe/London"))
    return Route(
        tuple(venues),
        tuple(
            RouteCabinet(f"cab-{n:03d}", (n - 1) * locations // cabinets, 15 + spread(n, 31))
            for n in range(1, cabinets + 1)
        ),
    )


def fill(
    conninfo: str,
    summaries: list[dict[str, Any]],
    *,
    cabinets: int = 500,
    locations: int = 50,
    days: int = 365,
    seed: int = 24,
    end: datetime | None = None,
    workers: int = 2,
) -> dict[str, int]:
    """Fill an empty fleet database (schema made) with ``days`` of :func:`year_route`'s
    history ending at ``end`` (default: now); ``summaries``: real games' summaries the game
    events carry. Returns the rows made, by table."""
    route = year_route(cabinets, locations)
    return fill_history(conninfo, route, summaries, days=days, seed=seed, end=end, workers=workers)
