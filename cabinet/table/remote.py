"""The display process's side of the table process.

:class:`RemoteTable` starts ``python -m cabinet.table`` with one end of a socket pair,
sends it commands and takes its reports; when it dies, :meth:`RemoteTable.revive`
starts a new one. Each game it starts is a
:class:`~cabinet.table.remote_match.RemoteMatch`, the flow's handle on it.
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
    StopGame,
    TableReady,
    TableRefused,
    unpack_reports,
)
from cabinet.table.remote_match import RemoteMatch
from firmware_bridge.link import LinkHealth
from game.bots import Level
from game.events import Event
from game.rules import Rules

log = logging.getLogger(__name__)


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
