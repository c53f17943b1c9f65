"""The rules engine: one game of Spit, exactly as docs/rules.md says.

The engine is pure and deterministic. It never reads a clock: every call that changes
state carries ``t_ns`` (integer nanoseconds on the match's monotonic clock), and calls
must come in ``t_ns`` order (equal times are allowed; the referee decides their order).
Rule timing (R11's spit countdown, R10's *beaten* window) is owned here; ``advance(t_ns)``
fires whatever has fallen due.

Every call appends events (see :mod:`game.events`) to an internal list that
:meth:`Game.take_events` hands over and clears.

Players, slots and piles are 0-based here: player 0 is the rules' player 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from game.cards import ALL_CARDS, Card, shuffled_deck, validate_deck
from game.events import (
    EngineEvent,
    GameOver,
    Outcome,
    Played,
    Refilled,
    Rejected,
    RejectReason,
    Spat,
    SpitDue,
    Started,
    StuckChanged,
    Termination,
)
from game.fits import either_table
from game.fits import fitting_ranks as fitting_ranks  # re-exported: it used to live here
from game.rules import Rules

SLOTS = 4
PILES = 2
PLAYERS = 2
TOTAL_CARDS = 104


class OutOfOrderError(ValueError):
    """A call carried a ``t_ns`` older than one already applied."""


class PositionError(ValueError):
    """An explicit position is not one a game of Spit can be in."""


class BadMoveError(ValueError):
    """A player, slot or pile number is out of range."""


@dataclass(frozen=True, slots=True)
class PlayResult:
    """What became of one play: accepted, or rejected with its reason."""

    accepted: bool
    reason: RejectReason | None = None
    margin_ns: int | None = None
    """For a beaten play: how long after the opponent's winning play it arrived (ns)."""


ACCEPTED = PlayResult(True)
_REFUSED = {reason: PlayResult(False, reason) for reason in RejectReason}


