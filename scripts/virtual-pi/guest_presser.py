"""The virtual Pi's presser: the cabinet's buttons on the kernel's GPIO simulator, and a
player that presses them and keeps its own copy of the game in step (play.py's ``start``,
``render`` and ``finish`` use it). Runs in the guest with the installed cabinet's Python,
whose rules engine it imports when it plays.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

HOLD_S = 0.08
"""How long a finger holds a button."""
GAP_S = 0.12
"""Between one release and the next press."""
RACE_GAP_S = 0.02
"""Player 2's pile press comes this long before player 1's, in the race."""
SETTLE_S = 0.5
"""Waited after a spit falls due, so that the cabinet and the presser have both made it."""
RACE_WINDOW_MS = 100.0
"""The race window the virtual Pi's cabinet is set to (R10; the setting's highest): under
emulation an edge reaches the referee 10-40 ms after the kernel stamped it, where a Pi
takes well under a millisecond. With the default 2 ms every press would arrive late and
be applied as it came; with 100 ms the races are decided by the kernel's timestamps, as
on a Pi."""
IDLE_TIMEOUT_S = 600
"""The idle timeout the virtual Pi's cabinet is set to (the setting's highest): a game with
no press for this long is abandoned. The run pauses the game between ``start`` and
``finish`` (a screen dump, a render of the presser's copy, up to 40 s of comparing
screens, all under emulation); with the table on a core of its own the display and all
of that share one vCPU, and on a busy host the pause outlasted the default 60 s: the
cabinet abandoned the game while the presser, knowing no idle timer, played on (the
"parted" games of issue 31). The presser now models the timer too."""
LINES = Path("/run/virtual-pi.lines")


class Buttons:
    """The cabinet's twelve player buttons on the simulated chip (BCM number = line)."""

    def __init__(self) -> None:
        from game.edges import Button
        from wiring.default import DEFAULT_PINS

        self.folder = Path(LINES.read_text(encoding="utf-8").strip())
        self.pins = {
            (c.player, Button(c.function.value)): bcm
            for c, bcm in DEFAULT_PINS.items()
            if c.function.is_player_button
        }

    def set(self, player: int, button: Any, down: bool) -> int:
        """Pull the line down (pressed) or up; returns CLOCK_MONOTONIC just before."""
        t = time.monotonic_ns()
        pull = self.folder / f"sim_gpio{self.pins[(player, button)]}" / "pull"
        pull.write_text("pull-down" if down else "pull-up", encoding="ascii")
        return t


