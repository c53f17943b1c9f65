"""Shared fixtures for the display tests: headless pygame (SDL's dummy video driver), a
recorded CPU-vs-CPU game to drive real scenes, and a renderer factory."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Callable, Iterator

import pygame
import pytest

from cabinet.display.geometry import Orientation
from cabinet.display.renderer import Renderer
from cabinet.display.views import TableLabels
from game.bots import level
from game.cpu_match import play_cpu_game
from game.record import MatchRecord

#: The two resolutions every screen is checked at: a full-HD upright and a small panel.
RESOLUTIONS = ((1920, 1080), (800, 480))
LABELS = TableLabels(("PLAYER 1", "PLAYER 2"), "STUCK")
MS = 1_000_000


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