class Game:
    """One game between two players, from the deal to its outcome."""

    def __init__(self, decks: Sequence[Sequence[Card]], rules: Rules | None = None) -> None:
        """Deal from two explicit decks, each listed top card first (R1, R3).

        Raises :class:`~game.cards.DeckError` when a deck is not exactly 52 distinct cards.
        """
        if len(decks) != PLAYERS:
            raise BadMoveError(f"a game needs exactly 2 decks, got {len(decks)}")
        checked = [validate_deck(d, name=f"player {p + 1}'s deck") for p, d in enumerate(decks)]
        self.rules = rules if rules is not None else Rules()
        self._fits = fitting_ranks(self.rules.ace_wraps)
        self._fits_either = either_table(self._fits)
        self._spit_delay_ns = self.rules.spit_delay_ns
        self._beaten_window_ns = self.rules.beaten_window_ns
        # Each deck is kept bottom first so the top is popped from the end.
        self._deck: list[list[Card]] = [list(reversed(d)) for d in checked]
        self._layout: list[list[Card | None]] = [
            [self._deck[p].pop() for _ in range(SLOTS)] for p in range(PLAYERS)
        ]
        self._piles: list[list[Card]] = [[] for _ in range(PILES)]
        # Per pile: (player, t_ns, previous top) of its latest play, for R10's "beaten".
        self._last_play: list[tuple[int, int, Card] | None] = [None] * PILES
        self._stuck = [False, False]
        self._started = False
        self._outcome: Outcome | None = None
        self._spit_due_ns: int | None = None
        self._last_t_ns: int | None = None
        self._events: list[EngineEvent] = []
        self.spits = 0
        """How many times spit was called after both were stuck (the start not counted)."""

    @classmethod
    def from_seed(cls, seed: int, rules: Rules | None = None) -> Game:
        """Deal two decks shuffled from ``seed``, the same on every platform."""
        return cls((shuffled_deck(seed, 0), shuffled_deck(seed, 1)), rules)

    @classmethod
    def from_position(
        cls,
        *,
        decks: Sequence[Sequence[Card]],
        layouts: Sequence[Sequence[Card | None]],
        piles: Sequence[Sequence[Card]],
        rules: Rules | None = None,
        t_ns: int = 0,
    ) -> Game:
        """A game already running at ``t_ns`` in an explicit position: decks top card
        first, layouts as four slots (``None`` for an empty one), piles bottom card first.

        For tests, puzzles and analysis. The position must be one play can reach: all
        104 cards, each exactly twice over the two players' decks (R14); four slots a
        player (R3); a slot empty only when that player's deck is (R9); both piles
        started (R5). Stuck players and a due spit are worked out as in play.
        """
        if len(decks) != PLAYERS or len(layouts) != PLAYERS or len(piles) != PILES:
            raise PositionError("a position has two decks, two layouts and two piles")
        everything: list[Card] = []
        for p in range(PLAYERS):
            if len(layouts[p]) != SLOTS:
                raise PositionError(f"player {p + 1}'s layout has {len(layouts[p])} slots, not 4")
            if decks[p] and any(c is None for c in layouts[p]):
                raise PositionError(f"player {p + 1} has an empty slot but cards in the deck (R9)")
            everything.extend(decks[p])
            everything.extend(c for c in layouts[p] if c is not None)
        for i, pile in enumerate(piles):
            if not pile:
                raise PositionError(f"pile {i + 1} is empty: both piles start with a card (R5)")
            everything.extend(pile)
        counts = Counter(everything)
        wrong = sorted(c.notation() for c in ALL_CARDS if counts.get(c, 0) != PLAYERS)
        if wrong or len(everything) != TOTAL_CARDS:
            named = ", ".join(wrong[:6])
            raise PositionError(f"a position holds each card exactly twice (R14); not {named}")
        game = cls((ALL_CARDS, ALL_CARDS), rules)
        game._deck = [list(reversed(d)) for d in decks]
        game._layout = [list(layout) for layout in layouts]
        game._piles = [list(pile) for pile in piles]
        game._started = True
        game._last_t_ns = t_ns
        game._update_stuck(t_ns)
        return game

    # -- state changes -------------------------------------------------------------

    def start(self, t_ns: int) -> None:
        """R5: each player's deck top goes onto their own pile; play starts."""
        self._check_time(t_ns)
        if self._started:
            raise RuntimeError("the game has already started")
        self._started = True
        tops = (self._deck[0].pop(), self._deck[1].pop())
        self._piles[0].append(tops[0])
        self._piles[1].append(tops[1])
        self._events.append(Started(t_ns, tops))
        self._update_stuck(t_ns)

    def play(self, player: int, slot: int, pile: int, t_ns: int) -> PlayResult:
        """Play ``player``'s card in ``slot`` onto ``pile`` at ``t_ns`` (R7 to R10, R12)."""
        if player not in (0, 1) or not 0 <= slot < SLOTS or pile not in (0, 1):
            raise BadMoveError(f"no such play: player {player}, slot {slot}, pile {pile}")
        if self._spit_due_ns is None:
            self._check_time(t_ns)
        else:
            self.advance(t_ns)
        if not self._started or self._outcome is not None:
            return self._reject(player, slot, pile, t_ns, RejectReason.NOT_RUNNING)
        layout = self._layout[player]
        card = layout[slot]
        if card is None:
            return self._reject(player, slot, pile, t_ns, RejectReason.EMPTY_SLOT)
        target = self._piles[pile]
        top = target[-1]
        if card.rank not in self._fits[top.rank]:
            last = self._last_play[pile]
            if (
                last is not None
                and last[0] != player
                and t_ns - last[1] <= self._beaten_window_ns
                and card.rank in self._fits[last[2].rank]
            ):
                margin = t_ns - last[1]
                return self._reject(player, slot, pile, t_ns, RejectReason.BEATEN, margin)
            return self._reject(player, slot, pile, t_ns, RejectReason.ILLEGAL)

        target.append(card)
        self._last_play[pile] = (player, t_ns, top)
        events = self._events
        events.append(Played(t_ns, player, slot, pile, card))
        deck = self._deck[player]
        if deck:
            refill = deck.pop()
            layout[slot] = refill
            events.append(Refilled(t_ns, player, slot, refill))
        else:
            layout[slot] = None
            if not any(layout):
                self._finish(t_ns, Termination.WENT_OUT, player)
                return ACCEPTED
        self._update_stuck(t_ns)
        return ACCEPTED

    def advance(self, t_ns: int) -> None:
        """Move the engine's clock to ``t_ns``, firing spits that fall due by then (R11)."""
        last = self._last_t_ns
        if last is not None and t_ns < last:
            raise OutOfOrderError(f"t_ns {t_ns} is older than {last}, already applied")
        self._last_t_ns = t_ns
        due = self._spit_due_ns
        if due is None:
            return
        while due is not None and due <= t_ns and self._outcome is None:
            self._spit(due)
            due = self._spit_due_ns

    def abandon(self, t_ns: int) -> None:
        """End the game with no winner (the cabinet stopped it)."""
        self._check_time(t_ns)
        if self._outcome is None:
            self._finish(t_ns, Termination.ABANDONED, None)

    def take_events(self) -> list[EngineEvent]:
        """The events since the last call, in order; the engine forgets them."""
        events = self._events.copy()
        self._events.clear()
        return events

    def send_events_to(self, sink: list[Any]) -> None:
        """From now on, append events straight to ``sink`` (the referee's own list, so
        that engine and referee events stay in one order with no copying)."""
        sink.extend(self._events)
        self._events = sink

    # -- queries -------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self._started

    @property
    def running(self) -> bool:
        return self._started and self._outcome is None

    @property
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""
        return self._outcome

    @property
    def spit_due_ns(self) -> int | None:
        """When the running spit countdown ends, or ``None``."""
        return self._spit_due_ns

    def layout(self, player: int) -> tuple[Card | None, ...]:
        return tuple(self._layout[player])

    def pile_top(self, pile: int) -> Card | None:
        cards = self._piles[pile]
        return cards[-1] if cards else None

    def pile_size(self, pile: int) -> int:
        return len(self._piles[pile])

    def pile(self, pile: int) -> tuple[Card, ...]:
        """A centre pile, bottom card first."""
        return tuple(self._piles[pile])

    def deck_size(self, player: int) -> int:
        return len(self._deck[player])

    def deck(self, player: int) -> tuple[Card, ...]:
        """A player's deck, top card first."""
        return tuple(reversed(self._deck[player]))

    def cards_left(self, player: int) -> int:
        """Cards the player still has to get rid of: deck plus layout (R12, R13)."""
        return len(self._deck[player]) + sum(1 for c in self._layout[player] if c is not None)

    def is_stuck(self, player: int) -> bool:
        return self._stuck[player]

    def fits(self, card: Card, pile: int) -> bool:
        """Whether ``card`` may be played onto ``pile`` now (R7)."""
        cards = self._piles[pile]
        return bool(cards) and card.rank in self._fits[cards[-1].rank]

    def legal_plays(self, player: int) -> list[tuple[int, int]]:
        """Every (slot, pile) the player may play now, slot-major."""
        if not self.running:
            return []
        fits = self._fits
        tops = [p[-1].rank for p in self._piles]
        return [
            (slot, pile)
            for slot, card in enumerate(self._layout[player])
            if card is not None
            for pile in range(PILES)
            if card.rank in fits[tops[pile]]
        ]

    def all_cards(self) -> list[Card]:
        """Every card in decks, layouts and piles (R14: always the 104, each once)."""
        cards: list[Card] = []
        for p in range(PLAYERS):
            cards.extend(self._deck[p])
            cards.extend(c for c in self._layout[p] if c is not None)
        for pile in self._piles:
            cards.extend(pile)
        return cards

    # -- internals -----------------------------------------------------------------

    def _check_time(self, t_ns: int) -> None:
        last = self._last_t_ns
        if last is not None and t_ns < last:
            raise OutOfOrderError(f"t_ns {t_ns} is older than {last}, already applied")
        self._last_t_ns = t_ns

    def _reject(
        self,
        player: int,
        slot: int,
        pile: int,
        t_ns: int,
        reason: RejectReason,
        margin_ns: int | None = None,
    ) -> PlayResult:
        self._events.append(Rejected(t_ns, player, slot, pile, reason, margin_ns))
        if margin_ns is None:
            return _REFUSED[reason]
        return PlayResult(False, reason, margin_ns)

    def _update_stuck(self, t_ns: int) -> None:
        stuck = self._stuck
        playable = self._fits_either[self._piles[0][-1].rank][self._piles[1][-1].rank]
        for player in (0, 1):
            now = True
            for card in self._layout[player]:
                if card is not None and card.rank in playable:
                    now = False
                    break
            if now != stuck[player]:
                stuck[player] = now
                self._events.append(StuckChanged(t_ns, player, now))
        if stuck[0] and stuck[1] and self._spit_due_ns is None:
            if not self._deck[0] and not self._deck[1]:
                left = (self.cards_left(0), self.cards_left(1))
                winner = None if left[0] == left[1] else (0 if left[0] < left[1] else 1)
                self._finish(t_ns, Termination.BLOCKED, winner)
            else:
                self._spit_due_ns = t_ns + self._spit_delay_ns
                self._events.append(SpitDue(t_ns, self._spit_due_ns))

    def _spit(self, t_ns: int) -> None:
        self._spit_due_ns = None
        cards: list[Card | None] = [None, None]
        for player in (0, 1):
            deck = self._deck[player]
            if deck:
                card = deck.pop()
                self._piles[player].append(card)
                cards[player] = card
        self._last_play = [None] * PILES
        self.spits += 1
        self._events.append(Spat(t_ns, (cards[0], cards[1])))
        self._update_stuck(t_ns)

    def _finish(self, t_ns: int, termination: Termination, winner: int | None) -> None:
        self._spit_due_ns = None
        self._outcome = Outcome(termination, winner, (self.cards_left(0), self.cards_left(1)))
        self._events.append(GameOver(t_ns, self._outcome))
