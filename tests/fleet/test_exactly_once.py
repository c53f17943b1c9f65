"""Exactly once, end to end: games and coins on three cabinets arrive once each, the
fleet's totals equal each cabinet's books, and the acknowledgements empty the outboxes."""

from __future__ import annotations

from tests.fleet.conftest import Route
from tests.fleet.services import running
from tests.fleet.waiting import wait_for


def test_three_cabinets_arrive_once_each_and_their_outboxes_empty(route: Route) -> None:
    cabinets = [route.cabinet(f"bar-{i}", f"Venue {i}") for i in range(3)]
    for i, cabinet in enumerate(cabinets):
        for n in range(3 + i):
            cabinet.play(seed=10 * i + n)
            cabinet.coin(1 + n % 2)
    with running(route.broker, route.ingest):
        senders = [c.sender() for c in cabinets]
        for sender in senders:
            assert sender.start()
        try:
            for cabinet in cabinets:
                wait_for("the outbox to empty", lambda c=cabinet: c.queued() == 0, cabinet.changes)
        finally:
            for sender in senders:
                sender.stop()
    with route.db() as conn:
        for cabinet, name in zip(cabinets, ("bar-0", "bar-1", "bar-2"), strict=True):
            assert route.stored(name, "game") == cabinet.games
            assert route.stored(name, "money") == cabinet.coins
            (earned,) = conn.execute(
                "SELECT sum(earnings_cents) FROM rollups WHERE cabinet = %s AND period = 'day'",
                (name,),
            ).fetchone()
            assert earned == cabinet.earnings_cents() > 0
            (through,) = conn.execute(
                "SELECT max(through) FROM progress WHERE cabinet = %s", (name,)
            ).fetchone()
            assert through >= cabinet.games + cabinet.coins
