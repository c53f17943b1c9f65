"""Our own debounce, chatter counting and stuck-switch detection, shared by every backend.

gpiozero runs with ``bounce_time=None``: lgpio's own debounce reports an edge only once
the line has been stable for the debounce time, stamped *last bounce + debounce time*, so
a bouncy button would lose races it won. Here instead:

- The first edge of a press is the press, with its own timestamp. Edges within
  ``debounce_ms`` after an accepted edge (press or release) are *chatter*: counted per
  control and dropped, so chatter never moves a press's timestamp.
- If, once that window has passed, the line rests at the other level (a tap shorter than
  the debounce time), the change is reported at the timestamp of the raw edge that left
  it there, and that edge is no longer counted as chatter.
- A control held down for ``stuck_after_s`` is reported stuck (:class:`SwitchStuck`) and
  ignored for play until it is released (:class:`SwitchFreed`): up and staying up for
  the debounce time, so a flickering contact never becomes a release and a new press.
  Its release is not passed on either. A control already down when the backend opened
  is never reported as a press.

The filter is single-threaded: the consumer (the referee's side) owns it. It reads no
clock; every call carries the time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cabinet.inputs.controls import ALL_CONTROLS, Control
from cabinet.inputs.edge_queue import RawEdge
from game.edges import Edge, EdgeKind
from game.units import MS

DEFAULT_DEBOUNCE_MS = 5.0
"""Arcade micro-switches bounce for well under 5 ms; no one presses twice within 5 ms."""
DEFAULT_STUCK_AFTER_S = 10.0
"""Nobody holds a button for 10 s in a game of Spit; a switch that does is broken."""


class FilterSettingsError(ValueError):
    """A debounce or stuck-switch setting is out of range."""


@dataclass(frozen=True, slots=True)
class OperatorEdge:
    """TEST or SERVICE went down (``pressed``) or up at ``t_ns`` (ns, CLOCK_MONOTONIC)."""

    control: Control
    pressed: bool
    t_ns: int


@dataclass(frozen=True, slots=True)
class SwitchStuck:
    """``control`` has been held since ``since_ns`` for the stuck time; from ``t_ns`` on
    it is ignored for play until released. Show it to the players and in the service
    menu."""

    control: Control
    since_ns: int
    t_ns: int


@dataclass(frozen=True, slots=True)
class SwitchFreed:
    """A stuck ``control`` was released at ``t_ns``; it counts for play again."""

    control: Control
    t_ns: int


FilterOutput = Edge | OperatorEdge | SwitchStuck | SwitchFreed


@dataclass(frozen=True, slots=True)
class SwitchStatus:
    """One control as the service menu's input test shows it."""

    control: Control
    down: bool
    stuck: bool
    presses: int
    chatter: int
    """Edges dropped as bounce within the debounce time."""

    @property
    def name(self) -> str:
        return self.control.name


class _Switch:
    """The filter's state for one control."""

    __slots__ = (
        "button",
        "changed_ns",
        "chatter",
        "control",
        "down",
        "forwarded",
        "last_raw_ns",
        "pending_ns",
        "player",
        "presses",
        "raw_down",
        "since_ns",
        "stuck",
    )

    def __init__(self, control: Control) -> None:
        self.control = control
        self.player = control.player
        """The player whose button this is; ``None`` for TEST and SERVICE."""
        self.button = control.button
        self.down = False
        """The debounced level."""
        self.raw_down = False
        """The level of the last raw edge."""
        self.changed_ns: int | None = None
        """When an edge last changed the debounced level: its debounce window starts
        here (``None``: no edge yet)."""
        self.since_ns: int | None = None
        """Since when the debounced level has held (an edge, or the initial reading)."""
        self.last_raw_ns: int | None = None
        self.forwarded = False
        """Whether the current press was passed on (so its release is too)."""
        self.stuck = False
        self.pending_ns: int | None = None
        """A stuck switch's release, waiting to stay up for the debounce time."""
        self.presses = 0
        self.chatter = 0


