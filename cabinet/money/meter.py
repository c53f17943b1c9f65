"""The coin meter's pulses: a queue that gives each owed pulse whole, one after another.

A mechanical meter counts one per pulse of its coil: ``on_ms`` energised, then at least
``off_ms`` released before the next. :class:`MeterPulser` owns the line's timing; it
reads no clock (:meth:`MeterPulser.tick` takes ``now_ns``) and it is ticked at least once
a frame, so a pulse is never shorter than ``on_ms`` (at most a frame longer). Pulses are
*queued* (:meth:`MeterPulser.queue`), never dropped; a pulse counts as given when it ends
(:meth:`tick` returns it), so a power cut in the middle of one gives it again after the
restart: the meter may then read one more than the audits, never fewer.

>>> lines = []
>>> m = MeterPulser(set_line=lines.append, on_ms=50, off_ms=50)
>>> m.queue(2)
>>> [m.tick(t * 1_000_000) for t in (0, 50, 100, 150)]
[0, 1, 0, 1]
>>> lines
[True, False, True, False]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from game.units import MS

DEFAULT_ON_MS: Final = 50
DEFAULT_OFF_MS: Final = 50


class MeterPulser:
    """One meter line: ``set_line(True)`` energises the coil, ``set_line(False)`` releases
    it."""

    def __init__(
        self,
        set_line: Callable[[bool], None],
        *,
        on_ms: int = DEFAULT_ON_MS,
        off_ms: int = DEFAULT_OFF_MS,
    ) -> None:
        self._set_line = set_line
        self.retime(on_ms, off_ms)
        self.waiting = 0
        """Pulses queued and not started."""
        self._on_since: int | None = None
        self._off_since: int | None = None
        self._counted = True
        """Whether the pulse now on counts (a queued one) or is a test pulse."""
        self._tests = 0

    def retime(self, on_ms: int, off_ms: int) -> None:
        """New on and off times (ms), from the next change of the line on."""
        if on_ms <= 0 or off_ms <= 0:
            raise ValueError(f"meter times must be above 0 ms; got on {on_ms}, off {off_ms}")
        self.on_ns = on_ms * MS
        self.off_ns = off_ms * MS

    @property
    def busy(self) -> bool:
        """A pulse is on, or its off time has not passed."""
        return self._on_since is not None or self._off_since is not None

    def queue(self, pulses: int) -> None:
        """Owe the meter ``pulses`` more."""
        if pulses < 0:
            raise ValueError(f"pulses cannot be taken back: {pulses}")
        self.waiting += pulses

    def test(self) -> None:
        """Give one pulse of its own (the service menu's meter test), after those queued
        and not counted as one of theirs."""
        self._tests += 1

    def tick(self, now_ns: int) -> int:
        """Move the line to ``now_ns``; returns how many queued pulses ended now (0 or 1;
        a test pulse is not counted)."""
        ended = 0
        if self._on_since is not None and now_ns - self._on_since >= self.on_ns:
            self._set_line(False)
            self._on_since = None
            self._off_since = now_ns
            ended = 1 if self._counted else 0
        if self._off_since is not None and now_ns - self._off_since >= self.off_ns:
            self._off_since = None
        if not self.busy and (self.waiting or self._tests):
            self._counted = self.waiting > 0
            if self._counted:
                self.waiting -= 1
            else:
                self._tests -= 1
            self._on_since = now_ns
            self._set_line(True)
        return ended

    def next_due_ns(self) -> int | None:
        """When :meth:`tick` next changes the line, or ``None`` when idle."""
        if self._on_since is not None:
            return self._on_since + self.on_ns
        if self._off_since is not None:
            return self._off_since + self.off_ns
        return None
