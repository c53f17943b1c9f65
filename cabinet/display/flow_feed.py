"""The table's batches into the flow, outside the service menu, and what follows the flow.

In a batch, a player's press goes to the flow (a pile button may start a game), TEST opens
the service menu, which takes the rest of the batch, a stuck button is noted for its
player until it is freed, and the game's events go to the screen's motions, the sounds and
the flow. As the flow moves on, the table is pointed at its game, the screen's motions
start again when the screen changes and the screen's sound plays; in attract, the demo
game's events are drawn and heard the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from cabinet.display.flow import Flow
from cabinet.display.screen_output import ScreenOutput
from cabinet.display.service_host import ServiceHost
from cabinet.display.sounds import phase_sound, sound_cues
from cabinet.display.table_supervision import TableSupervisor
from cabinet.inputs.controls import SERVICE, TEST
from cabinet.inputs.debounce import OperatorEdge, SwitchFreed, SwitchStuck
from cabinet.inputs.feed import FeedEvent, PlayerPress
from cabinet.shared.phase import Phase
from cabinet.sound import SoundBoard
from game.edges import Button
from game.events import Event

# The main loop's logger: these lines keep the name they have always been logged under.
log = logging.getLogger("cabinet.display.app")


class FlowFeed:
    """Feeds ``flow`` and keeps the table (through ``supervisor``), the screen's motions
    and ``sounds`` in step with it."""

    def __init__(
        self,
        flow: Flow,
        supervisor: TableSupervisor,
        screen_output: ScreenOutput,
        sounds: SoundBoard,
        host: ServiceHost,
        open_service: Callable[[int], bool],
    ) -> None:
        """``open_service``: opens ``host``'s menu at a clock reading (TEST), returning
        whether it opened."""
        self.flow = flow
        self.supervisor = supervisor
        self.screen_output = screen_output
        self.sounds = sounds
        self.host = host
        self._open_service = open_service
        self.stuck: dict[int, Button] = {}
        """The button each player has stuck, shown to them until it is freed."""
        self._phase_seen = flow.phase
        self._demo_seen = flow.demo

    def take(self, batch: list[FeedEvent], now: int) -> None:
        """Take one of the table's batches at clock reading ``now``."""
        game_events: list[Event] = []
        for i, item in enumerate(batch):
            if isinstance(item, PlayerPress):
                pressed = item.edge.button
                start = pressed in (Button.PILE1, Button.PILE2)
                self.flow.press(item.player, now, start=start, button=pressed)
                self.follow()
            elif isinstance(item, OperatorEdge):
                if item.pressed:
                    if item.control == TEST and self._open_service(now):
                        assert self.host.menu is not None
                        self.host.menu.take(batch[i + 1 :], now)
                        return
                    elif item.control == SERVICE:
                        log.info("SERVICE pressed")
            elif isinstance(item, SwitchStuck):
                player, button = item.control.player, item.control.button
                if player is not None and button is not None:
                    self.stuck[player] = button
            elif isinstance(item, SwitchFreed):
                if item.control.player is not None:
                    self.stuck.pop(item.control.player, None)
            else:
                game_events.append(item)
        if game_events:
            self._game_events(game_events, attract=False)
            self.flow.match_events(game_events, now)

    def frame(self, now: int) -> None:
        """Once a frame outside the menu, at clock reading ``now``: follow the flow and, in
        attract, play the demo game on."""
        flow = self.flow
        self.follow()
        if flow.phase is Phase.ATTRACT:
            if flow.demo is not self._demo_seen:
                self._demo_seen = flow.demo  # a new demo game: a new match clock
                self.screen_output.renderer.reset_animations()
            self._game_events(flow.demo.advance(now), attract=True)

    def start_afresh(self) -> None:
        """The flow started afresh (the menu closed): its screen and demo are taken as
        seen, and the screen's motions start again."""
        self._phase_seen = self.flow.phase
        self._demo_seen = self.flow.demo
        self.screen_output.renderer.reset_animations()

    def _game_events(self, events: list[Event], *, attract: bool) -> None:
        if not events:
            return
        self.screen_output.renderer.feed(events)
        for name in sound_cues(events):
            self.sounds.play(name, in_attract=attract)

    def follow(self) -> None:
        """Point the referee thread at the flow's current game, and reset the screen's
        motions when the screen changes."""
        flow = self.flow
        self.supervisor.follow()
        if flow.phase is not self._phase_seen:
            log.info("flow: %s", flow.phase.value)
            if flow.phase is Phase.READY and flow.match is not None:
                # With the seed and the start, a game can be followed (or replayed) from
                # outside: the virtual Pi's presser does (docs/virtual-pi.md).
                log.info(
                    "game: seed %d, play starts at %d ns (CLOCK_MONOTONIC)",
                    flow.match.seed,
                    flow.match.start_abs_ns,
                )
            if flow.phase in (Phase.ATTRACT, Phase.READY):
                self.screen_output.renderer.reset_animations()
            sound = phase_sound(flow.phase)
            if sound is not None:
                self.sounds.play(sound)
            self._phase_seen = flow.phase
