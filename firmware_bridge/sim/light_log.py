"""A log of what the simulated board's lights show, one JSON line per change.

``python -m firmware_bridge.sim --log FILE`` samples the stub hardware (every 5 ms) and
appends a line whenever the lit set changes: ``{"t_ms": …, "lit": ["stuck1", "spit"]}``,
``t_ms`` on CLOCK_MONOTONIC, the names those of :data:`firmware_bridge.lights.LIGHT_NAMES`.
Whoever drives the cabinet from outside (the virtual Pi's checks) reads it to see that the
STUCK and SPIT lights really came on.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from firmware_bridge.lights import LIGHT_NAMES

SAMPLE_MS = 5
"""How often ``--log`` samples the lights: well inside SPIT's 250 ms blink."""


def lit_names(shown: Sequence[tuple[int, int, int]]) -> tuple[str, ...]:
    """The names of the lights that are on (any channel above zero) in ``shown``."""
    return tuple(name for name, colour in zip(LIGHT_NAMES, shown, strict=False) if any(colour))


class LightLog:
    """Writes a line to ``out`` each time the lit set differs from the last one written."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._last: tuple[str, ...] | None = None

    def sample(self, shown: Sequence[tuple[int, int, int]], t_ms: int) -> bool:
        """Log ``shown`` at ``t_ms`` if it changed; returns whether a line was written."""
        lit = lit_names(shown)
        if lit == self._last:
            return False
        self._last = lit
        self.out.write(json.dumps({"t_ms": t_ms, "lit": list(lit)}) + "\n")
        self.out.flush()
        return True
