"""A progress bar for long work on a terminal: silent for work under a second, and when
the stream is not a terminal (a log, a pipe, a test reading the errors line by line)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


class Progress:
    """Shows ``done/total`` with a bar on ``stream`` once the work has taken longer than
    ``delay_s``; redraws at most every ``interval_s``. ``clock`` returns seconds. ``show``:
    whether to draw at all (default: when ``stream`` is a terminal)."""

    def __init__(
        self,
        total: int,
        label: str,
        *,
        stream: TextIO | None = None,
        delay_s: float = 1.0,
        interval_s: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        show: bool | None = None,
    ) -> None:
        self.total = total
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.delay_s = delay_s
        self.interval_s = interval_s
        self.clock = clock
        self.started = clock()
        self.done = 0
        self._last_draw: float | None = None
        self.shown = False
        self.show = show if show is not None else _is_terminal(self.stream)

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self.show:
            return
        now = self.clock()
        if now - self.started < self.delay_s:
            return
        recent = self._last_draw is not None and now - self._last_draw < self.interval_s
        if recent and self.done < self.total:
            return
        self._last_draw = now
        self._draw(now)

    def _draw(self, now: float) -> None:
        width = 30
        fraction = self.done / self.total if self.total else 1.0
        filled = int(width * fraction)
        elapsed = now - self.started
        eta = elapsed / fraction - elapsed if fraction > 0 else 0.0
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(
            f"\r{self.label} [{bar}] {self.done}/{self.total} {elapsed:5.1f}s, ~{eta:4.0f}s left"
        )
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed, or not a real stream
        return False
