"""What the texture backend keeps: no pixels of its own (every surface drawn to be
uploaded is let go once it is a texture), and a screen's panels only while it shows;
the cards the renderer prepared and the felts stay for the layout."""

from __future__ import annotations

import gc
import weakref

import pygame
import pytest

from cabinet.drawing.geometry import Orientation
from cabinet.drawing.gpu import GpuTexture
from cabinet.drawing.renderer import Renderer
from cabinet.drawing.texture import TextureBackend
from cabinet.i18n import font_path
from game.units import MS
from tests.cabinet.drawing.sample_views import OVER, TABLE
from tests.cabinet.drawing_gpu.conftest import MakeTexture


def test_every_picture_is_let_go_once_it_is_a_texture(
    make_texture: MakeTexture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Card faces (all of them, warmed up), the felts, panels and text: each surface
    drawn for an upload is gone once uploaded, and the renderer's caches hold none."""
    backend = make_texture((960, 540))
    uploaded: list[weakref.ref[pygame.Surface]] = []
    upload = backend.gpu.upload

    def spy(surface: pygame.Surface, **kwargs: bool) -> GpuTexture:
        uploaded.append(weakref.ref(surface))
        return upload(surface, **kwargs)

    monkeypatch.setattr(backend.gpu, "upload", spy)
    renderer = Renderer(backend, Orientation.UPRIGHT, font_path())
    for k, view in enumerate((TABLE, OVER, TABLE)):
        renderer.draw(view, k * MS)
    gc.collect()
    assert len(uploaded) > 2 * 52
    assert [ref for ref in uploaded if ref() is not None] == []
    assert len(renderer.art) == 0 and renderer.text.pixel_bytes() == 0
    assert len(renderer._shapes) == 0 and renderer._felt is None


def test_another_screen_lets_go_of_the_last_ones_panels(make_texture: MakeTexture) -> None:
    """The game-over panels are let go when the table shows (the driver held them: 2.7
    MB each at 1080p); the cards and both felts stay; the game over comes back the same."""
    backend = make_texture((960, 540))
    renderer = Renderer(backend, Orientation.UPRIGHT, font_path())
    renderer.draw(OVER, 0)
    first = pygame.image.tobytes(backend.read(), "RGB")
    panels = {k for k in backend._lasting if k[0] == "panel"}
    felts = {k for k in backend._lasting if k[0] == "felt"}
    assert panels and len(felts) == 2  # the table's, warmed up, and this screen's
    renderer.draw(TABLE, MS)
    kept = set(backend._lasting)
    assert not panels & kept
    assert sum(k[0] == "face" for k in kept) == 2 * 52  # the slots' and the piles' sizes
    assert {k for k in kept if k[0] == "felt"} == felts
    renderer.draw(OVER, 2 * MS)
    assert pygame.image.tobytes(backend.read(), "RGB") == first
    assert backend.last_uploaded and {k[0] for k in backend.last_uploaded} >= {"panel"}
    assert "felt" not in {k[0] for k in backend.last_uploaded}


def test_closing_forgets_what_was_kept_for_the_layout(make_texture: MakeTexture) -> None:
    backend: TextureBackend = make_texture((640, 360))
    renderer = Renderer(backend, Orientation.UPRIGHT, font_path())
    renderer.draw(TABLE, 0)
    backend.close()
    assert backend.textures == 0 and not backend._kept
