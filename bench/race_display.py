"""The display of ``bench/races.py``'s live runs: the play screen at 1920x1080 drawn ``K``
times a frame through one display backend, ``software`` on SDL's dummy video driver or
``texture`` on its offscreen driver (EGL), and the one-line exit where the texture backend
cannot start."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from processes import VIDEO_DRIVERS

# Run from a checkout: import this repository's packages, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # after choosing the video driver above

if TYPE_CHECKING:
    from cabinet.drawing.renderer import Renderer

SCREEN = (1920, 1080)
BACKENDS = ("software", "texture")


def use_video_driver(backend: str) -> None:
    """(Re)open pygame's display on ``backend``'s video driver."""
    pygame.display.quit()
    os.environ["SDL_VIDEODRIVER"] = VIDEO_DRIVERS[backend]
    pygame.display.init()


def open_backends(backend: str, k: int, cleanup: contextlib.ExitStack) -> list[Any]:
    """``k`` display backends of kind ``backend``, the first drawing onto the screen: for
    the texture backend they share one GPU renderer (its drawings done ``k`` times, one
    present), for the software backend the others draw onto surfaces of their own.
    Raises :class:`~cabinet.drawing.gpu.GpuError` where there is no GLES."""
    from cabinet.drawing.software import SoftwareBackend

    use_video_driver(backend)
    if backend == "texture":
        from cabinet.drawing.gpu import Gpu, open_window
        from cabinet.drawing.texture import TextureBackend

        window = open_window(SCREEN, fullscreen=False, hidden=True)
        cleanup.callback(window.destroy)
        gpu = Gpu(window, vsync=False)
        cleanup.callback(gpu.close)
        return [TextureBackend(gpu) for _ in range(k)]
    screen = pygame.display.set_mode(SCREEN)
    return [SoftwareBackend(screen if i == 0 else pygame.Surface(SCREEN)) for i in range(k)]


def open_renderers(backend: str, k: int, cleanup: contextlib.ExitStack) -> list[Renderer]:
    """``k`` renderers of the play screen on :func:`open_backends`, each doing a real
    frame's drawing (the first onto the screen): the drawing done ``k`` times a frame."""
    from cabinet.drawing.geometry import Orientation
    from cabinet.drawing.renderer import Renderer
    from cabinet.i18n import font_path

    pygame.font.init()
    return [
        Renderer(b, Orientation.UPRIGHT, font_path(), lights_strip=False)
        for b in open_backends(backend, k, cleanup)
    ]


def no_gles(exc: Exception) -> None:
    """Say the texture backend cannot start, in one line, and exit with status 2."""
    print(
        "races.py: the texture backend needs GLES (Debian: libegl-mesa0 libgles2 "
        f"libgl1-mesa-dri): {exc}",
        file=sys.stderr,
    )
    sys.exit(2)


def check_texture_backend() -> None:
    """Open the texture backend once before any run, to fail at once without GLES."""
    from cabinet.drawing.gpu import GpuError

    try:
        with contextlib.ExitStack() as cleanup:
            open_backends("texture", 1, cleanup)
    except (GpuError, pygame.error) as exc:
        no_gles(exc)
    finally:
        pygame.display.quit()
