"""The GPU, as the texture backend uses it: a window, a renderer, textures, a present.

This is the one module that touches pygame-ce's experimental ``pygame._sdl2.video``
(``Renderer`` and ``Texture``, over the public ``pygame.Window``): moving to a public
``pygame.render`` later changes this file alone. It does not use ``pygame._render``:
in pygame-ce 2.5.8 a texture drawn at a point there is stretched over the whole target.

What crosses it: a :class:`Gpu` opened on a window (or an offscreen size, for tests), a
:class:`GpuTexture` uploaded from a surface (every upload counted in bytes), a draw of a
texture over a rectangle (turned 180°, blended or not), a fill, a present, and a read of
the pixels back (tests). Every failure of SDL or the driver is raised as
:class:`GpuError`, so the caller can fall back to software with one handler.

On the console (kmsdrm) :func:`prepare_environment` sets ``SDL_VIDEO_DOUBLE_BUFFER=1``
(one frame less of latency, SDL 2.30.7 and newer) and, always, ``SDL_RENDER_BATCHING=1``
(naming a render driver turns SDL's draw batching off unless it is asked for) and linear
filtering for textures drawn scaled.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame

if TYPE_CHECKING:
    from pygame._sdl2 import video

#: Render drivers tried, in order: GLES 2 (the Pi's), then desktop OpenGL.
RENDER_DRIVERS = ("opengles2", "opengl")

#: SDL's renderer flag for a GPU renderer (SDL_RENDERER_ACCELERATED).
_ACCELERATED = 0x02

#: GL_RENDERER, for glGetString.
_GL_RENDERER = 0x1F01

#: What a driver calls itself when the CPU does the GPU's work.
SOFTWARE_RASTERIZERS = ("llvmpipe", "softpipe", "swrast", "software rasterizer")


class GpuError(RuntimeError):
    """The GPU path failed: no GLES, the context lost, out of memory, a driver error."""


def _sdl_errors() -> tuple[type[Exception], ...]:
    """What pygame raises for SDL's errors (``pygame._sdl2`` has an error type of its own).
    ``pygame._sdl2`` (and ctypes, for GL's own calls) are imported when a GPU is first
    used, not with this module: the software backend never loads them (1.7 MB)."""
    from pygame._sdl2 import sdl2

    return (pygame.error, sdl2.error)


@dataclass(frozen=True, slots=True)
class GpuInfo:
    """What draws: SDL's video driver (``kmsdrm``, ``x11``, ``offscreen``…), its render
    driver (``opengles2``…), the GL renderer's own name (``V3D 4.2``, ``llvmpipe…``;
    empty when it cannot be read) and whether presents wait for vsync."""

    video_driver: str
    render_driver: str
    gl_renderer: str
    vsync: bool

    @property
    def software_rasterizer(self) -> bool:
        """Whether the GL driver is the CPU standing in for a GPU (Mesa's llvmpipe)."""
        name = self.gl_renderer.lower()
        return any(word in name for word in SOFTWARE_RASTERIZERS)

    def describe(self) -> str:
        """One line: ``opengles2 (V3D 4.2) on kmsdrm, vsync``."""
        gl = f" ({self.gl_renderer})" if self.gl_renderer else ""
        return f"{self.render_driver}{gl} on {self.video_driver}" + (
            ", vsync" if self.vsync else ""
        )


def prepare_environment(video_driver: str, env: MutableMapping[str, str] | None = None) -> None:
    """Set the SDL hints the texture backend wants before its renderer is made (an
    operator's own setting wins)."""
    env = os.environ if env is None else env
    env.setdefault("SDL_RENDER_BATCHING", "1")
    # Textures drawn scaled (a card growing in flight) are filtered, not point-sampled;
    # drawn at their own size on whole pixels, linear filtering gives their texels.
    env.setdefault("SDL_RENDER_SCALE_QUALITY", "linear")
    if video_driver == "kmsdrm":
        env.setdefault("SDL_VIDEO_DOUBLE_BUFFER", "1")


@dataclass(slots=True)
class GpuCounts:
    """Work sent to the GPU since the last :meth:`Gpu.take_counts`."""

    uploads: int = 0
    uploaded_bytes: int = 0
    draw_calls: int = 0
    presents: int = 0


class GpuTexture:
    """A picture held by the GPU (``size`` in px)."""

    __slots__ = ("_texture", "size")

    def __init__(self, texture: video.Texture, size: tuple[int, int]) -> None:
        self._texture = texture
        self.size = size


class Gpu:
    """A renderer on ``window`` (drawn to the window) or, with ``offscreen_size``, into a
    target texture of that size that :meth:`read` reads back (tests)."""

    def __init__(
        self,
        window: pygame.Window,
        *,
        vsync: bool = True,
        offscreen: bool = False,
        drivers: tuple[str, ...] = RENDER_DRIVERS,
    ) -> None:
        from pygame._sdl2 import video

        self.window = window
        prepare_environment(pygame.display.get_driver().lower())
        offered = list(video.get_drivers())
        available = [d.name for d in offered]
        errors: list[str] = []
        renderer: video.Renderer | None = None
        chosen = ""
        for name in drivers:
            if name not in available:
                continue
            index = available.index(name)
            if not offered[index].flags & _ACCELERATED:
                continue
            try:
                renderer = video.Renderer(
                    window, index=index, accelerated=1, vsync=vsync, target_texture=offscreen
                )
            except _sdl_errors() as exc:
                errors.append(f"{name}: {exc}")
                continue
            chosen = name
            break
        if renderer is None:
            why = "; ".join(errors) or f"SDL offers no {' or '.join(drivers)} renderer"
            raise GpuError(f"no GPU renderer: {why}")
        self._renderer = renderer
        self.size: tuple[int, int] = tuple(window.size)  # type: ignore[assignment]
        self.info = GpuInfo(pygame.display.get_driver(), chosen, _gl_renderer(), vsync)
        # SDL's offscreen driver presents nothing and never flushes: without a glFinish
        # the driver's queue of frames only grows (40 MB a second with llvmpipe), and a
        # "present" would end before its frame is drawn.
        self._finish = _gl_function("glFinish") if self.info.video_driver == "offscreen" else None
        self.counts = GpuCounts()
        self._target: video.Texture | None = None
        if offscreen:
            try:
                self._target = video.Texture(renderer, self.size, target=True)
                renderer.target = self._target
            except _sdl_errors() as exc:
                raise GpuError(f"cannot draw into a texture: {exc}") from exc

    # -- pictures -------------------------------------------------------------------

    def upload(
        self, surface: pygame.Surface, *, streaming: bool = False, blend: bool = True
    ) -> GpuTexture:
        """``surface``'s pixels as a texture, drawn blended by its alpha, or copied opaque
        (``blend=False``: the felt, the menu's canvas)."""
        from pygame._sdl2 import video

        w, h = surface.get_size()
        try:
            if streaming:
                texture = video.Texture(self._renderer, (w, h), streaming=True)
                texture.update(surface)
            else:
                texture = video.Texture.from_surface(self._renderer, surface)
            texture.blend_mode = 1 if blend else 0  # SDL_BLENDMODE_BLEND / NONE
        except _sdl_errors() as exc:
            raise GpuError(f"cannot upload a {w}x{h} picture: {exc}") from exc
        self._count_upload(w, h)
        return GpuTexture(texture, (w, h))

    def update(self, texture: GpuTexture, surface: pygame.Surface) -> None:
        """Replace a streaming texture's pixels with ``surface``'s (the same size)."""
        try:
            texture._texture.update(surface)
        except _sdl_errors() as exc:
            raise GpuError(f"cannot update a texture: {exc}") from exc
        self._count_upload(*surface.get_size())

    def _count_upload(self, w: int, h: int) -> None:
        self.counts.uploads += 1
        self.counts.uploaded_bytes += w * h * 4

    # -- drawing --------------------------------------------------------------------

    def draw(
        self,
        texture: GpuTexture,
        rect: tuple[int, int, int, int],
        *,
        turned: bool = False,
        tint: tuple[int, int, int] | None = None,
    ) -> None:
        """Draw ``texture`` over ``rect`` (x, y, w, h; scaled to it), turned 180° (both
        axes flipped, exact to the pixel) if ``turned``, its colours multiplied by
        ``tint`` if given."""
        t = texture._texture
        try:
            if tint is not None:
                t.color = tint
            if turned:
                t.draw(dstrect=rect, flip_x=True, flip_y=True)
            else:
                t.draw(dstrect=rect)
        except _sdl_errors() as exc:
            raise GpuError(f"cannot draw: {exc}") from exc
        self.counts.draw_calls += 1

    def fill(self, colour: tuple[int, int, int]) -> None:
        """Clear the whole target to ``colour``."""
        try:
            self._renderer.draw_color = (*colour, 255)
            self._renderer.clear()
        except _sdl_errors() as exc:
            raise GpuError(f"cannot clear: {exc}") from exc
        self.counts.draw_calls += 1

    def present(self) -> None:
        """Show what was drawn (waits for vsync where the renderer does)."""
        if self._target is not None:
            return  # drawn into a texture: nothing to show
        try:
            self._renderer.present()
        except _sdl_errors() as exc:
            raise GpuError(f"cannot present: {exc}") from exc
        if self._finish is not None:
            self._finish()
        self.counts.presents += 1

    def finish(self) -> None:
        """Wait until the GPU has done every GL call made so far (benchmarks: an upload's
        whole cost; a texture update is a GL call at once, not batched)."""
        finish = _gl_function("glFinish")
        if finish is None:
            raise GpuError("no glFinish in libGLESv2 or libGL")
        finish()

    def read(self) -> pygame.Surface:
        """The pixels drawn so far (slow: for tests and the screen check)."""
        try:
            return self._renderer.to_surface()
        except _sdl_errors() as exc:
            raise GpuError(f"cannot read the picture back: {exc}") from exc

    def take_counts(self) -> GpuCounts:
        """The counts since the last call, and start again from zero."""
        counts, self.counts = self.counts, GpuCounts()
        return counts

    @property
    def is_open(self) -> bool:
        """Whether the renderer is still held (:meth:`close` lets it go)."""
        return "_renderer" in vars(self)

    def close(self) -> None:
        """Let go of the renderer and its textures (the window stays)."""
        self._target = None
        vars(self).pop("_renderer", None)  # closing twice is no error


def open_window(
    size: tuple[int, int], *, fullscreen: bool, title: str = "Spit", hidden: bool = False
) -> pygame.Window:
    """A window for a :class:`Gpu`: ``size`` px, or the whole screen at its own mode."""
    try:
        if fullscreen:
            if size == (0, 0):
                size = pygame.display.get_desktop_sizes()[0]
            return pygame.Window(title, size, fullscreen_desktop=True)
        return pygame.Window(title, size, hidden=hidden)
    except _sdl_errors() as exc:
        raise GpuError(f"cannot open a window: {exc}") from exc


def _gl_function(name: str) -> Any:
    """A GL entry point (it acts on the context current on this thread: the
    renderer's), from libGLESv2 or libGL; ``None`` if neither has it."""
    import ctypes
    import ctypes.util

    for library in ("GLESv2", "GL"):
        path = ctypes.util.find_library(library)
        if path is None:
            continue
        try:
            return getattr(ctypes.CDLL(path), name)
        except (OSError, AttributeError):
            continue
    return None


def _gl_renderer() -> str:
    """GL_RENDERER of the renderer's context, or ``""`` when it cannot be read."""
    import ctypes

    get_string = _gl_function("glGetString")
    if get_string is None:
        return ""
    get_string.restype = ctypes.c_char_p
    get_string.argtypes = [ctypes.c_uint]
    value: bytes | None = get_string(_GL_RENDERER)
    return value.decode("utf-8", "replace") if value else ""
