"""The table process's loop: input, referee, game, CPU seats, records, and the lights.

:class:`TableServer` owns everything that decides a game. Its one loop thread blocks on
the edge queue until an edge arrives, a command arrives, or the next decision falls
due; pumps the :class:`~cabinet.inputs.feed.RefereeFeed` (debounce, stuck switches,
the referee's race window, the CPU's presses) onto the running
:class:`~game.live_match.LiveMatch`; writes the LED snapshot when a decision changes
it; and queues a :class:`~cabinet.table.messages.Decided` report for the display.

Nothing here waits on the display: commands arrive on a reader thread that only queues
them and wakes the loop, and reports leave through a sender thread fed by an unbounded
queue, so a display that is slow, stopped or gone never holds up a decision.

When the display goes away without saying :class:`~cabinet.table.messages.Shutdown`
(it crashed or was killed), the table abandons the game it was playing and writes
every game the display had not yet confirmed as recorded into the books itself, then
exits; the service manager restarts the cabinet.
"""

from __future__ import annotations

import gc
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from cabinet.inputs.clock import Clock, monotonic_clock
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.feed import REFEREE_SWITCH_INTERVAL_S, RefereeFeed
from cabinet.shared.light_show import countdown_ends_abs_ns
from cabinet.shared.phase import Phase
from cabinet.table.autoplay import AutoPlayers
from cabinet.table.display_link import DisplayGone, DisplayLink
from cabinet.table.games import TableGame, record_games
from cabinet.table.lights import LightWriter, lights_state
from cabinet.table.messages import (
    Command,
    Decided,
    ForwardEdges,
    GetMeasurements,
    Health,
    LightsContext,
    Measurements,
    Recorded,
    Shutdown,
    StartGame,
    StopGame,
    TableReady,
)
from cabinet.table.samples import Samples
from firmware_bridge.lights import LightState
from game.bots import level
from game.edges import Edge
from game.live_match import LiveMatch
from game.summary import Seat
from game.table_state import TableState

log = logging.getLogger(__name__)

IDLE_S = 0.1
"""The longest the loop sleeps with nothing due (s)."""
AUTOPLAY_TICK_S = 0.01
"""How often simulated people look at the table (s)."""
HEALTH_EVERY_NS = 500_000_000
"""How often the light link's health is looked at for a report."""
SWITCHES_EVERY_NS = 20_000_000
"""The switches' snapshot (the service menu's input test, the chatter audits) changes
with every edge: it goes to the display at most this often, the last one always. A door
or light link change goes at once. (Sent with every edge, it was half the reports and
most of the display's time taking them in: bench/README.md.)"""
IDLE_COLLECT_NS = 10_000_000_000
"""With no game running, Python's cycle collector runs at most this often."""
AFTER_GAME_COLLECT_NS = 1_000_000_000
"""A game stopped, the collector runs once no other has started for this long (game over
shows for seconds; a new game never starts inside a collection)."""


@dataclass(slots=True)
class TableIdentity:
    """What the table tells the display about itself once it runs."""

    backend: str = "mock"
    hardware_timestamps: bool = False
    realtime: bool = False
    scheduling: str = "normal"


