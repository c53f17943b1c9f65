"""What crosses between the display process and the table process.

Every message is a small frozen value made of the game's own types (edges, events,
cards, :class:`~game.table_state.TableState`), sent pickled over one Unix socket pair
(:class:`multiprocessing.connection.Connection`).

Commands, display → table: :class:`StartGame`, :class:`StopGame`, :class:`Recorded`,
:class:`LightsContext`, :class:`ForwardEdges` (keyboard edges), :class:`GetMeasurements`,
:class:`Shutdown`.

Reports, table → display: :class:`TableReady` once, :class:`Decided` for every pump that
decided something or took an edge, :class:`Health` when the switches, the door or the
light link change, :class:`Measurements` when asked; or, instead of :class:`TableReady`,
:class:`TableRefused` when the table cannot run as set up (it then exits).
"""

from __future__ import annotations

import dataclasses
import io
import pickle
import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cabinet.inputs.debounce import SwitchStatus
from cabinet.inputs.edge_queue import RawEdge
from cabinet.inputs.feed import FeedEvent
from cabinet.shared.phase import Phase
from firmware_bridge.lights import LightState
from game.edges import Edge
from game.rules import Rules
from game.table_state import TableState

if TYPE_CHECKING:  # the link (and pyserial) loads only with a board: --lights PORT
    from firmware_bridge.link import LinkHealth

# -- commands ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartGame:
    """Play a new game: the table builds the same :class:`~game.live_match.LiveMatch`
    the flow would (same rules, seed and seats), starting at ``start_abs_ns``."""

    game: int
    """The display's number for this game (the table echoes it in every report)."""
    rules: Rules
    seed: int
    cpu_levels: tuple[int | None, int | None]
    """Each seat's CPU level, or ``None`` for a person."""
    start_abs_ns: int


@dataclass(frozen=True, slots=True)
class StopGame:
    """Stop playing ``game`` (the flow abandoned it, or it is over). The table keeps it
    until :class:`Recorded` says the display has it in the books."""

    game: int
    now_ns: int


@dataclass(frozen=True, slots=True)
class Recorded:
    """The display has committed ``game`` to the books: the table may forget it."""

    game: int


@dataclass(frozen=True, slots=True)
class LightsContext:
    """What the lights depend on besides the game: the flow's phase, who joined, the last
    winner, the operator's hints and brightness, or a whole state to show as it is (the
    service menu's)."""

    phase: Phase
    joined: tuple[bool, bool] = (False, False)
    winner: int | None = None
    hints: bool = False
    brightness: int = 100
    override: LightState | None = None


@dataclass(frozen=True, slots=True)
class ForwardEdges:
    """Raw edges read in the display process (the keyboard, stamped at the pump)."""

    edges: tuple[RawEdge, ...]


@dataclass(frozen=True, slots=True)
class GetMeasurements:
    """Ask for the table's latency samples (benchmarks)."""


@dataclass(frozen=True, slots=True)
class Shutdown:
    """A clean stop: the display stops too, and records what it must itself."""


Command = (
    StartGame | StopGame | Recorded | LightsContext | ForwardEdges | GetMeasurements | Shutdown
)

# -- reports -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableReady:
    pid: int
    realtime: bool
    """Whether the table got a real-time scheduling policy."""
    scheduling: str
    """What it got, in words (for the log and ``spit-cabinet doctor``)."""
    backend: str
    hardware_timestamps: bool
    lights_on_board: bool


@dataclass(frozen=True, slots=True)
class Decided:
    """One pump's worth: the input layer's notices and the current game's events, in
    order, the game's state after them, and the edges the referee took (match time,
    stamped ``delivered_ns``), so the display holds a replayable copy of the record."""

    game: int | None
    batch: list[FeedEvent]
    state: TableState | None
    edges: tuple[Edge, ...]
    decided_ns: int
    """The table's clock when the pump returned (cabinet clock, ns)."""


