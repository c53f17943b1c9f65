"""The places a game takes in the hall of fame, as typed values: :class:`StoredPlace` is
an entry as the books hold it (initials still blank), :class:`NewPlace` the same entry
with the figure that took it, for the player who will enter initials for it."""

from __future__ import annotations

from dataclasses import dataclass

from cabinet.halloffame.board import Candidate, Category


@dataclass(frozen=True, slots=True)
class StoredPlace:
    """A hall-of-fame entry a game set, as stored: its row's id, category and figure."""

    entry_id: int
    category: Category
    figure: int


@dataclass(frozen=True, slots=True)
class NewPlace:
    """A place a person's figure took (``candidate``), stored as entry ``entry_id``."""

    entry_id: int
    candidate: Candidate

    @property
    def player(self) -> int:
        return self.candidate.player
