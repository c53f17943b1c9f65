"""Shared fixtures for the display tests: headless pygame (SDL's dummy video driver), a
recorded CPU-vs-CPU game to drive real scenes, and a renderer factory."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Callable, Iterator

import pygame
import pytest

from cabinet.drawing.geometry import Orientation
from cabinet.drawing.renderer import Renderer
from cabinet.drawing.views import TableLabels
from game.bots import level
from game.cpu_match import play_cpu_game
from game.record import MatchRecord
from game.units import MS

#: The two resolutions every screen is checked at: a full-HD upright and a small panel.
RESOLUTIONS = ((1920, 1080), (800, 480))
LABELS = TableLabels(("PLAYER 1", "PLAYER 2"), "STUCK")


def rank_ink(face: pygame.Surface, colour: tuple[int, int, int]) -> tuple[int, int]:
    """The drawn rank's height and width in pixels, read off a card face: the first run of
    rows, from the top, with ink of the suit's ``colour`` in the face's top-left part
    (the rank; the pip under it starts a gap lower)."""
    w, h = face.get_size()
    card = pygame.Surface((w, h))
    card.fill((255, 255, 255))  # the see-through rounded corners are no ink
    card.blit(face, (0, 0))
    part = card.subsurface((0, 0, w * 7 // 10, h // 2))
    ink = pygame.mask.from_threshold(part, colour, (70, 70, 70, 255))
    row = pygame.mask.Mask((part.get_width(), 1), fill=True)
    inked = [ink.overlap_area(row, (0, y)) > 0 for y in range(part.get_height())]
    top = inked.index(True)
    bottom = inked.index(False, top) if False in inked[top:] else len(inked)
    rows = ink.copy()
    rows.clear()
    rows.draw(pygame.mask.Mask((part.get_width(), bottom - top), fill=True), (0, top))
    glyph = ink.overlap_mask(rows, (0, 0)).get_bounding_rects()
    left = min(r.left for r in glyph)
    right = max(r.right for r in glyph)
    return bottom - top, right - left


def beaten_text(margin_ns: int) -> str:
    """The flow's label, in English, as the tests expect it."""
    return f"beaten by {margin_ns / MS:.1f} ms"


@pytest.fixture(scope="session", autouse=True)
def headless_pygame() -> Iterator[None]:
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.quit()


@pytest.fixture(scope="session")
def cpu_record() -> MatchRecord:
    """A whole level-4 CPU-vs-CPU game (about 45 s of virtual time)."""
    return play_cpu_game(3, (level(4), level(4))).record


@pytest.fixture
def make_renderer() -> Callable[..., Renderer]:
    """Renderer on an off-screen surface: ``make_renderer((w, h), orientation, **kw)``."""

    def make(
        size: tuple[int, int] = (1920, 1080),
        orientation: Orientation = Orientation.UPRIGHT,
        **kwargs: object,
    ) -> Renderer:
        kwargs.setdefault("warm", False)
        kwargs.setdefault("beaten_text", beaten_text)
        return Renderer(pygame.Surface(size), orientation, **kwargs)  # type: ignore[arg-type]

    return make
