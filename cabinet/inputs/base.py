"""The interface every input backend implements.

A backend watches the cabinet's controls (see :mod:`cabinet.inputs.controls`) and puts
one :class:`~cabinet.inputs.edge_queue.RawEdge` on its :class:`EdgeQueue` for every
level change, stamped with the change's own time on CLOCK_MONOTONIC. It does nothing
else: debouncing, stuck switches and the referee live on the consumer's side
(:mod:`cabinet.inputs.debounce`, :mod:`cabinet.inputs.feed`), the same for every backend.

Backends are context managers: ``with open_backend(...) as backend:`` opens the devices
and closes them again.
"""

from __future__ import annotations

import abc
from types import TracebackType
from typing import ClassVar

from cabinet.inputs.clock import Clock, monotonic_clock
from cabinet.inputs.controls import Control
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge


class InputBackend(abc.ABC):
    """Reports every press and release of the cabinet's controls onto ``edges``."""

    name: ClassVar[str]
    """``gpio``, ``mock`` or ``keyboard``: what ``--input`` calls it."""

    hardware_timestamps: bool = False
    """Whether ``t_ns`` is when the edge happened (kernel timestamp) rather than when
    software first saw it. The service menu shows it."""

    def __init__(self, edges: EdgeQueue, *, clock: Clock = monotonic_clock) -> None:
        self.edges = edges
        self.clock = clock
        self.is_open = False

    @abc.abstractmethod
    def open(self) -> None:
        """Start reporting. Puts each control's current level on the queue first
        (``RawEdge(initial=True)``), so a button held at power-on is known."""

    @abc.abstractmethod
    def close(self) -> None:
        """Stop reporting and free the devices. Safe to call twice."""

    def pump(self) -> None:
        """Read pending input on the calling thread. Backends whose edges arrive on
        their own thread (gpio, mock) do nothing; the keyboard reads pygame's event
        queue, so the main loop calls this once a frame."""
        return None

    def _put_initial(self, control: Control, pressed: bool) -> None:
        self.edges.put(RawEdge(control, pressed, self.clock(), initial=True))

    def __enter__(self) -> InputBackend:
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
