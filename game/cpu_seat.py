"""A CPU player at the table: when it looks, and what it presses.

The same seat plays in the simulator (virtual time) and on the live cabinet (a person
against the CPU, or the attract-mode demo): it looks at the decided table, picks a play
with :func:`game.bots.choose_play`, and turns it into slot and pile presses at later times
drawn by its :class:`game.bots.CpuPlayer` timing model. Its presses go through the same
referee as a person's, so it wins and loses races by the same rule (R10).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from game.bots import CpuPlayer, Level, choose_play
from game.edges import Button, Edge, EdgeKind
from game.engine import Game, fitting_ranks
from game.events import Event, GameOver, Played, Rejected, Spat, Started

SLOT_BUTTONS = tuple(Button.slot(i) for i in range(4))
PILE_BUTTONS = (Button.PILE1, Button.PILE2)


class CpuSeat:
    """One CPU player. Call :meth:`observe` with every batch of decided events and
    :meth:`look` whenever the clock reaches :attr:`look_at`."""

    def __init__(self, player: int, level: Level, rng: random.Random, *, ace_wraps: bool) -> None:
        self.player = player
        self.level = level
        self._timing = CpuPlayer(player, level, rng)
        self._fits = fitting_ranks(ace_wraps)
        self._plans_ahead = level.plans_ahead
        self.look_at: int | None = 0
        """When it next looks at the table (ns); ``None`` while one of its plays is under
        way, or while it waits, stuck, for the table to change."""
        self.acting = False

    def observe(self, events: Sequence[Event], t_ns: int) -> bool:
        """Take in events decided at ``t_ns``; True when the seat now wants to look."""
        changed = False
        wakes = False
        player = self.player
        for event in events:
            if type(event) is Played or type(event) is Rejected:
                if event.player == player and self.acting:
                    # Its own play was decided: it carries on from here.
                    self.acting = False
                    self.look_at = t_ns
                    wakes = True
                changed = changed or type(event) is Played
            elif type(event) is Spat or type(event) is Started or type(event) is GameOver:
                changed = True
        if changed and not self.acting and self.look_at is None:
            self.look_at = t_ns
            wakes = True
        return wakes

    def look(
        self, game: Game, now_ns: int, delivery: Callable[[int], int] | None = None
    ) -> tuple[Edge, Edge] | None:
        """Look at the table at ``now_ns``: the slot and pile presses of the play it
        makes (in the future), or ``None`` when it is stuck and will wait.

        ``delivery(t_ns)``, when given, says when each press reaches the referee (the
        simulator's jitter); the presses then carry that ``delivered_ns``.
        """
        self.look_at = None
        p = self.player
        choice = choose_play(
            game.layout(p),
            (game.pile_top(0), game.pile_top(1)),
            self._fits,
            plans_ahead=self._plans_ahead,
        )
        if choice is None:
            return None
        self.acting = True
        slot_at, pile_at = self._timing.press_times(now_ns)
        slot_seen = delivery(slot_at) if delivery is not None else None
        pile_seen = delivery(pile_at) if delivery is not None else None
        return (
            Edge(p, SLOT_BUTTONS[choice[0]], EdgeKind.PRESS, slot_at, slot_seen),
            Edge(p, PILE_BUTTONS[choice[1]], EdgeKind.PRESS, pile_at, pile_seen),
        )
