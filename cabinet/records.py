"""Where finished games go: :class:`RecordSink` keeps the last few in memory (tests, the
benchmark, a cabinet with no store); :class:`StoredRecords` also writes each into the
books, the cabinet's database (``spit-cabinet run``)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from cabinet.flow import GameFinished

if TYPE_CHECKING:
    from cabinet.storage.store import CabinetStore


class RecordSink:
    """Where finished games go (the books). The default keeps the last few in memory."""

    def __init__(self, keep: int = 50) -> None:
        self.keep = keep
        self.games: list[GameFinished] = []
        self.count = 0
        """Every game added, including those no longer kept."""

    def add(self, game: GameFinished) -> None:
        self.games.append(game)
        self.count += 1
        del self.games[: -self.keep]


class StoredRecords(RecordSink):
    """Finished and abandoned games go to the books (the database), one transaction each."""

    def __init__(self, store: CabinetStore) -> None:
        super().__init__()
        self.store = store

    def add(self, game: GameFinished) -> None:
        super().add(game)
        self.store.record_game(game.record, game.summary, game.players, now_ns=time.monotonic_ns())