@dataclass(frozen=True, slots=True)
class Health:
    switches: tuple[SwitchStatus, ...]
    door_open: bool | None
    """The door switch's state, or ``None`` with no switch wired."""
    link: LinkHealth | None


@dataclass(frozen=True, slots=True)
class Measurements:
    """Latency samples (ns), kept when the table runs with ``--measure``."""

    decision_ns: list[int] = field(default_factory=list)
    """Press ``t_ns`` → the referee's decision on it, per decided press."""
    led_ns: list[int] = field(default_factory=list)
    """Decision → the LED snapshot written, per decision that changed the lights."""
    deliveries_ns: list[tuple[int, int]] = field(default_factory=list)
    """Per press or release: its ``t_ns`` and when the referee took it in
    (``delivered_ns``), both on the clock (not the game's time)."""
    edges: int = 0
    late_edges: int = 0
    race_window_ms: float = 0.0
    path_ns: list[tuple[int, int, int]] = field(default_factory=list)
    """Per edge from the press channel: its ``t_ns``, when the channel received it and
    when it was queued for the referee (:data:`~cabinet.inputs.press_channel.PathStamp`)."""
    steps_ns: list[tuple[int, int]] = field(default_factory=list)
    """The table loop's rounds that took longer than half a millisecond: start, end."""


@dataclass(frozen=True, slots=True)
class TableRefused:
    """The table cannot run as the cabinet is set up (no GPIO header for ``--input gpio``,
    a pin map override that does not hold): ``reason``, one line for people. The table
    exits after sending it; starting it again helps only once the cause is fixed."""

    reason: str


Report = TableReady | Decided | Health | Measurements | TableRefused

_LENGTH = struct.Struct("<I")


_BY_CALL: dict[type, bool] = {}
"""Per class: whether :class:`_ReportPickler` pickles it as a call of its class."""


class _ReportPickler(pickle.Pickler):
    """Pickles a dataclass as a call of its class with its fields, where its class can be
    so called back (every field in ``__init__``, in order, none keyword-only, no
    ``InitVar``; no ``__reduce__`` of its own). Python's own way for a frozen, slotted
    dataclass sets each field through ``dataclasses.fields()`` on loading: the display
    takes in a report an edge, and a switch snapshot of 14 of them took 84 µs that way,
    47 this way (``bench/reports.py``)."""

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        by_call = _BY_CALL.get(cls)
        if by_call is None:
            by_call = _BY_CALL[cls] = _callable_back(cls)
        if by_call:
            return cls, tuple(getattr(obj, name) for name in cls.__dataclass_fields__)
        return NotImplemented


def _callable_back(cls: type) -> bool:
    if not dataclasses.is_dataclass(cls) or "__reduce__" in vars(cls):
        return False
    fields = dataclasses.fields(cls)
    return len(fields) == len(cls.__dataclass_fields__) and all(
        f.init and not f.kw_only for f in fields
    )


def pickle_report(report: Report) -> bytes:
    """``report`` pickled for :func:`pack_reports` (:func:`unpack_reports` reads it with
    :func:`pickle.loads`)."""
    out = io.BytesIO()
    _ReportPickler(out, pickle.HIGHEST_PROTOCOL).dump(report)
    return out.getvalue()


def pack_reports(pickled: list[bytes]) -> bytes:
    """Reports already pickled, framed into one message (a 4-byte length before each),
    so a sender can pass many at once without pickling them again."""
    return b"".join(_LENGTH.pack(len(p)) + p for p in pickled)


def unpack_reports(message: bytes) -> list[Report]:
    """The inverse of :func:`pack_reports`."""
    out: list[Report] = []
    view = memoryview(message)
    at = 0
    while at < len(view):
        (size,) = _LENGTH.unpack_from(view, at)
        at += _LENGTH.size
        out.append(pickle.loads(view[at : at + size]))
        at += size
    return out
