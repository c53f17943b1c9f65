"""Drawing the lights in a terminal: one coloured block per light, with its name."""

from __future__ import annotations

from collections.abc import Sequence

#: Short labels for the fifteen lights, in light-index order.
LABELS = (
    "S1", "S2", "SPIT",
    "1a", "1b", "1c", "1d", "1P", "1Q",
    "2a", "2b", "2c", "2d", "2P", "2Q",
)  # fmt: skip


def block(colour: tuple[int, int, int]) -> str:
    """Two character cells painted ``colour`` (24-bit ANSI background), then a reset."""
    red, green, blue = colour
    return f"\x1b[48;2;{red};{green};{blue}m  \x1b[0m"


def draw(colours: Sequence[tuple[int, int, int]]) -> str:
    """One line showing every light: ``S1 ██ S2 ██ SPIT ██ …``."""
    cells = []
    for i, colour in enumerate(colours):
        label = LABELS[i] if i < len(LABELS) else str(i)
        cells.append(f"{label} {block(colour)}")
    return " ".join(cells)
