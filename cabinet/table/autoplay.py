"""Simulated people at the cabinet's buttons, for headless runs, soak tests and benchmarks.

:class:`AutoPlayers` watches the flow's phase and the running game and presses buttons the
way people do: in attract
both join, in a game each takes a CPU seat's decision (:class:`game.cpu_seat.CpuSeat`) and
presses the slot and pile buttons through a *press sink*, the same path the cabinet's
buttons take (gpiozero mock pins with ``spit-cabinet run --input mock --autoplay``, or raw
edges on the input queue). Nothing here decides a play: the referee does, from the
presses.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cabinet.inputs.controls import Control
from cabinet.shared.phase import Phase
from game.bots import level
from game.cpu_seat import CpuSeat
from game.edges import Button
from game.live_match import LiveMatch

PressSink = Callable[[Control, bool, int], None]
"""``sink(control, pressed, t_ns)``: a button goes down or up at ``t_ns``."""

HOLD_NS = 60_000_000
"""How long a simulated finger holds a button down."""


class AutoPlayers:
    """Both players, simulated at CPU ``skill`` (1–5), pressing through ``sink``."""

    def __init__(
        self,
        sink: PressSink,
        *,
        skill: int = 4,
        seed: int = 0,
        join_after_ns: int = 0,
    ) -> None:
        """``join_after_ns``: how long the players watch attract before joining."""
        self.join_after_ns = join_after_ns
        self.sink = sink
        self.skill = level(skill)
        self.rng = random.Random(seed)
        self._match: object = None
        self._seats: dict[int, CpuSeat] = {}
        self._seen = 0
        self._pending: list[tuple[int, Control, bool]] = []
        self._joined_at: int | None = None
        self._attract_since: int | None = None

    def act(self, now_ns: int, phase: Phase, match: LiveMatch | None) -> None:
        """Press whatever is due by ``now_ns`` (call once a frame, or at
        :meth:`next_due_ns`), seeing the flow in ``phase`` with ``match`` running. Call it
        where the game is played, or holding the lock the game is played under."""
        if phase is Phase.ATTRACT:
            if self._attract_since is None:
                self._attract_since = now_ns
            due = now_ns - self._attract_since >= self.join_after_ns
            if due and self._joined_at is None:
                self._joined_at = now_ns
                for player in (0, 1):
                    self.tap(Control(player, Button.PILE1), now_ns + player * 200_000_000)
        else:
            self._attract_since = None
            self._joined_at = None
        if match is not None and phase is Phase.PLAY:
            self._play(match, now_ns)
        self._release_due(now_ns)

    def next_due_ns(self) -> int | None:
        """When the next planned press or release is due (cabinet clock), or ``None``."""
        return self._pending[0][0] if self._pending else None

    def _play(self, match: LiveMatch, now_ns: int) -> None:
        if match is not self._match:
            self._match = match
            self._seen = 0
            self._seats = {
                p: CpuSeat(
                    p, self.skill, random.Random(self.rng.random()), ace_wraps=match.rules.ace_wraps
                )
                for p in match.humans
            }
        new = match.events[self._seen :]
        self._seen = len(match.events)
        t_match = match.to_match(now_ns)
        for player, seat in self._seats.items():
            seat.observe(new, t_match)
            busy = any(c.player == player for _, c, _ in self._pending)
            if not busy and seat.look_at is not None and seat.look_at <= t_match:
                presses = seat.look(match.game, t_match)
                if presses is not None:
                    for edge in presses:
                        self.tap(Control(player, edge.button), match.to_abs(edge.t_ns))

    def tap(self, control: Control, t_ns: int) -> None:
        """Press ``control`` at ``t_ns`` and let go a moment later."""
        self._pending.append((t_ns, control, True))
        self._pending.append((t_ns + HOLD_NS, control, False))
        self._pending.sort(key=lambda item: item[0])

    def _release_due(self, now_ns: int) -> None:
        # A press planned for t lands when this frame comes round: stamped now, as a
        # button would be, so the referee sees it within its race window.
        while self._pending and self._pending[0][0] <= now_ns:
            _, control, pressed = self._pending.pop(0)
            self.sink(control, pressed, now_ns)