class Presser:
    """Presses buttons and keeps the presser's own copy of the game in step."""

    def __init__(self, out: Path, state: dict[str, Any]) -> None:
        from game.edges import Button, Edge, EdgeKind
        from game.live_match import LiveMatch
        from game.rules import Rules

        self.out = out
        self.state = state
        self.buttons = Buttons()
        self.Button, self.Edge, self.EdgeKind = Button, Edge, EdgeKind
        rules = Rules(race_window_ms=RACE_WINDOW_MS)
        self.match = LiveMatch(rules, state["seed"], (None, None), state["start_ns"])
        for player, name, pressed, t in state["edges"]:
            self._feed(player, Button(name), pressed, t)
        if "saved_ns" in state:  # the moment it stopped: its last press decided by then
            self.match.advance(state["saved_ns"])
        presses = [t for _, _, down, t in state["edges"] if down]
        # The flow's idle clock starts when the game does, before "ready... spit!".
        self.last_press_ns = max([self.match.start_abs_ns - rules.spit_delay_ns, *presses])

    def follow_idle_timer(self, now: int) -> bool:
        """The cabinet's idle timer, as the presser sees it: True (and the presser's game
        abandoned, as the cabinet's is) once ``now`` is ``IDLE_TIMEOUT_S`` past the last
        press. Records the longest pause between presses."""
        pause_s = (now - self.last_press_ns) / 1e9
        self.state["longest_pause_s"] = round(
            max(self.state.get("longest_pause_s", 0.0), pause_s), 3
        )
        if self.match.over or pause_s < IDLE_TIMEOUT_S:
            return self.match.over
        self.match.abandon(self.last_press_ns + IDLE_TIMEOUT_S * 1_000_000_000)
        self.state["idle_abandoned_after_s"] = round(pause_s, 3)
        return True

    def _feed(self, player: int, button: Any, pressed: bool, t: int) -> None:
        kind = self.EdgeKind.PRESS if pressed else self.EdgeKind.RELEASE
        self.match.take(self.Edge(player, button, kind, t), t)

    def set(self, player: int, button: Any, down: bool) -> int:
        t = self.buttons.set(player, button, down)
        if down:
            self.follow_idle_timer(t)
            self.last_press_ns = t
        self.state["edges"].append([player, button.value, down, t])
        self._feed(player, button, down, t)
        return t

    def tap(self, player: int, button: Any) -> None:
        self.set(player, button, True)
        time.sleep(HOLD_S)
        self.set(player, button, False)
        time.sleep(GAP_S)

    def play(self, player: int, slot: int, pile: int) -> None:
        self.tap(player, self.Button.slot(slot))
        self.tap(player, self.Button.pile(pile))
        self.state["plays"] += 1

    def race(self, slots: tuple[int, int], pile: int) -> None:
        """Both players onto ``pile``: player 2's press first, player 1's RACE_GAP_S later."""
        self.tap(0, self.Button.slot(slots[0]))
        self.tap(1, self.Button.slot(slots[1]))
        first = self.set(1, self.Button.pile(pile), True)
        time.sleep(RACE_GAP_S)
        second = self.set(0, self.Button.pile(pile), True)
        time.sleep(HOLD_S)
        self.set(1, self.Button.pile(pile), False)
        self.set(0, self.Button.pile(pile), False)
        time.sleep(GAP_S)
        self.state["race"] = {"pile": pile, "p2_ns": first, "p1_ns": second}
        self.state["plays"] += 1

    def play_until(self, plays: int | None) -> None:
        """Play legal moves for both players until the game is over, or ``plays`` are made
        and the table is still: no "ready… spit!" running, so the screen shows what the
        presser's copy holds until the next press."""
        match = self.match
        turn = 0
        while True:
            now = time.monotonic_ns()
            match.advance(now)
            if self.follow_idle_timer(now):
                return
            game = match.game
            if now < match.start_abs_ns:  # "ready… spit!" at the start
                time.sleep((match.start_abs_ns - now) / 1e9 + SETTLE_S)
                continue
            due = game.spit_due_ns
            if due is not None:  # both stuck: wait for the spit
                time.sleep(max(0.0, (match.to_abs(due) - now) / 1e9) + SETTLE_S)
                continue
            if plays is not None and self.state["plays"] >= plays:
                return
            moves = [game.legal_plays(0), game.legal_plays(1)]
            if self.state.get("race") is None:
                race = _race(game, moves)
                if race is not None:
                    self.race(*race)
                    continue
            player = turn if moves[turn] else 1 - turn
            if not moves[player]:
                time.sleep(0.05)  # the spit is about to fall due
                continue
            slot, pile = moves[player][0]
            self.play(player, slot, pile)
            turn = 1 - turn

    def save(self) -> None:
        self.state["saved_ns"] = time.monotonic_ns()
        self.match.advance(self.state["saved_ns"])
        path = self.out / "state.json"
        path.write_text(json.dumps(self.state), encoding="utf-8")


def _race(game: Any, moves: list[list[tuple[int, int]]]) -> tuple[tuple[int, int], int] | None:
    """Slots for both players onto the same pile, where player 2's card would beat player
    1's (player 1's no longer fits once player 2's is down), if there are any."""
    for slot2, pile in moves[1]:
        card2 = game.layout(1)[slot2]
        for slot1, pile1 in moves[0]:
            card1 = game.layout(0)[slot1]
            if pile1 == pile and not _fits(game, card1, card2):
                return (slot1, slot2), pile
    return None


def _fits(game: Any, card: Any, top: Any) -> bool:
    from game.engine import fitting_ranks

    return card.rank in fitting_ranks(game.rules.ace_wraps)[top.rank]
