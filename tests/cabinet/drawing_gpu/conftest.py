"""The texture backend's tests: SDL's offscreen video driver, whose EGL gives Mesa's
llvmpipe (the CPU standing in for a GPU: Debian's libegl-mesa0, libgles2 and
libgl1-mesa-dri, which ``.ci/run`` installs). The rest of the suite runs on the dummy
driver: these switch to offscreen for their module and back after it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pygame
import pytest

from cabinet.drawing.gpu import Gpu, open_window
from cabinet.drawing.texture import TextureBackend


@pytest.fixture(scope="module", autouse=True)
def offscreen_video() -> Iterator[None]:
    before = os.environ.get("SDL_VIDEODRIVER")
    pygame.display.quit()
    os.environ["SDL_VIDEODRIVER"] = "offscreen"
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()
    if before is None:
        del os.environ["SDL_VIDEODRIVER"]
    else:
        os.environ["SDL_VIDEODRIVER"] = before
    pygame.display.init()


MakeTexture = Callable[[tuple[int, int]], TextureBackend]


@pytest.fixture
def make_texture() -> Iterator[MakeTexture]:
    """A texture backend drawing into a target texture of ``size``, read back with
    ``read()``; closed after the test."""
    made: list[tuple[TextureBackend, pygame.Window]] = []

    def make(size: tuple[int, int]) -> TextureBackend:
        window = open_window(size, fullscreen=False, hidden=True)
        backend = TextureBackend(Gpu(window, vsync=False, offscreen=True))
        made.append((backend, window))
        return backend

    yield make
    for backend, window in made:
        backend.close()
        window.destroy()
