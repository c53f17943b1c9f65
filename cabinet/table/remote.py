"""The display process's side of the table process.

:class:`RemoteTable` starts ``python -m cabinet.table`` with one end of a socket pair,
sends it commands and takes its reports; when it dies, :meth:`RemoteTable.revive`
starts a new one. :class:`RemoteMatch` is the flow's handle on a game the table plays:
it holds what the table decided (the latest :class:`~game.table_state.TableState`, the
events, and every edge the referee took), so the screen can draw it and the display can
write the game's replayable record to the books, even when the table is gone.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait

from cabinet.inputs.debounce import SwitchStatus
from cabinet.inputs.edge_queue import RawEdge
from cabinet.inputs.feed import FeedEvent
from cabinet.table.messages import (
    Command,
    Decided,
    ForwardEdges,
    GetMeasurements,
    Health,
    LightsContext,
    Measurements,
    Recorded,
    Report,
    Shutdown,
    StartGame,
    StopGame,
    TableReady,
    TableRefused,
    unpack_reports,
)
from firmware_bridge.link import LinkHealth
from game.bots import Level
from game.cards import Card, shuffled_deck
from game.edges import Edge
from game.events import Event, Outcome
from game.record import MatchRecord, replay
from game.record_parts import RecordMeta
from game.rules import Rules
from game.summary import GameSummary, Seat, summarize
from game.table_state import TableState

log = logging.getLogger(__name__)


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


@dataclass(slots=True)
class TableStatus:
    """What the display knows of the table process."""

    ready: TableReady | None = None
    refused: str | None = None
    """Why the table cannot run as set up (from its last :class:`TableRefused`), until one
    starts."""
    started: bool = False
    """Whether a table has ever been ready in this run."""
    switches: tuple[SwitchStatus, ...] = ()
    door_open: bool | None = None
    reported: bool = False
    """Whether a :class:`Health` has come: from then on ``door_open`` ``None`` means no
    switch is wired, not that the table has not said yet."""
    link: LinkHealth | None = None
    restarts: int = 0
    measurements: list[Measurements] = field(default_factory=list)


class TableDiedError(RuntimeError):
    """The table process is gone."""


class TableRefusedError(TableDiedError):
    """The table process exited because it cannot run as set up (its reason, one line)."""


class RemoteTable:
    """Starts and talks to the table process. ``args``: its command line after
    ``python -m cabinet.table`` (everything but ``--fd``)."""

    def __init__(self, args: Sequence[str], *, python: str = sys.executable) -> None:
        self.args = list(args)
        self.python = python
        self.status = TableStatus()
        self.process: subprocess.Popen[bytes] | None = None
        self.conn: Connection | None = None
        self._next_game = 1
        self._matches: dict[int, RemoteMatch] = {}
        self._current: int | None = None
        self._dead = False
        self._lights_sent: LightsContext | None = None

    # -- the process ---------------------------------------------------------------------

    def start(self) -> RemoteTable:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        fd = theirs.fileno()
        env = dict(os.environ)
        self.process = subprocess.Popen(
            [self.python, "-m", "cabinet.table", "--fd", str(fd), *self.args],
            pass_fds=(fd,),
            env=env,
        )
        theirs.close()
        self.conn = Connection(mine.detach())
        self._dead = False
        self._lights_sent = None
        return self

    @property
    def ready(self) -> bool:
        return self.status.ready is not None

    @property
    def hardware_timestamps(self) -> bool | None:
        ready = self.status.ready
        return None if ready is None else ready.hardware_timestamps

    @property
    def input_backend(self) -> str | None:
        ready = self.status.ready
        return None if ready is None else ready.backend

    @property
    def error(self) -> BaseException | None:
        if self.alive:
            return None
        if self.status.refused is not None:
            return TableRefusedError(self.status.refused)
        return TableDiedError("the table process is gone")

    @property
    def started(self) -> bool:
        return self.status.started

    @property
    def refused(self) -> str | None:
        """Why the table cannot run as the cabinet is set up, or ``None``."""
        return self.status.refused

    @property
    def switches(self) -> tuple[SwitchStatus, ...]:
        return self.status.switches

    def hold(self) -> contextlib.nullcontext[bool]:
        """Nothing to hold: the game lives in the table process."""
        return contextlib.nullcontext(True)

    def play_onto(self, target: object) -> None:
        """The flow's game changed: ``None`` stops the table's current game (it is over,
        or was abandoned); a :class:`RemoteMatch` is already playing."""
        if target is None and self._current is not None:
            self.stop_game(self._current, time.monotonic_ns())

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def alive(self) -> bool:
        return not self._dead and self.process is not None and self.process.poll() is None

    def revive(self) -> None:
        """The table died: start a new one (its games are over; the flow abandons them)."""
        self._close(kill=True)
        self.status.restarts += 1
        self.status.ready = None
        self._matches.clear()
        self._current = None
        self.start()

    def stop(self, timeout_s: float = 3.0) -> None:
        """A clean stop: tell the table, wait for it, kill it if it does not go."""
        if self.process is None:
            return
        self.send(Shutdown())
        try:
            self.process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            log.warning("the table did not stop in %.1f s: killing it", timeout_s)
        self._close(kill=True)

    def _close(self, *, kill: bool) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.process is not None:
            if kill and self.process.poll() is None:
                self.process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(2.0)
            self.process = None

    # -- commands ------------------------------------------------------------------------

    def send(self, command: Command) -> bool:
        """Send a command; ``False`` when the table is gone (see :attr:`alive`)."""
        if self.conn is None or self._dead:
            return False
        try:
            self.conn.send(command)
        except OSError:
            self._dead = True
            return False
        return True

    def new_match(
        self, rules: Rules, seed: int, cpu_levels: Sequence[Level | None], start_abs_ns: int
    ) -> RemoteMatch:
        """Have the table play a new game (the flow's match factory)."""
        game = self._next_game
        self._next_game += 1
        match = RemoteMatch(self, game, rules, seed, cpu_levels, start_abs_ns)
        self._matches = {game: match}
        self._current = game
        return match

    def stop_game(self, game: int, now_ns: int) -> None:
        if self._current == game:
            self._current = None
        self.send(StopGame(game, now_ns))

    def recorded(self, game: int) -> None:
        self.send(Recorded(game))

    def forward(self, edges: Sequence[RawEdge]) -> None:
        if edges:
            self.send(ForwardEdges(tuple(edges)))

    def lights(self, context: LightsContext) -> None:
        """The lights' context changed (sent only when it did)."""
        if context != self._lights_sent:
            self._lights_sent = context
            self.send(context)

    def request_measurements(self) -> None:
        self.send(GetMeasurements())

    # -- reports -------------------------------------------------------------------------

    def wait(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for a report; whether one (or the table's end) came."""
        conn = self.conn
        if conn is None or self._dead:
            return False
        return bool(wait([conn], max(0.0, timeout_s)))

    def batches(self) -> list[list[FeedEvent]]:
        """Every report that has arrived, applied: each :class:`Decided` to its game,
        health and readiness to :attr:`status`. Returns the batches of input notices and
        current-game events, in order (a stopped game's events are left out)."""
        out: list[list[FeedEvent]] = []
        conn = self.conn
        while conn is not None and not self._dead:
            try:
                if not conn.poll():
                    break
                reports = unpack_reports(conn.recv_bytes())
            except (EOFError, OSError):
                self._dead = True
                break
            for report in reports:
                self._take(report, out)
        return out

    def _take(self, report: Report, out: list[list[FeedEvent]]) -> None:
        if isinstance(report, Decided):
            match = self._matches.get(report.game) if report.game is not None else None
            if match is not None:
                match.absorb(report)
            if report.game == self._current and report.game is not None:
                out.append(report.batch)
            else:
                out.append([e for e in report.batch if not isinstance(e, Event)])
        elif isinstance(report, Health):
            self.status.switches = report.switches
            self.status.door_open = report.door_open
            self.status.reported = True
            self.status.link = report.link
        elif isinstance(report, TableReady):
            self.status.ready = report
            self.status.refused = None
            self.status.started = True
            log.info(
                "table process %d ready: %s, input %s",
                report.pid,
                report.scheduling,
                report.backend,
            )
        elif isinstance(report, TableRefused):
            self.status.refused = report.reason
        elif isinstance(report, Measurements):
            self.status.measurements.append(report)
