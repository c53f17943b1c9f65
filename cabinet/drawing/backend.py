"""What a display backend is: the part that turns a frame's display list into pixels on
the screen.

Two backends draw the same display list (:class:`~cabinet.drawing.painter.Paint`: an
item and its :class:`~cabinet.drawing.painter.Look`):

- :class:`~cabinet.drawing.software.SoftwareBackend` blits surfaces onto pygame's display
  surface, repainting only the rectangles that changed, and keeps every picture's pixels;
- :class:`~cabinet.drawing.texture.TextureBackend` draws textures with the GPU: each
  picture uploaded once, each changed frame drawn whole and presented, nothing drawn
  when the list is the last one's; it keeps no pixels once they are uploaded.

The renderer (:mod:`cabinet.drawing.renderer`) builds the list; the service menu paints a
surface of its own that the backend shows (:meth:`DisplayBackend.canvas`). docs/display.md
says how the cabinet chooses between them.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import pygame

from cabinet.drawing.painter import Look, Paint


class BackendChoice(enum.Enum):
    """The ``display_backend`` setting and ``run --display-backend``."""

    AUTO = "auto"
    TEXTURE = "texture"
    SOFTWARE = "software"


class BackendKind(enum.Enum):
    """The backend that draws."""

    TEXTURE = "texture"
    SOFTWARE = "software"


@dataclass(frozen=True, slots=True)
class FrameCounts:
    """What one frame cost the backend: pictures uploaded (and their bytes) and draw
    calls; all zero for a frame not drawn."""

    uploads: int = 0
    uploaded_bytes: int = 0
    draw_calls: int = 0


class BackendFailed(RuntimeError):
    """The backend cannot go on drawing (the GPU's context lost, out of memory): the
    cabinet hands over to software."""


class DisplayBackend(Protocol):
    """Draws display lists onto the screen (see the module's docstring)."""

    kind: BackendKind
    keeps_pixels: bool
    """Whether the renderer's caches should keep the pictures' surfaces."""
    describe: str
    """Which backend, video driver and renderer draw, in one line."""
    last_counts: FrameCounts
    """What the last frame cost."""

    @property
    def size(self) -> tuple[int, int]:
        """The screen's size in px."""
        ...

    def frame(self, background: Look, paints: Sequence[Paint], *, full: bool) -> list[pygame.Rect]:
        """Draw ``paints`` over the opaque ``background`` (``full``: everything, even
        if unchanged); returns the rectangles changed (none: nothing to present)."""
        ...

    def prepare(self, looks: Iterable[Look]) -> None:
        """Make these pictures ready, so no frame in play pays for them."""
        ...

    def canvas(self) -> pygame.Surface:
        """A surface the size of the screen for the service menu to paint."""
        ...

    def canvas_drawn(self, rects: list[pygame.Rect]) -> list[pygame.Rect]:
        """The menu painted ``rects`` of :meth:`canvas`: take them to the screen;
        returns what to present."""
        ...

    def present(self, rects: list[pygame.Rect]) -> None:
        """Show the frame whose changed rectangles are ``rects`` (nothing for none)."""
        ...

    def close(self) -> None:
        """Let go of what the backend holds."""
        ...
