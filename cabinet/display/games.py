"""Where finished games go: :class:`GameSink` keeps the last few in memory (tests, the
benchmark, a cabinet with no store); :class:`StoredGames` also writes each into the
books, the cabinet's database (``spit-cabinet run``), with the hall-of-fame places its
figures take (:mod:`cabinet.display.fame_book`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cabinet.display.fame_book import FameBook
from cabinet.display.flow import GameFinished
from cabinet.halloffame.places import NewPlace

if TYPE_CHECKING:
    from cabinet.storage.store import CabinetStore


class GameSink:
    """Where finished games go (the books). The default keeps the last few in memory."""

    def __init__(self, keep: int = 50) -> None:
        self.keep = keep
        self.games: list[GameFinished] = []
        self.count = 0
        """Every game added, including those no longer kept."""

    def add(self, game: GameFinished) -> list[NewPlace]:
        """Keep ``game``; returns the hall-of-fame places it took (none here: no books)."""
        self.games.append(game)
        self.count += 1
        del self.games[: -self.keep]
        return []


class StoredGames(GameSink):
    """Finished and abandoned games go to the books (the database), one transaction each."""

    def __init__(self, store: CabinetStore) -> None:
        super().__init__()
        self.fame = FameBook(store)

    def add(self, game: GameFinished) -> list[NewPlace]:
        """Record ``game`` with the hall-of-fame places it took, in one transaction."""
        super().add(game)
        return self.fame.store_game(game)
