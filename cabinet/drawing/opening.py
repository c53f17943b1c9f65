"""Opening the screen with the backend the ``display_backend`` setting asks for.

``auto`` takes the texture backend on the console (kmsdrm) whenever SDL gives a GLES 2
renderer there: on kmsdrm the software backend's surface reaches the screen through a
streaming texture anyway (SDL's "texture framebuffer"), uploading the bounding box of
every frame's changes, so drawing with textures is never worse. Elsewhere it takes the
texture backend on a GPU and the software backend where the only GL is Mesa's software
rasterizer (llvmpipe), where the CPU would do the GPU's work as well as its own: the
figures behind that are in docs/display.md. ``texture`` asks for it everywhere; where it
cannot start, the cabinet says why in one log line and draws in software. It never
shows a black screen for want of a GPU.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from cabinet.drawing.backend import BackendChoice, DisplayBackend
from cabinet.drawing.gpu import Gpu, GpuError, open_window, prepare_environment
from cabinet.drawing.software import SoftwareBackend
from cabinet.drawing.texture import TextureBackend

log = logging.getLogger(__name__)

#: Video drivers that draw nowhere and have no GL: the texture backend is not tried.
NO_GL_DRIVERS = ("dummy",)
#: SDL's hint: "0" puts a window's surface in memory SDL shares with the display server.
FRAMEBUFFER_VAR = "SDL_FRAMEBUFFER_ACCELERATION"


@dataclass(frozen=True, slots=True)
class ScreenRequest:
    """How to open the screen: ``size`` (``(0, 0)``: the screen's own mode),
    ``fullscreen``, and the ``set_mode`` flags of the software backend."""

    size: tuple[int, int]
    fullscreen: bool
    flags: int = 0
    vsync: bool = True

    def software(self, why: str) -> SoftwareBackend:
        """The software backend on pygame's display surface (``pygame.error`` if the
        display cannot open at all)."""
        surface = pygame.display.set_mode(self.size, self.flags)
        pygame.display.set_caption("Spit")
        return SoftwareBackend(surface, why=why)


def render_drivers(video_driver: str) -> tuple[str, ...]:
    """The GL renderers to try on ``video_driver``: on the console only GLES 2 (SDL's
    desktop OpenGL renderer "opens" there without libGL and draws nothing)."""
    if video_driver.lower() == "kmsdrm":
        return ("opengles2",)
    return ("opengles2", "opengl")


def open_screen(choice: BackendChoice, request: ScreenRequest) -> DisplayBackend:
    """The screen, drawn by the backend ``choice`` leads to; logs which and why."""
    driver = pygame.display.get_driver()
    if choice is BackendChoice.SOFTWARE:
        return _chosen(request.software("the display_backend setting"))
    if driver.lower() in NO_GL_DRIVERS:
        return _chosen(request.software(f"SDL's {driver} driver has no GL"))
    prepare_environment(driver.lower())
    window: pygame.Window | None = None
    try:
        window = open_window(request.size, fullscreen=request.fullscreen)
        gpu = Gpu(window, vsync=request.vsync, drivers=render_drivers(driver))
    except GpuError as exc:
        if window is not None:
            window.destroy()
        if choice is BackendChoice.TEXTURE:
            log.warning("display: the texture backend cannot start (%s): software", exc)
        _framebuffer_in_memory(driver)
        return _chosen(request.software(f"no GPU renderer: {exc}"))
    info = gpu.info
    if driver.lower() == "kmsdrm":
        why = "the console, with a GLES renderer"
    elif choice is BackendChoice.TEXTURE:
        why = "the display_backend setting"
    elif info.software_rasterizer:
        gpu.close()
        window.destroy()
        _framebuffer_in_memory(driver)
        return _chosen(request.software(f"only a software rasterizer: {info.gl_renderer}"))
    else:
        why = "a GPU renderer"
    pygame.display.set_caption("Spit")
    return _chosen(TextureBackend(gpu, why=why, owns_window=True))


def _framebuffer_in_memory(video_driver: str) -> None:
    """Software without a GPU: a desktop's window surface in shared memory (X11's XShm),
    not SDL's texture framebuffer, which would have the software rasterizer upload and
    redraw the whole screen every frame (under Xvfb with llvmpipe: 15 ms a frame and 84 %
    of a core, against 1.4 ms and 11 %; bench/README.md). The console has no such path."""
    if video_driver.lower() != "kmsdrm":
        os.environ.setdefault(FRAMEBUFFER_VAR, "0")


def _chosen(backend: DisplayBackend) -> DisplayBackend:
    log.info("display: %s", backend.describe)
    return backend


def fallback_for(request: ScreenRequest) -> Callable[[], DisplayBackend]:
    """What the cabinet draws with once the texture backend fails mid-run: the software
    backend on a display surface of the same size."""

    def fall_back() -> DisplayBackend:
        return request.software("the texture backend failed")

    return fall_back
