"""The cabinet's phase: where the flow (the display process) is, from attract to
initials. The table process lights the board by it (:mod:`cabinet.shared.light_show`)."""

from __future__ import annotations

import enum


class Phase(enum.Enum):
    ATTRACT = "attract"
    JOIN = "join"
    READY = "ready"
    PLAY = "play"
    GAME_OVER = "game_over"
    INITIALS = "initials"
