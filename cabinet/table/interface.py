"""What the display's main loop needs of a table, in this process or another."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from cabinet.flow import Match
from cabinet.inputs.debounce import SwitchStatus
from cabinet.inputs.edge_queue import RawEdge
from cabinet.inputs.feed import FeedEvent
from cabinet.table.messages import LightsContext
from game.bots import Level
from game.rules import Rules


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
    def error(self) -> BaseException | None: ...

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
