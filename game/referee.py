"""The referee: raw button edges in, decided plays out (R8, R10).

Edges reach software late and out of order (lgpio releases them in 0.5 ms batches; Python
may deliver them later still). The referee holds each edge until the *race window* after
its ``t_ns`` has passed, then applies held edges in ``t_ns`` order, so the first press
wins whatever order software saw the presses in.

Its clock (``now``) is passed in: live, the monotonic clock; in a replay, each edge's
``delivered_ns`` in turn. The *horizon* is ``now - race_window``: everything up to it is
decided. An edge that arrives with ``t_ns`` already behind the horizon is *late*: it is
applied at the horizon as if it happened then, and counted.

The referee also turns presses into plays (R8's gesture: slot, then pile) and orders exact
ties by the rules' tie rule. A whole match is therefore a pure function of
(rules, decks, seed, edges with their delivery times).
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field

from game.edges import Edge, EdgeKind
from game.engine import Game, PlayResult
from game.events import Event, LateEdge, RejectReason, Selected, Tie
from game.rules import TieRule


class ClockError(ValueError):
    """The referee's clock was moved backwards, or an edge was delivered before it
    happened."""


@dataclass(slots=True)
class RefereeStats:
    """Counters the service menu and replays report."""

    edges: int = 0
    late_edges: int = 0
    """Edges delivered more than the race window after they happened."""
    early_edges: int = 0
    """Edges from before the start (t_ns < 0), ignored."""
    ties: int = 0
    reordered_races: int = 0
    """Beaten plays whose press software saw before the winner's: decided by timestamp
    against the delivery order, the races a cabinet deciding by arrival would get wrong."""
    pile_without_selection: int = 0
    """Pile presses with no slot selected: they do nothing."""
    max_delay_ns: int = 0
    """Largest delivery delay (delivered_ns - t_ns) seen."""
    edge_log: list[Edge] = field(default_factory=list)
    """Every edge taken in, stamped with its delivery time, in delivery order."""


class Referee:
    """Holds edges for the race window, then plays them in time order onto a game."""

    def __init__(self, game: Game, *, tie_rng: random.Random, start_ns: int = 0) -> None:
        """Start ``game`` at ``start_ns`` (R5), unless it is already running, and
        referee it.

        ``tie_rng`` decides R10's exact ties: the first coin toss for the alternate rule,
        or every toss for the random rule. Pass the match's seeded stream.
        """
        self.game = game
        self.window_ns = game.rules.race_window_ns
        self._tie_rule = game.rules.tie_rule
        self._tie_rng = tie_rng
        self._priority = tie_rng.randrange(2)
        self._held: list[tuple[int, int, Edge]] = []
        self._seq = 0
        self._selected: list[int | None] = [None, None]
        # Per pile: delivery time of the press behind its latest accepted play.
        self._pile_delivered: list[int] = [start_ns, start_ns]
        self._now_ns = start_ns
        self._start_ns = start_ns
        self._horizon_ns = start_ns - self.window_ns
        self._events: list[Event] = []
        self.stats = RefereeStats()
        game.send_events_to(self._events)
        if not game.started:
            game.start(start_ns)

    @property
    def now_ns(self) -> int:
        return self._now_ns

    @property
    def horizon_ns(self) -> int:
        """Everything that happened up to here is decided."""
        return self._horizon_ns

    def selected(self, player: int) -> int | None:
        """The player's selected slot (0-based), or ``None``."""
        return self._selected[player]

    @property
    def held(self) -> int:
        """How many edges wait for the horizon."""
        return len(self._held)

    def next_release_ns(self) -> int | None:
        """The clock reading at which the earliest held edge will be released."""
        return self._held[0][0] + self.window_ns if self._held else None

    def take(self, edge: Edge, now_ns: int) -> list[Event]:
        """Take in ``edge`` at clock reading ``now_ns`` (its delivery time); returns the
        events decided by moving the clock there."""
        if edge.t_ns > now_ns:
            raise ClockError(f"edge at {edge.t_ns} ns delivered before it happened ({now_ns})")
        if now_ns != self._now_ns:
            self._move_clock(now_ns)
        stamped = edge if edge.delivered_ns == now_ns else edge.delivered(now_ns)
        stats = self.stats
        stats.edges += 1
        stats.edge_log.append(stamped)
        delay = now_ns - edge.t_ns
        if delay > stats.max_delay_ns:
            stats.max_delay_ns = delay
        if edge.t_ns < self._start_ns:
            stats.early_edges += 1
            return self._release()
        at = edge.t_ns
        if at < self._horizon_ns:
            at = self._horizon_ns
            stats.late_edges += 1
            self._events.append(LateEdge(edge.t_ns, edge.player, at, now_ns))
        heapq.heappush(self._held, (at, self._seq, stamped))
        self._seq += 1
        return self._release()

    def tick(self, now_ns: int) -> list[Event]:
        """Move the clock to ``now_ns``; returns the events this decided."""
        if now_ns != self._now_ns:
            self._move_clock(now_ns)
        return self._release()

    def _move_clock(self, now_ns: int) -> None:
        if now_ns < self._now_ns:
            raise ClockError(f"clock moved backwards from {self._now_ns} to {now_ns}")
        self._now_ns = now_ns
        horizon = now_ns - self.window_ns
        if horizon > self._horizon_ns:
            self._horizon_ns = horizon

    def _release(self) -> list[Event]:
        horizon = self._horizon_ns
        held = self._held
        game = self.game
        while held and held[0][0] <= horizon:
            at = held[0][0]
            group = [heapq.heappop(held)]
            while held and held[0][0] == at:
                group.append(heapq.heappop(held))
            game.advance(at)
            for _, _, edge in self._order(group, at):
                self._apply(edge, at)
        due = game.spit_due_ns
        if due is not None and due <= horizon:
            game.advance(horizon)  # spits fall due by the same clock (R11)
        if not self._events:
            return []
        events = self._events.copy()
        self._events.clear()
        return events

    def _order(self, group: list[tuple[int, int, Edge]], at: int) -> list[tuple[int, int, Edge]]:
        """Edges released at the same instant, in an order that does not depend on the
        order they were delivered in: player by player (R10's tie rule decides who goes
        first when both pressed a pile button; otherwise player 1), and for one player
        slot buttons before pile buttons, so a slot and a pile pressed together play."""
        if len(group) == 1:
            return group
        pile_players = {e.player for _, _, e in group if e.is_press and e.button.is_pile}
        first = 0
        if len(pile_players) == 2:
            if self._tie_rule is TieRule.RANDOM:
                first = self._tie_rng.randrange(2)
            else:
                first = self._priority
                self._priority = 1 - first
            self.stats.ties += 1
            self._events.append(Tie(at, first))
        return sorted(group, key=lambda item: _canonical(item[2], first))

    def _apply(self, edge: Edge, at: int) -> None:
        if edge.edge is not EdgeKind.PRESS:
            return
        player = edge.player
        button = edge.button
        if not button.is_pile:
            slot = button.index
            self._selected[player] = slot
            self._events.append(Selected(at, player, slot))
            return
        slot_selected = self._selected[player]
        if slot_selected is None:
            self.stats.pile_without_selection += 1
            return
        result: PlayResult = self.game.play(player, slot_selected, button.index, at)
        delivered = edge.delivered_ns
        assert delivered is not None
        if result.accepted:
            self._selected[player] = None
            self._pile_delivered[button.index] = delivered
        elif (
            result.reason is RejectReason.BEATEN and delivered < self._pile_delivered[button.index]
        ):
            self.stats.reordered_races += 1


def _canonical(edge: Edge, first: int) -> tuple[bool, bool, int, bool]:
    return (edge.player != first, edge.button.is_pile, edge.button.index, edge.is_press)
