"""Cabinets for the fleet's tests: the real store on a database on disk, joined with the
real join file, reporting through the real sender (tuned to notice a lost link within
seconds), fed games and coins through the store's own API. What changes a cabinet (a
commit of its store, a change of its link) is said on its :attr:`Cabinet.changes`, which
the tests' waits block on."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from pathlib import Path

from cabinet.halloffame.board import Candidate, Category
from cabinet.link import membership
from cabinet.link.sender import Sender
from cabinet.money.ledger import Ledger
from cabinet.money.pricing import Pricing
from cabinet.storage import outbox, settings_documents
from cabinet.storage.audit_counts import MoneyCounts
from cabinet.storage.settings_documents import Decided
from cabinet.storage.store import CabinetStore
from fleet.join_file import read_join
from game.bots import level
from game.cpu_match import CpuGame, play_cpu_game
from game.edges import Button
from game.record import MatchRecord
from game.summary import Seat
from tests.fleet.waiting import Changes, wait_for

PRICING = Pricing(free_play=False, coin_cents=(100, 200))


@functools.cache
def cpu_game(seed: int) -> CpuGame:
    """A real CPU-vs-CPU game, played once per seed."""
    return play_cpu_game(seed, (level(3), level(4)))


def without_presses(record: MatchRecord, player: int, button: Button) -> MatchRecord:
    """``record`` as the cabinet would have it with ``player``'s ``button`` switch dead."""
    edges = tuple(e for e in record.edges if (e.player, e.button) != (player, button))
    return dataclasses.replace(record, edges=edges)


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
    """One cabinet's books, joined to a fleet with ``join_file``; :attr:`changes`: each
    commit of its store, and each change of the links :meth:`sender` made."""

    def __init__(self, data_dir: Path, join_file: Path | None) -> None:
        self.data_dir = data_dir
        self.changes = Changes()
        self.store = CabinetStore.open(data_dir, synced=lambda: True)
        self.store.db.committed.append(self.changes.note)
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
        sender = fast(Sender(self.path, version=version, synced=lambda: True))
        sender.changed.append(self.changes.note)
        return sender

    def play(
        self,
        seed: int,
        seats: Sequence[Seat] = (Seat.CPU, Seat.CPU),
        *,
        dead: tuple[int, Button] | None = None,
    ) -> int:
        """Record a real game; ``dead``: ``(player, button)`` whose switch never closed in it
        (only people's seats count for the missing-switch audit)."""
        game = cpu_game(seed)
        record = game.record if dead is None else without_presses(game.record, *dead)
        self.games += 1
        return self.store.record_game(record, game.summary, seats)

    def set_record(self, seed: int, category: Category, figure: int, initials: str) -> None:
        """A game whose player 1 (a person) places in ``category`` with ``figure``, then
        enters ``initials``, as the hall of fame's entry screen stores them."""
        game = cpu_game(seed)
        game_id = self.store.record_game(
            game.record,
            game.summary,
            (Seat.HUMAN, Seat.CPU),
            places=[Candidate(0, category, figure)],
        )
        (entry,) = self.store.fame_entries_of(game_id)
        self.store.set_initials(entry.entry_id, initials)

    def decide(self, count: int) -> list[Decided]:
        """Decide the settings documents the link holds, as the display does once a second,
        until ``count`` are decided."""
        decided: list[Decided] = []

        def look() -> bool:
            decided.extend(settings_documents.take(self.store))
            return len(decided) >= count

        wait_for(f"{count} decisions", look, self.changes)
        return decided

    def attract_champions(self) -> tuple[list[str], list[str]]:
        """The route champions' turn of attract as this cabinet's display draws it (a
        headless display on a virtual clock, the renderer's display list): each row's
        category title, and its initials, figure and venue."""
        import pygame

        from cabinet.drawing.fame_views import ChampionsView
        from game.units import S
        from tests.cabinet.service.conftest import Cabinet as Screen

        pygame.display.init()
        pygame.font.init()
        cab = Screen(pygame.display.set_mode((960, 540)), self.store, backend="mock")
        try:
            for _ in range(200):  # attract's turns, half a second at a time
                cab.clock.advance(S // 2)
                cab.app.step(cab.clock())
                if isinstance(cab.app.last_view, ChampionsView):
                    break
            assert isinstance(cab.app.last_view, ChampionsView), cab.app.last_view
            shown = cab.app.renderer.display_list
            titles = [i.text for i in shown if i.kind == "champion_title"]
            rows = [i.text for i in shown if i.kind == "champion_row"]
            return titles, rows
        finally:
            cab.close()
            pygame.display.quit()

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
