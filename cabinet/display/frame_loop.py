"""The cabinet's frame loop: a frame every 1/60 s, and one at once when the table decides
something, so a decided press is drawn without waiting for the next frame."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cabinet.display.app import CabinetApp

FRAME_NS = 16_666_667
"""60 frames a second."""

MIN_FRAME_GAP_NS = 2_000_000
"""A decided press is drawn at once, but frames come at most every 2 ms (the figures
that chose it: bench/README.md)."""


def run_frames(
    app: CabinetApp,
    keep_going: Callable[[], bool],
    after_frame: Callable[[int], None] | None = None,
) -> None:
    """The cabinet's frame loop: a frame every 1/60 s, and one at once when the referee
    decides something (at most every 2 ms), until ``keep_going()`` is false.
    ``after_frame(now_ns)`` runs after each frame is shown."""
    next_frame = app.clock()
    while keep_going():
        now = app.clock()
        app.present(app.step(now))
        if after_frame is not None:
            after_frame(app.clock())
        if now >= next_frame:  # the frame that was due (an early one keeps the schedule)
            next_frame += FRAME_NS
            if next_frame <= now:  # fell behind: carry on from here, no catching up
                next_frame = now + FRAME_NS
        app.wait(next_frame, now + MIN_FRAME_GAP_NS)
