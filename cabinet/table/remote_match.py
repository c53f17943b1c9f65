"""The flow's handle on a game the table process plays (:class:`RemoteMatch`): what the
table decided (the latest :class:`~game.table_state.TableState`, the events, and every
edge the referee took), so the screen can draw it and the display can write the game's
replayable record to the books, even when the table is gone.
:class:`~cabinet.table.remote.RemoteTable` makes one for each game it starts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cabinet.table.messages import Decided, StartGame
from game.bots import Level
from game.cards import Card, shuffled_deck
from game.edges import Edge
from game.events import Event, Outcome
from game.record import MatchRecord, replay
from game.record_parts import RecordMeta
from game.rules import Rules
from game.summary import GameSummary, Seat, summarize
from game.table_state import TableState

if TYPE_CHECKING:
    from cabinet.table.remote import RemoteTable  # it makes the matches: typed only


class RemoteMatch:
    """A game the table process plays, as the display knows it: built from the same
    rules, seed and seats as the table's :class:`~game.live_match.LiveMatch`, and kept
    up to date by :meth:`absorb`."""

    def __init__(
        self,
        table: RemoteTable,
        game: int,
        rules: Rules,
        seed: int,
        cpu_levels: Sequence[Level | None],
        start_abs_ns: int,
    ) -> None:
        self.table = table
        self.number: int | None = game
        self._game = game
        """The display's number for this game (the table's reports carry it)."""
        self.rules = rules
        self.seed = seed
        self.start_abs_ns = start_abs_ns
        self.decks: tuple[tuple[Card, ...], tuple[Card, ...]] = (
            shuffled_deck(seed, 0),
            shuffled_deck(seed, 1),
        )
        self.humans = tuple(p for p, lv in enumerate(cpu_levels) if lv is None)
        self._levels = tuple(None if lv is None else lv.number for lv in cpu_levels)
        self.events: list[Event] = []
        self.edges: list[Edge] = []
        self._state: TableState | None = None
        self._abandoned_ns: int | None = None
        table.send(StartGame(game, rules, seed, (self._levels[0], self._levels[1]), start_abs_ns))

    # -- what the table decided --------------------------------------------------------

    def absorb(self, decided: Decided) -> None:
        """Take in one of the table's reports on this game."""
        if decided.state is not None:
            self._state = decided.state
        self.edges.extend(decided.edges)
        self.events.extend(e for e in decided.batch if isinstance(e, Event))

    def state(self) -> TableState:
        """The table as last decided (the deal, before the first report)."""
        if self._state is None:
            self._state = TableState.of(replay(self.record()).referee)
        return self._state

    @property
    def outcome(self) -> Outcome | None:
        return None if self._state is None else self._state.outcome

    @property
    def over(self) -> bool:
        return self.outcome is not None or self._abandoned_ns is not None

    def to_match(self, abs_ns: int) -> int:
        return max(0, abs_ns - self.start_abs_ns)

    def to_abs(self, match_ns: int) -> int:
        return match_ns + self.start_abs_ns

    # -- ending it -----------------------------------------------------------------------

    def abandon(self, now_abs_ns: int) -> list[Event]:
        """Stop the game with no winner: the table stops playing it; the record holds
        every edge the table reported."""
        if self.outcome is None and self._abandoned_ns is None:
            self._abandoned_ns = max(self.to_match(now_abs_ns), self._clock_ns())
        self.table.stop_game(self._game, now_abs_ns)
        return []

    def record(self) -> MatchRecord:
        """The game's record, replayable to :meth:`summary`'s result."""
        return MatchRecord(
            rules=self.rules,
            decks=self.decks,
            edges=tuple(self.edges),
            seed=self.seed,
            end_ns=self._clock_ns(),
            meta=RecordMeta(
                seats=(Seat.of(self._levels[0]), Seat.of(self._levels[1])),
                levels=(self._levels[0], self._levels[1]),
            ),
            abandoned_ns=self._abandoned_ns,
        )

    def summary(self) -> GameSummary:
        """The game's summary, from replaying its record (exactly as the table played)."""
        played = replay(self.record())
        return summarize(played.game, played.referee, played.events)

    def _clock_ns(self) -> int:
        state = self._state
        last = self.edges[-1].delivered_ns if self.edges else None
        return max(state.now_ns if state is not None else 0, last or 0)
