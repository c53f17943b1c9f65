"""Where finished games go: :class:`RecordSink` keeps the last few in memory (tests, the
benchmark, a cabinet with no store); :class:`StoredRecords` also writes each into the
books, the cabinet's database (``spit-cabinet run``)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from cabinet.display.flow import GameFinished
from cabinet.halloffame.board import Candidate, kept_places

if TYPE_CHECKING:
    from cabinet.storage.store import CabinetStore

NewRecords = list[tuple[int, Candidate]]
"""Hall-of-fame entries a game made: ``(entry id, candidate)`` each."""


class RecordSink:
    """Where finished games go (the books). The default keeps the last few in memory."""

    def __init__(self, keep: int = 50) -> None:
        self.keep = keep
        self.games: list[GameFinished] = []
        self.count = 0
        """Every game added, including those no longer kept."""

    def add(self, game: GameFinished) -> NewRecords:
        """Keep ``game``; returns the hall-of-fame entries it made (none here: no books)."""
        self.games.append(game)
        self.count += 1
        del self.games[: -self.keep]
        return []


class StoredRecords(RecordSink):
    """Finished and abandoned games go to the books (the database), one transaction each."""

    def __init__(self, store: CabinetStore) -> None:
        super().__init__()
        self.store = store

    def add(self, game: GameFinished) -> NewRecords:
        """Record ``game`` with the hall-of-fame places it made, in one transaction."""
        super().add(game)
        store = self.store
        kept = kept_places(store.fame, game.records)
        game_id = store.record_game(
            game.record,
            game.summary,
            game.players,
            now_ns=time.monotonic_ns(),
            records=[(c.category, c.figure) for c in kept],
        )
        ids = [entry_id for entry_id, _, _ in store.fame_entries_of(game_id)]
        return list(zip(ids, kept, strict=True))
