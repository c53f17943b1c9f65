"""The hall of fame's way, from a finished game to stored initials, in one place.

The flow works out the figures people set in a game (:attr:`GameFinished.candidates`);
:meth:`FameBook.store_game` keeps those the board keeps (:func:`kept_places`), stores them
with the game in one transaction (:meth:`CabinetStore.record_game`, blank initials) and
returns their entries (:class:`NewPlace`); the flow's initials screen asks each of those
players for initials (:meth:`Flow.enter_initials`, grouped by :func:`by_player`); and
:meth:`FameBook.save_initials` writes what each entered (:class:`InitialsEntered`) into
their entries. A storage failure is logged and never stops the cabinet.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterable

from cabinet.display.flow import GameFinished, InitialsEntered
from cabinet.halloffame.board import kept_places
from cabinet.halloffame.places import NewPlace
from cabinet.storage.problems import StorageError
from cabinet.storage.store import CabinetStore

log = logging.getLogger("cabinet.display.books")  # the log lines read as before the move


class FameBook:
    """The hall of fame of ``store``: a finished game's places in, initials in."""

    def __init__(self, store: CabinetStore) -> None:
        self.store = store

    def store_game(self, game: GameFinished) -> list[NewPlace]:
        """Record ``game`` with the places its figures take (those the board keeps), in
        one transaction; returns those places' entries."""
        store = self.store
        kept = kept_places(store.fame, game.candidates)
        game_id = store.record_game(
            game.record,
            game.summary,
            game.players,
            now_ns=time.monotonic_ns(),
            places=kept,
        )
        ids = [place.entry_id for place in store.fame_entries_of(game_id)]
        return [NewPlace(i, c) for i, c in zip(ids, kept, strict=True)]

    def save_initials(self, entered: Iterable[InitialsEntered]) -> None:
        """Each player's initials into their entries (one transaction each)."""
        for done in entered:
            for entry_id in done.entry_ids:
                try:
                    self.store.set_initials(entry_id, done.initials)
                except (sqlite3.Error, OSError, StorageError):
                    log.exception("initials could not be saved")


def by_player(places: Iterable[NewPlace]) -> dict[int, list[NewPlace]]:
    """``places`` grouped by the player who set them, in order."""
    grouped: dict[int, list[NewPlace]] = {}
    for place in places:
        grouped.setdefault(place.player, []).append(place)
    return grouped
