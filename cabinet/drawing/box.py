"""Rectangles in pixels: :class:`Box`, and :class:`Placed`, a box with the rotation its
content is drawn at. Pure arithmetic, no pygame.

All lengths are integer pixels; a :class:`Box` is ``(x, y, w, h)`` with ``(0, 0)`` the
screen's top-left corner. :meth:`Box.turned` is the 180° turn the cocktail layout uses to
give the facing player an exact image of the near player's half.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle in pixels: left ``x``, top ``y``, width ``w``, height ``h``."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    @property
    def area(self) -> int:
        return self.w * self.h

    def intersects(self, other: Box) -> bool:
        """Whether the two boxes share any pixel (touching edges do not)."""
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def contains(self, other: Box) -> bool:
        """Whether ``other`` lies wholly inside this box."""
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def inflate(self, by: int) -> Box:
        """This box grown by ``by`` pixels on every side (shrunk when negative)."""
        return Box(self.x - by, self.y - by, self.w + 2 * by, self.h + 2 * by)

    def union(self, other: Box) -> Box:
        x = min(self.x, other.x)
        y = min(self.y, other.y)
        return Box(x, y, max(self.right, other.right) - x, max(self.bottom, other.bottom) - y)

    def lerp(self, other: Box, u: float) -> Box:
        """The box ``u`` of the way (0..1, or beyond for overshoot) from this one to ``other``."""
        return Box(
            round(self.x + (other.x - self.x) * u),
            round(self.y + (other.y - self.y) * u),
            round(self.w + (other.w - self.w) * u),
            round(self.h + (other.h - self.h) * u),
        )

    def turned(self, area: Box) -> Box:
        """This box turned 180° about the centre of ``area`` (exact in integers)."""
        return Box(
            2 * area.x + area.w - self.right, 2 * area.y + area.h - self.bottom, self.w, self.h
        )

    def moved(self, dx: int, dy: int) -> Box:
        return Box(self.x + dx, self.y + dy, self.w, self.h)

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.w, self.h)


@dataclass(frozen=True, slots=True)
class Placed:
    """A box for text or a panel, with the rotation (degrees, 0 or 180) its content is
    drawn at so that the player it is meant for reads it upright."""

    box: Box
    rotation: int
