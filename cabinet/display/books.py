"""The books the display process keeps: each finished game into the game sink (and
the hall of fame's new places out of it, :mod:`cabinet.display.fame_book`), the initials
players enter, and what the display sees counted into the audits (stuck switches,
chatter, LED link drops, table restarts). A storage failure (disk full, card gone) never
stops the cabinet: it is logged, and the audits roll back with their transaction."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable

from cabinet.display.fame_book import FameBook, by_player
from cabinet.display.flow import GameFinished, InitialsEntered
from cabinet.display.games import GameSink
from cabinet.display.lights_output import LightsOutput
from cabinet.halloffame.places import NewPlace
from cabinet.inputs.debounce import SwitchStuck
from cabinet.inputs.feed import FeedEvent
from cabinet.storage.problems import StorageError
from cabinet.storage.store import CabinetStore
from cabinet.table.interface import Table

log = logging.getLogger(__name__)


class Books:
    """One cabinet's books: ``games`` takes the finished games, ``store`` (if any) the
    audits and initials; the ``table``'s switches and the ``lights``' link are read for
    the counts."""

    def __init__(
        self,
        table: Table,
        games: GameSink,
        lights: LightsOutput,
        store: CabinetStore | None = None,
    ) -> None:
        self.table = table
        self.games = games
        self.lights = lights
        self.store = store
        self.fame = FameBook(store) if store is not None else None
        """Where the initials players enter go (no store: nowhere)."""
        self._chatter_seen: dict[object, int] = {}
        self._link_drops_seen = 0

    def sync_audits(self) -> None:
        """Count chatter and light link drops seen since the last sync into the audits
        (in memory: the next transaction writes them)."""
        store = self.store
        if store is None:
            return
        for status in self.table.switches:
            seen = self._chatter_seen.get(status.control, 0)
            if status.chatter > seen:
                store.audits.count_chatter(status.control, status.chatter - seen)
            self._chatter_seen[status.control] = status.chatter
        health = self.lights.health()
        if health is not None:
            reconnects = health.reconnects
            if reconnects > self._link_drops_seen:
                store.audits.count_link_drop(reconnects - self._link_drops_seen)
            self._link_drops_seen = reconnects

    def count_stuck(self, batch: Iterable[FeedEvent]) -> None:
        if self.store is not None:
            for item in batch:
                if isinstance(item, SwitchStuck):
                    self.store.audits.count_stuck(item.control)

    def count_table_restart(self) -> None:
        if self.store is not None:
            self.store.audits.count_table_restart()

    def keep_games(self, finished: list[GameFinished]) -> dict[int, list[NewPlace]]:
        """Into the books (call with the table's lock let go); returns the hall-of-fame
        places the games took, by player. A storage failure (disk full, card gone) must
        not stop the cabinet: it is logged, and the audits were rolled back with the
        transaction."""
        made: list[NewPlace] = []
        for game in finished:
            self.sync_audits()
            try:
                made.extend(self.games.add(game))
            except (sqlite3.Error, OSError, StorageError):
                log.exception("a game could not be recorded")
                continue
            if game.number is not None:
                self.table.recorded(game.number)  # the table may forget it now
        return by_player(made)

    def initials(self, entered: list[InitialsEntered]) -> None:
        """A player's initials into the hall of fame (one transaction each)."""
        if self.fame is not None:
            self.fame.save_initials(entered)
