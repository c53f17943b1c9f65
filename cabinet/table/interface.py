"""What the display's main loop needs of a table, in this process or another."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from cabinet.inputs.debounce import SwitchStatus
from cabinet.inputs.edge_queue import RawEdge
from cabinet.inputs.feed import FeedEvent
from cabinet.table.messages import LightsContext
from game.bots import Level
from game.events import Event, Outcome
from game.record import MatchRecord
from game.rules import Rules
from game.summary import GameSummary
from game.table_state import TableState


class Match(Protocol):
    """A game the flow runs: a :class:`~game.live_match.LiveMatch` played in this
    process, or a :class:`~cabinet.table.remote_match.RemoteMatch` the table process plays."""

    number: int | None
    seed: int
    start_abs_ns: int
    humans: tuple[int, ...]
    events: list[Event]

    @property
    def over(self) -> bool: ...

    @property
    def outcome(self) -> Outcome | None: ...

    def state(self) -> TableState: ...

    def to_match(self, abs_ns: int) -> int: ...

    def abandon(self, now_abs_ns: int) -> list[Event]: ...

    def summary(self) -> GameSummary: ...

    def record(self) -> MatchRecord: ...


class Table(Protocol):
    """:class:`~cabinet.table.local.LocalTable` or :class:`~cabinet.table.remote.RemoteTable`."""

    @property
    def ready(self) -> bool:
        """Whether the table is up (a restarted table process is not, for a moment)."""

    @property
    def alive(self) -> bool: ...

    @property
    def hardware_timestamps(self) -> bool | None:
        """Whether the table's buttons carry kernel timestamps (``None``: not known)."""

    @property
    def input_backend(self) -> str | None:
        """The input backend the table's buttons come through (``gpio``, ``mock``,
        ``keyboard``; ``None``: not known)."""

    @property
    def error(self) -> BaseException | None: ...

    @property
    def started(self) -> bool:
        """Whether a table has been ready in this run (one that refuses from the start
        leaves ``spit-cabinet run`` to say why and stop)."""

    @property
    def refused(self) -> str | None:
        """Why the table cannot run as the cabinet is set up (it stopped, and starting it
        again helps only once that is fixed), or ``None``."""

    @property
    def switches(self) -> tuple[SwitchStatus, ...]: ...

    def start(self) -> Any: ...

    def stop(self) -> None: ...

    def revive(self) -> None: ...

    def new_match(
        self, rules: Rules, seed: int, cpu_levels: Sequence[Level | None], start_abs_ns: int
    ) -> Match: ...

    def play_onto(self, target: Any) -> None: ...

    def hold(self) -> AbstractContextManager[Any]: ...

    def wait(self, timeout_s: float) -> bool: ...

    def batches(self) -> list[list[FeedEvent]]: ...

    def lights(self, context: LightsContext) -> None: ...

    def forward(self, edges: Sequence[RawEdge]) -> None: ...

    def recorded(self, game: int) -> None: ...
