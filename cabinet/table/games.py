"""The games the table holds, and their way into the books when the display cannot
take them.

Every game the table starts stays with it until the display says it has recorded it
(:class:`~cabinet.table.messages.Recorded`). When the display goes away without saying
so, :func:`record_games` writes them into the books itself, so none is lost.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from game.live_match import LiveMatch
from game.record_parts import RecordResult
from game.summary import Seat

log = logging.getLogger(__name__)


@dataclass(slots=True)
class TableGame:
    """One game the table started: its match, who sits at each seat, and how many of the
    referee's edges have gone to the display."""

    match: LiveMatch
    players: tuple[Seat, Seat]
    sent_edges: int = 0


def record_games(data_dir: Path | None, games: Mapping[int, TableGame]) -> bool:
    """Write every one of ``games`` (each over by now) into the books in ``data_dir``, in
    the order of their ids. ``False`` when none could be, the log saying why (no data
    directory, the books would not open)."""
    if data_dir is None:
        log.warning("%d game(s) not recorded: no data directory", len(games))
        return False
    from cabinet.storage.database import Access
    from cabinet.storage.problems import StorageError
    from cabinet.storage.store import CabinetStore

    try:  # never into memory, which would keep nothing
        store = CabinetStore.open(data_dir, access=Access.WRITE)
    except StorageError as exc:
        log.error("%d game(s) not recorded: %s", len(games), exc)
        return False
    try:
        for game_id, game in sorted(games.items()):
            summary = game.match.summary()
            record = game.match.record().with_result(RecordResult.of(summary))
            store.record_game(record, summary, game.players)
            termination = None if summary.termination is None else summary.termination.value
            log.info("game %d recorded by the table as %s", game_id, termination)
    finally:
        store.close()
    return True
