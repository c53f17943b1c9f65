"""The main loop's hold on the table: the game its referee plays onto, a game dropped, the
games the flow finished put in the books, and a table that died started again.

A table that died (a bug, or its process was killed) is restarted at once and counted
for the audits; one that refused to run as the cabinet is set up (no GPIO header, say) is
tried again less and less often (:data:`REFUSED_RETRY_NS`, doubling up to
:data:`REFUSED_RETRY_MAX_NS`) and is no restart for the audits. Either way the game it
was playing is abandoned into the books.
"""

from __future__ import annotations

import logging

from cabinet.display.books import Books
from cabinet.display.flow import Flow, GameFinished, InitialsEntered, Notice
from cabinet.shared.phase import Phase
from cabinet.table.interface import Table
from game.table_state import TableState
from game.units import S

# The main loop's logger: these lines keep the name they have always been logged under.
log = logging.getLogger("cabinet.display.app")

REFUSED_RETRY_NS = 2 * S
"""A table that refused to run is started again after this, then twice as long each time."""
REFUSED_RETRY_MAX_NS = 60 * S
"""At most this long between two tries of a table that refuses to run."""


class TableSupervisor:
    """The table and the flow's games on it, for :class:`~cabinet.display.app.CabinetApp`
    (the same table, flow and books as the app's)."""

    def __init__(self, table: Table, flow: Flow, books: Books) -> None:
        self.table = table
        self.flow = flow
        self.books = books
        self._fed: object = None
        """The game the referee was last pointed at."""
        self._refused_retry_at_ns = 0
        self._refused_wait_ns = REFUSED_RETRY_NS

    def follow(self) -> None:
        """Point the referee at the flow's current game: the one being readied or played,
        none on the other screens."""
        flow = self.flow
        target = flow.match if flow.phase in (Phase.READY, Phase.PLAY) else None
        if target is not self._fed:
            self._fed = target
            self.table.play_onto(target)

    def restart(self, now: int) -> None:
        """The table died: say so, count it, abandon the game it was playing (in the books
        as abandoned, from what it reported) and start a new one, rather than leave the
        cabinet dead. A table that refused to run is tried again after a wait that doubles
        each time, with its reason in one log line (and on the out-of-order screen)."""
        self.table.batches()  # the dead table's last words: why it stopped, if it said
        reason = self.table.refused
        if reason is None:
            log.error("the table stopped: restarting it", exc_info=self.table.error)
            self.books.count_table_restart()
            self._refused_wait_ns = REFUSED_RETRY_NS
        elif self._refused_retry_at_ns == 0:  # just refused: wait before trying again
            wait = self._refused_wait_ns
            if self.table.started:  # else spit-cabinet run says it, and stops
                log.error("the table cannot run: %s (trying again in %d s)", reason, wait // S)
            self._refused_retry_at_ns = now + wait
            self._refused_wait_ns = min(2 * wait, REFUSED_RETRY_MAX_NS)
            self.drop_game(now, table_died=True)
            return
        elif now < self._refused_retry_at_ns:
            return
        self._refused_retry_at_ns = 0
        self.table.revive()
        self.drop_game(now, table_died=True)

    def drop_game(self, now: int, *, table_died: bool = False) -> None:
        """Abandon the game being readied or played (into the books as abandoned) and give
        the referee none. When the table died, the game itself may be what broke: a game
        that cannot be abandoned cleanly is logged and dropped."""
        with self.table.hold():  # the referee thread lets go of the game first
            self._fed = None
            self.table.play_onto(None)
            try:
                self.flow.abandon(now)
            except Exception:
                if not table_died:
                    raise
                log.exception("the game could not be abandoned cleanly")
            finished = self.flow_update(now)
        self.into_books(finished, now)

    def flow_update(self, now: int) -> list[Notice]:
        """The flow's clock moves to ``now`` (call holding the table's lock); returns the
        games that ended and the initials entered, for :meth:`into_books` once the lock is
        let go."""
        return [n for n in self.flow.update(now) if isinstance(n, GameFinished | InitialsEntered)]

    def into_books(self, notices: list[Notice], now: int) -> None:
        """Record the games that ended (and let their record setters enter initials) and
        the initials entered."""
        games = [n for n in notices if isinstance(n, GameFinished)]
        made = self.books.keep_games(games)
        self.books.initials([n for n in notices if isinstance(n, InitialsEntered)])
        if made:
            self.flow.enter_initials(made, now)

    def table_state(self) -> TableState | None:
        """The table on screen: the demo's in attract, the game's while it is readied or
        played (read holding the table's lock), none on the other screens."""
        flow = self.flow
        if flow.phase is Phase.ATTRACT:
            return flow.demo.state()
        if flow.phase in (Phase.READY, Phase.PLAY) and flow.match is not None:
            with self.table.hold():
                return flow.match.state()
        return None
