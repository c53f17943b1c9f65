"""One game as the live cabinet plays it: people's edges and CPU seats into one referee.

The cabinet's clock is absolute (``time.monotonic_ns()``); a match's clock starts at 0 at
the start's spit (R5). :class:`LiveMatch` converts between the two, feeds people's edges
at their delivery time, and feeds CPU presses at exactly the moment they happen (a virtual
press has no wire to travel), so a CPU never loses a race to the frame rate. It is pure:
whoever drives it (the table process's loop, or a test with a virtual clock) decides
when ``now`` is, and the game it produces replays exactly from its record.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from typing import Any

from game.bots import Level
from game.cards import Card, derived_rng, shuffled_deck
from game.cpu_seat import CpuSeat
from game.edges import Edge
from game.events import Event, Outcome
from game.record import MatchRecord, start_match
from game.record_parts import RecordMeta
from game.referee import Referee
from game.rules import Rules
from game.summary import GameSummary, Seat, summarize
from game.table_state import TableState


class LiveMatch:
    """A running game between two seats, each a person (``None``) or a CPU level."""

    number: int | None = None
    """A number the cabinet gives the game when another process plays it (``None``)."""

    def __init__(
        self,
        rules: Rules,
        seed: int,
        cpu_levels: Sequence[Level | None],
        start_abs_ns: int,
        *,
        decks: Sequence[Sequence[Card]] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.start_abs_ns = start_abs_ns
        chosen = decks if decks is not None else (shuffled_deck(seed, 0), shuffled_deck(seed, 1))
        self.decks = (tuple(chosen[0]), tuple(chosen[1]))
        self.referee: Referee = start_match(rules, self.decks, seed)
        self.game = self.referee.game
        self.cpus: list[CpuSeat] = [
            CpuSeat(p, lv, derived_rng(seed, f"cpu{p}"), ace_wraps=rules.ace_wraps)
            for p, lv in enumerate(cpu_levels)
            if lv is not None
        ]
        self.humans = tuple(p for p, lv in enumerate(cpu_levels) if lv is None)
        seats = [Seat.of(lv) for lv in cpu_levels]
        numbers = [None if lv is None else lv.number for lv in cpu_levels]
        # ``meta``: more context for the record (its own players or levels win, as given).
        given = RecordMeta.from_json(dict(meta)) if meta else RecordMeta()
        self._meta = RecordMeta(
            seats=given.seats or (seats[0], seats[1]),
            levels=given.levels or (numbers[0], numbers[1]),
            other=given.other,
        )
        self._pending: list[tuple[int, int, Edge]] = []  # CPU presses: (t_ns, seq, edge)
        self._seq = 0
        self._now = 0
        self.events: list[Event] = []
        """Every event of the game so far, in order."""
        self._new: list[Event] = []
        self._abandoned_ns: int | None = None
        self._absorb(self.referee.tick(0), 0)

    # -- the clock ------------------------------------------------------------------

    def to_match(self, abs_ns: int) -> int:
        """A cabinet clock reading as match time (0 until the start: the clock of a
        match being readied waits at its start)."""
        return max(0, abs_ns - self.start_abs_ns)

    def to_abs(self, match_ns: int) -> int:
        return match_ns + self.start_abs_ns

    @property
    def now_ns(self) -> int:
        """The match clock's last reading."""
        return self._now

    # -- driving it ------------------------------------------------------------------

    def take(self, edge: Edge, delivered_abs_ns: int) -> list[Event]:
        """A person's edge (``t_ns`` on the cabinet clock) delivered at ``delivered_abs_ns``;
        returns the events decided since the last call."""
        now = max(self.to_match(delivered_abs_ns), self._now)
        self._run_until(now)
        if edge.player in self.humans:  # a CPU seat's buttons do nothing
            moved = Edge(edge.player, edge.button, edge.edge, edge.t_ns - self.start_abs_ns)
            self._absorb(self.referee.take(moved, now), now)
        return self._drain(delivered_abs_ns)

    def advance(self, now_abs_ns: int) -> list[Event]:
        """Move the clock to ``now_abs_ns``: CPU presses due by then are made at their own
        times, held edges are decided, spits fall due. Returns the new events."""
        now = max(self.to_match(now_abs_ns), self._now)
        self._run_until(now)
        self._absorb(self.referee.tick(now), now)
        return self._drain(now_abs_ns)

    def next_wake_abs_ns(self) -> int | None:
        """The cabinet clock reading when something will next happen with no input: a CPU
        looks or presses, a held edge is decided, or a spit falls due."""
        times: list[int] = []
        if self._pending:
            times.append(self._pending[0][0])
        times.extend(seat.look_at for seat in self.cpus if seat.look_at is not None)
        release = self.referee.next_release_ns()
        if release is not None:
            times.append(release)
        due = self.game.spit_due_ns
        if due is not None:
            times.append(due + self.referee.window_ns)
        if not times or self.game.outcome is not None:
            return None
        return self.to_abs(max(min(times), self._now))

    @property
    def over(self) -> bool:
        return self.game.outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome

    def state(self) -> TableState:
        """The table as decided so far (what the screen and the lights show)."""
        return TableState.of(self.referee)

    def abandon(self, now_abs_ns: int) -> list[Event]:
        """Stop the game with no winner (idle, or the service menu opened)."""
        now = max(self.to_match(now_abs_ns), self._now)
        self._absorb(self.referee.tick(now), now)
        if self.game.outcome is None:
            self._abandoned_ns = max(now, self.referee.horizon_ns)
            self.game.abandon(self._abandoned_ns)
            self._absorb(self.game.take_events(), now)
        return self._drain(max(now_abs_ns, self.start_abs_ns))

    # -- results ---------------------------------------------------------------------

    def summary(self) -> GameSummary:
        return summarize(self.game, self.referee, self.events)

    def record(self) -> MatchRecord:
        """The game's match record, replayable to the same result."""
        return MatchRecord(
            rules=self.rules,
            decks=self.decks,
            edges=tuple(self.referee.stats.edge_log),
            seed=self.seed,
            end_ns=max(self._now, self.referee.now_ns),
            meta=self._meta,
            abandoned_ns=self._abandoned_ns,
        )

    # -- internals -------------------------------------------------------------------

    def _run_until(self, now: int) -> None:
        """Make every CPU look and press that falls due up to ``now``, in time order."""
        while self.game.outcome is None:
            nxt = now + 1
            if self._pending:
                nxt = self._pending[0][0]
            for seat in self.cpus:
                if seat.look_at is not None and seat.look_at < nxt:
                    nxt = seat.look_at
            release = self.referee.next_release_ns()
            if release is not None and release < nxt:
                nxt = release
            if nxt > now:
                return
            nxt = max(nxt, self._now)
            if self._pending and self._pending[0][0] <= nxt:
                _, _, edge = heapq.heappop(self._pending)
                self._absorb(self.referee.take(edge, max(edge.t_ns, self._now)), nxt)
                continue
            self._absorb(self.referee.tick(nxt), nxt)
            for seat in self.cpus:
                if seat.look_at is not None and seat.look_at <= nxt:
                    presses = seat.look(self.game, nxt)
                    if presses is not None:
                        for press in presses:
                            heapq.heappush(self._pending, (press.t_ns, self._seq, press))
                            self._seq += 1

    def _absorb(self, new: Sequence[Event], t: int) -> None:
        self._now = max(self._now, t)
        if not new:
            return
        self.events.extend(new)
        self._new.extend(new)
        for seat in self.cpus:
            seat.observe(new, t)

    def _drain(self, now_abs_ns: int) -> list[Event]:
        """The events not yet handed out, once the start (R5) has come: before it, the
        deal and the start's spit are held back, so the cabinet shows them at "spit!"."""
        if now_abs_ns < self.start_abs_ns:
            return []
        new, self._new = self._new, []
        return new
