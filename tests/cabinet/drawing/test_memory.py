"""What the software renderer keeps, and for how long: one felt at a time (the other let go
before the next is painted), a screen's shapes while it shows, a bounded number of fonts,
and the ranks' large fonts only while the faces are drawn. Each is checked for the
pixels too: what is let go and drawn again looks the same."""

from __future__ import annotations

import weakref
from collections.abc import Callable

import pygame
import pytest

import cabinet.drawing.renderer as renderer_module
from cabinet.drawing.cards import CardArt
from cabinet.drawing.geometry import Orientation, TableGeometry
from cabinet.drawing.renderer import Renderer
from cabinet.drawing.text import FONTS_KEPT, TextCache
from cabinet.i18n import font_path
from game.cards import Card
from tests.cabinet.drawing.sample_views import OVER, TABLE

from .conftest import MS

MakeRenderer = Callable[..., Renderer]


def screen_bytes(renderer: Renderer) -> bytes:
    return pygame.image.tobytes(renderer.backend.surface, "RGB")  # type: ignore[attr-defined]


def test_the_other_felt_is_let_go_before_a_felt_is_painted(
    make_renderer: MakeRenderer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two felts at once were the display process's peak (16 MB at 1080p): the table's
    felt is gone by the time the plain one is painted, and the other way round."""
    renderer = make_renderer((800, 480))
    renderer.draw(TABLE, 0)
    assert renderer._felt is not None
    kept = weakref.ref(renderer._felt[1])
    alive_when_painting: list[bool] = []
    paint = renderer_module.paint_background

    def spy(g: TableGeometry, *, mats: bool) -> pygame.Surface:
        alive_when_painting.append(kept() is not None)
        return paint(g, mats=mats)

    monkeypatch.setattr(renderer_module, "paint_background", spy)
    renderer.draw(OVER, MS)
    kept = weakref.ref(renderer._felt[1])
    renderer.draw(TABLE, 2 * MS)
    assert alive_when_painting == [False, False]


def test_another_screen_lets_go_of_the_last_ones_shapes(make_renderer: MakeRenderer) -> None:
    """The game-over panels go when the table shows, and come back the same."""
    renderer = make_renderer((800, 480))
    renderer.draw(OVER, 0)
    first = screen_bytes(renderer)
    panels = {k for k in renderer._shapes._kept if k[0] == "panel"}
    assert panels
    renderer.draw(TABLE, MS)
    assert not panels & set(renderer._shapes._kept)
    renderer.draw(OVER, 2 * MS)
    assert screen_bytes(renderer) == first


def test_the_text_cache_keeps_its_latest_fonts_and_draws_the_same_with_them() -> None:
    text = TextCache(font_path(), keep=False)
    before = pygame.image.tobytes(text.render("Spit 17", 40, (250, 250, 250)), "RGBA")
    for size in range(41, 41 + 2 * FONTS_KEPT):
        text.fit_size("Press any button", 10 * size, size)
    assert len(text._fonts) <= FONTS_KEPT
    assert 40 not in text._fonts
    assert pygame.image.tobytes(text.render("Spit 17", 40, (250, 250, 250)), "RGBA") == before


def test_warming_up_lets_go_of_the_ranks_fonts(make_renderer: MakeRenderer) -> None:
    """The ranks are drawn three times the card's size (fonts of 300–400 px at 1080p,
    1–2 MB each with their glyphs): once every face is drawn, their fonts go; a face drawn
    later opens them again and is the same."""
    renderer = make_renderer((1920, 1080), Orientation.UPRIGHT, font_path=font_path(), warm=True)
    assert renderer.art._fonts == {}
    assert max(renderer.text._fonts, default=0) < 200
    art = renderer.art
    late = art.face(Card.parse("TH"), 120, 168)
    fresh = CardArt(TextCache(font_path())).face(Card.parse("TH"), 120, 168)
    assert pygame.image.tobytes(late, "RGBA") == pygame.image.tobytes(fresh, "RGBA")
