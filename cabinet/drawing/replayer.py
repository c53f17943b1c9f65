"""A recorded match played back in virtual time, a frame at a time.

The attract screen's CPU demo, the display tests and the display benchmark all need a
real game that unfolds as the clock moves: :class:`MatchPlayer` feeds a
:class:`~game.record.MatchRecord`'s edges to a fresh referee as the clock passes each
edge's delivery time, exactly as :func:`game.record.replay` does all at once.
"""

from __future__ import annotations

from game.events import Event
from game.record import MatchRecord, start_match
from game.referee import Referee


class MatchPlayer:
    """Plays ``record`` back: call :meth:`advance` with a clock that never goes back."""

    def __init__(self, record: MatchRecord) -> None:
        self.record = record
        self.referee: Referee = start_match(record.rules, record.decks, record.seed)
        self._edges = record.edges
        self._next = 0

    @property
    def finished(self) -> bool:
        """The game is over (won, blocked or abandoned)."""
        return self.referee.game.outcome is not None

    @property
    def end_ns(self) -> int:
        """The record's last clock reading (ns)."""
        return self.record.clock_end_ns

    def advance(self, now_ns: int) -> list[Event]:
        """Deliver every edge delivered by ``now_ns`` and move the referee's clock there;
        returns the events this decided, in order."""
        events: list[Event] = []
        edges = self._edges
        referee = self.referee
        while self._next < len(edges):
            edge = edges[self._next]
            delivered = edge.delivered_ns
            assert delivered is not None
            if delivered > now_ns:
                break
            events.extend(referee.take(edge, max(delivered, referee.now_ns)))
            self._next += 1
        if now_ns >= referee.now_ns:
            events.extend(referee.tick(now_ns))
        return events