class SwitchFilter:
    """Raw edges in (any order across controls, in time order per control), debounced
    game edges, operator edges and stuck-switch notices out."""

    def __init__(
        self,
        *,
        debounce_ms: float = DEFAULT_DEBOUNCE_MS,
        stuck_after_s: float = DEFAULT_STUCK_AFTER_S,
        controls: Iterable[Control] = ALL_CONTROLS,
    ) -> None:
        if not 0 <= debounce_ms <= 50:
            raise FilterSettingsError(f"debounce_ms must be between 0 and 50, got {debounce_ms!r}")
        if not 1 <= stuck_after_s <= 3600:
            raise FilterSettingsError(
                f"stuck_after_s must be between 1 and 3600 seconds, got {stuck_after_s!r}"
            )
        self.debounce_ns = round(debounce_ms * MS)
        self.stuck_after_ns = round(stuck_after_s * 1_000_000_000)
        self._switches = {c: _Switch(c) for c in controls}
        self.out_of_order = 0
        """Raw edges older than the last one of the same control, dropped."""

    # -- input ---------------------------------------------------------------------

    def process(self, raw: RawEdge) -> list[FilterOutput]:
        """Take one raw edge; returns what it decided, in time order."""
        s = self._switches[raw.control]
        out: list[FilterOutput] = []
        t = raw.t_ns
        if raw.initial:
            if s.last_raw_ns is None and s.since_ns is None:
                s.down = s.raw_down = raw.pressed
                s.since_ns = t
            return out
        if s.last_raw_ns is not None and t < s.last_raw_ns:
            self.out_of_order += 1
            return out
        self._settle(s, t, out)
        s.raw_down = raw.pressed
        s.last_raw_ns = t
        if s.stuck:
            # A stuck switch is released only by staying up for the debounce time: a
            # flicker of its contact is chatter, never a release and a new press.
            if not raw.pressed and s.pending_ns is None:
                s.pending_ns = t
            elif raw.pressed and s.pending_ns is not None:
                s.pending_ns = None
                s.chatter += 2
            else:
                s.chatter += 1
            return out
        changed = s.changed_ns
        if raw.pressed == s.down or (changed is not None and t < changed + self.debounce_ns):
            s.chatter += 1
            return out
        self._accept(s, raw.pressed, t, out)
        return out

    def poll(self, now_ns: int) -> list[FilterOutput]:
        """Let time pass to ``now_ns``: settle finished debounce windows and report
        switches held too long. Call it whenever the clock is read."""
        out: list[FilterOutput] = []
        for s in self._switches.values():
            if s.since_ns is not None:
                self._settle(s, now_ns, out)
        return out

    # -- queries -------------------------------------------------------------------

    def status(self) -> tuple[SwitchStatus, ...]:
        """Every control's level, stuck flag and counters, in :data:`ALL_CONTROLS` order."""
        return tuple(
            SwitchStatus(s.control, s.down, s.stuck, s.presses, s.chatter)
            for s in self._switches.values()
        )

    def stuck(self) -> tuple[Control, ...]:
        """The controls reported stuck now."""
        return tuple(s.control for s in self._switches.values() if s.stuck)

    def chatter(self, control: Control) -> int:
        return self._switches[control].chatter

    def next_deadline_ns(self) -> int | None:
        """The earliest time at which :meth:`poll` could report something, or ``None``."""
        best: int | None = None
        for s in self._switches.values():
            changed = s.changed_ns
            since = s.since_ns
            due: int | None = None
            if s.pending_ns is not None:
                due = s.pending_ns + self.debounce_ns
            elif changed is not None and not s.stuck and s.raw_down != s.down:
                due = changed + self.debounce_ns
            elif since is not None and s.down and not s.stuck:
                due = since + self.stuck_after_ns
            if due is not None and (best is None or due < best):
                best = due
        return best

    # -- internals -----------------------------------------------------------------

    def _settle(self, s: _Switch, t: int, out: list[FilterOutput]) -> None:
        """Bring ``s`` up to time ``t`` (before an edge at ``t`` is looked at)."""
        pending = s.pending_ns
        if pending is not None and t >= pending + self.debounce_ns:
            s.pending_ns = None
            self._accept(s, False, pending, out)
            return
        changed = s.changed_ns
        if (
            changed is not None
            and not s.stuck
            and s.raw_down != s.down
            and t >= changed + self.debounce_ns
        ):
            # The line came to rest at the other level inside the window: that last raw
            # edge was a real change, not chatter.
            s.chatter -= 1
            last = s.last_raw_ns
            assert last is not None
            self._check_stuck(s, last, out)
            self._accept(s, s.raw_down, last, out)
        self._check_stuck(s, t, out)

    def _check_stuck(self, s: _Switch, t: int, out: list[FilterOutput]) -> None:
        since = s.since_ns
        if s.down and not s.stuck and since is not None and t - since >= self.stuck_after_ns:
            s.stuck = True
            s.forwarded = False  # its release is not played either
            out.append(SwitchStuck(s.control, since, since + self.stuck_after_ns))

    def _accept(self, s: _Switch, pressed: bool, t: int, out: list[FilterOutput]) -> None:
        s.down = pressed
        s.changed_ns = s.since_ns = t
        player, button = s.player, s.button
        if pressed:
            s.presses += 1
            s.forwarded = True
            if player is None or button is None:
                out.append(OperatorEdge(s.control, True, t))
            else:
                out.append(Edge(player, button, EdgeKind.PRESS, t))
            return
        if s.stuck:
            s.stuck = False
            out.append(SwitchFreed(s.control, t))
        if s.forwarded:
            s.forwarded = False
            if player is None or button is None:
                out.append(OperatorEdge(s.control, False, t))
            else:
                out.append(Edge(player, button, EdgeKind.RELEASE, t))
