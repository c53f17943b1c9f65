"""Cabinets for the fleet's tests: the real store on a database on disk, joined with the
real join file, reporting through the real sender (tuned to notice a lost link within
seconds), fed games and coins through the store's own API."""

from __future__ import annotations

import functools
from pathlib import Path

from cabinet.link import membership
from cabinet.link.sender import Sender
from cabinet.money.ledger import Ledger
from cabinet.money.pricing import Pricing
from cabinet.storage import outbox
from cabinet.storage.audit_counts import MoneyCounts
from cabinet.storage.store import CabinetStore
from fleet.join_file import read_join
from game.bots import level
from game.cpu_match import CpuGame, play_cpu_game
from game.summary import Seat

PRICING = Pricing(free_play=False, coin_cents=(100, 200))


@functools.cache
def cpu_game(seed: int) -> CpuGame:
    """A real CPU-vs-CPU game, played once per seed."""
    return play_cpu_game(seed, (level(3), level(4)))


def fast(sender: Sender) -> Sender:
    """A sender that notices a lost broker in seconds, not minutes."""
    sender.poll_s = 0.01
    sender.resend_after_s = 3.0
    sender.backoff_min_s = 0.1
    sender.backoff_max_s = 1.0
    sender.keepalive_s = 2
    sender.heartbeat_s = 3600.0
    return sender


class Cabinet:
    """One cabinet's books, joined to a fleet with ``join_file``."""

    def __init__(self, data_dir: Path, join_file: Path | None) -> None:
        self.data_dir = data_dir
        self.store = CabinetStore.open(data_dir, synced=lambda: True)
        if join_file is not None:
            with self.store.db.transaction() as conn:
                membership.join(conn, read_join(join_file))
        self.games = 0
        self.coins = 0

    @property
    def path(self) -> Path:
        assert self.store.path is not None
        return self.store.path

    def sender(self, version: str = "test") -> Sender:
        return fast(Sender(self.path, version=version, synced=lambda: True))

    def play(self, seed: int) -> int:
        game = cpu_game(seed)
        self.games += 1
        return self.store.record_game(game.record, game.summary, (Seat.CPU, Seat.CPU))

    def coin(self, mech: int = 1) -> None:
        before = Ledger.from_rows(dict(self.store.money))
        after = before.insert(mech, PRICING, units=PRICING.units_of(mech))
        counted = MoneyCounts(
            coins1=int(mech == 1),
            coins2=int(mech == 2),
            coin_units=PRICING.units_of(mech),
            earnings_cents=PRICING.cents_of(mech),
            paid_credits=after.credits_paid - before.credits_paid,
        )
        self.store.commit_money(after.as_rows(), counted)
        self.coins += 1

    def queued(self) -> int:
        return outbox.queued(self.store.db.connection)

    def earnings_cents(self) -> int:
        return _earnings(self.store)

    def close(self) -> None:
        self.store.close()


def _earnings(store: CabinetStore) -> int:
    (value,) = store.db.connection.execute(
        "SELECT lifetime FROM audit_counters WHERE name = 'money.earnings_cents'"
    ).fetchone()
    return int(value)