class TableServer:
    """The table's loop over ``conn`` (the display's end of a socket pair)."""

    def __init__(
        self,
        conn: Connection,
        edges: EdgeQueue,
        *,
        identity: TableIdentity,
        clock: Clock = monotonic_clock,
        lights: LightWriter | None = None,
        door_open: Callable[[], bool] | None = None,
        data_dir: Path | None = None,
        autoplay: AutoPlayers | None = None,
        samples: Samples | None = None,
    ) -> None:
        """``lights``: the LED board's link (``None``: the display draws the lights on
        screen). ``door_open()``: the door switch, when wired. ``data_dir``: where the
        books are, for the games the table must record itself. ``autoplay``: simulated
        people on the mock pins. ``samples``: where to keep latency samples (benchmarks)."""
        self.conn = conn
        self.edges = edges
        self.identity = identity
        self.clock = clock
        self.feed = RefereeFeed(None, edges, clock=clock)
        self.lights = lights
        self.door_open = door_open
        self.data_dir = data_dir
        self.autoplay = autoplay
        self._samples = samples
        self._link = DisplayLink(conn, edges.wake)
        self._games: dict[int, TableGame] = {}
        """Every game started and not yet confirmed recorded by the display."""
        self._current: int | None = None
        self._context = LightsContext(Phase.ATTRACT)
        self._lights_shown: LightState | None = None
        self._health: Health | None = None
        self._health_due_ns = 0
        self._health_sent_ns: int | None = None
        self._collect_due_ns = 0
        self._late_edges = 0
        self._edges_taken = 0
        self._window_ms = 0.0

    # -- running ---------------------------------------------------------------------

    def run(self) -> int:
        """Serve until :class:`Shutdown` or the display goes away. Returns the exit code."""
        self._link.start()
        # Python's cycle collector stops the whole process for as long as a full pass
        # takes (milliseconds, with a game's events and edges alive), wherever it falls:
        # in a race window. The table's objects are almost all acyclic (freed by their
        # reference counts), so it collects only between games and when idle.
        gc.collect()
        gc.freeze()
        gc.disable()
        previous_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(previous_interval, REFEREE_SWITCH_INTERVAL_S))
        ident = self.identity
        self._link.send(
            TableReady(
                pid=os.getpid(),
                realtime=ident.realtime,
                scheduling=ident.scheduling,
                backend=ident.backend,
                hardware_timestamps=ident.hardware_timestamps,
                lights_on_board=self.lights is not None,
            )
        )
        clean = False
        try:
            while True:
                began = self.clock() if self._samples is not None else 0
                stop = self._take_commands()
                if stop is not None:
                    clean = stop
                    break
                if self._samples is not None:
                    self._samples.take_step(began, self.clock())
                self.step(self._timeout_s())
        finally:
            if not clean:
                self._record_unconfirmed()
            self._link.close(1.0)
            sys.setswitchinterval(previous_interval)
        return 0

    def step(self, timeout_s: float) -> None:
        """One round: pump the feed (waiting up to ``timeout_s`` for an edge), report
        what it decided, put the lights right, let simulated people press."""
        batch = self.feed.pump(timeout_s)
        now = self.clock()
        game = self._current_game()
        new_edges: tuple[Edge, ...] = ()
        state = None
        if game is not None:
            log_ = game.match.referee.stats.edge_log
            if len(log_) > game.sent_edges:
                new_edges = tuple(log_[game.sent_edges :])
                game.sent_edges = len(log_)
            if batch or new_edges:
                state = game.match.state()
        if batch or new_edges:
            self._link.send(Decided(self._current, batch, state, new_edges, now))
            if batch and log.isEnabledFor(logging.DEBUG):
                for item in batch:
                    log.debug("decided %r", item)
        if self._samples is not None and game is not None:
            self._samples.take_deliveries(new_edges, game.match.start_abs_ns)
            if batch:
                self._samples.take_decisions(batch, game.match, now)
        self._show_lights(now, decided=bool(batch), table=state)
        if self.autoplay is not None:  # its presses stamped as they land: a fresh reading
            self.autoplay.act(self.clock(), self._context.phase, game.match if game else None)
        self._report_health(now)
        if self._current is None and now >= self._collect_due_ns:
            self._collect(now)
        if self._samples is not None:
            self._samples.take_step(self.feed.taken_ns, self.clock())

    # -- commands ----------------------------------------------------------------------

    def _take_commands(self) -> bool | None:
        """Apply every queued command; returns ``True`` on Shutdown, ``False`` when the
        display is gone, ``None`` to go on."""
        while True:
            command = self._link.next_command()
            if command is None:
                return None
            if isinstance(command, Shutdown):
                return True
            if isinstance(command, DisplayGone):
                log.warning("the display went away: recording what it had not")
                return False
            self._apply(command)

    def _apply(self, command: Command) -> None:
        if isinstance(command, StartGame):
            self._start(command)
        elif isinstance(command, StopGame):
            self._stop(command.game, command.now_ns)
        elif isinstance(command, Recorded):
            self._games.pop(command.game, None)
        elif isinstance(command, LightsContext):
            self._context = command
            self._show_lights(self.clock(), decided=False)
        elif isinstance(command, ForwardEdges):
            for edge in command.edges:
                self.edges.put(edge)
        elif isinstance(command, GetMeasurements):
            self._link.send(self.measurements())

    def _start(self, command: StartGame) -> None:
        if self._current is not None:
            self._stop(self._current, command.start_abs_ns)
        levels = [None if n is None else level(n) for n in command.cpu_levels]
        match = LiveMatch(command.rules, command.seed, levels, command.start_abs_ns)
        players = (Seat.of(levels[0]), Seat.of(levels[1]))
        self._games[command.game] = TableGame(match, players)
        self._current = command.game
        self._window_ms = command.rules.race_window_ms
        self.feed.play_onto(match)

    def _stop(self, game_id: int, now_ns: int) -> None:
        game = self._games.get(game_id)
        if game_id == self._current:
            self.feed.play_onto(None)
            self._current = None
            self._collect_due_ns = now_ns + AFTER_GAME_COLLECT_NS  # between games
        if game is not None:
            stats = game.match.referee.stats
            self._late_edges += stats.late_edges
            self._edges_taken += len(stats.edge_log)
            if not game.match.over:
                game.match.abandon(now_ns)

    def measurements(self) -> Measurements:
        samples = self._samples or Samples()
        late, taken = self._late_edges, self._edges_taken
        current = self._current_game()
        if current is not None:
            late += current.match.referee.stats.late_edges
            taken += len(current.match.referee.stats.edge_log)
        return samples.measurements(edges=taken, late_edges=late, race_window_ms=self._window_ms)

    # -- the lights --------------------------------------------------------------------

    def _show_lights(self, now: int, *, decided: bool, table: TableState | None = None) -> None:
        """Write the LED snapshot if it changed; ``table``: the game's state, when the
        caller has just taken it."""
        lights = self.lights
        if lights is None:
            return
        game = self._current_game()
        state = lights_state(self._context, game.match if game else None, now, table)
        if state != self._lights_shown:
            self._lights_shown = state
            lights.show(state)
            if decided and self._samples is not None:
                self._samples.led_ns.append(self.clock() - now)

    # -- internals ---------------------------------------------------------------------

    def _current_game(self) -> TableGame | None:
        return self._games.get(self._current) if self._current is not None else None

    def _collect(self, now: int) -> None:
        start = self.clock()
        found = gc.collect()
        self._collect_due_ns = now + IDLE_COLLECT_NS
        log.debug("collected %d objects in %.2f ms", found, (self.clock() - start) / 1e6)

    def _timeout_s(self) -> float:
        now = self.clock()
        wakes = [now + int(IDLE_S * 1e9)]
        wake = self.feed.next_wake_ns()
        if wake is not None:
            wakes.append(wake)
        game = self._current_game()
        if game is not None and self.lights is not None:
            ends = countdown_ends_abs_ns(game.match.start_abs_ns, game.match.game.spit_due_ns, now)
            if ends is not None and ends > now:
                wakes.append(ends)
        if self.autoplay is not None:
            wakes.append(now + int(AUTOPLAY_TICK_S * 1e9))
        health = self._health
        if health is not None and health.switches is not self.feed.switches:
            assert self._health_sent_ns is not None
            wakes.append(self._health_sent_ns + SWITCHES_EVERY_NS)  # the snapshot held back
        return max(0.0, (min(wakes) - now) / 1e9)

    def _report_health(self, now: int) -> None:
        switches = self.feed.switches
        door = self.door_open() if self.door_open is not None else None
        link = self._health.link if self._health is not None else None
        if self.lights is not None and now >= self._health_due_ns:
            self._health_due_ns = now + HEALTH_EVERY_NS
            link = self.lights.health()
        old = self._health
        if old is not None and old.door_open == door and old.link == link:
            if old.switches is switches:
                return
            assert self._health_sent_ns is not None
            if now < self._health_sent_ns + SWITCHES_EVERY_NS:
                return  # only the switches changed, and they went lately: held back
        self._health = Health(switches, door, link)
        self._health_sent_ns = now
        self._link.send(self._health)

    def _record_unconfirmed(self) -> None:
        """The display went away: abandon the running game and put every game it had not
        confirmed into the books, so none is lost."""
        if not self._games:
            return
        now = self.clock()
        if self._current is not None:
            self._stop(self._current, now)
        if record_games(self.data_dir, self._games):
            self._games.clear()
