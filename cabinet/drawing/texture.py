"""The texture backend: the display list drawn by the GPU, each picture uploaded once.

Card faces, backs, outlines, the felt, shapes and text each become a texture the first
time a frame shows them, named by their :class:`~cabinet.drawing.painter.Look`'s key; the
surface drawn for the upload is let go at once (the renderer's caches keep no pixels for
this backend). A card turned 180° is its upright texture drawn with both axes flipped,
and a card growing in flight is the pile's texture drawn over a larger or smaller
rectangle: animations change rectangles, never pixels, so steady play uploads nothing.

Pictures that last (cards, the felt, the screens' panels, the lights) are kept for as
long as the layout; those that come and go (text, and the panels that hug it) are kept
in a least-recently-used cache of :data:`TEXT_TEXTURES` entries. When the felt changes
(another screen), the last screen's panels go unless this frame shows them: what the
renderer prepared (the cards) and the felts stay for the layout.

A frame whose display list equals the last one's is not drawn at all. A frame that
changed is drawn whole, the felt first with blending off (it covers the screen), and
presented (with vsync where the renderer has it): no dirty rectangles, so no partial
uploads either. The service menu paints a surface of its own (:meth:`canvas`), shown as
one streaming texture when it changes and let go when the menu closes.

Any failure of the GPU (:class:`~cabinet.drawing.gpu.GpuError`) is raised as
:class:`~cabinet.drawing.backend.BackendFailed`, for the cabinet to fall back to the
software backend.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

import pygame

from cabinet.drawing.backend import BackendFailed, BackendKind, FrameCounts
from cabinet.drawing.gpu import Gpu, GpuError, GpuTexture
from cabinet.drawing.painter import DrawItem, Look, Paint

#: How many textures of pictures that come and go (text, panels hugging it) are kept.
TEXT_TEXTURES = 256

T = TypeVar("T")


class TextureBackend:
    """Draws display lists with ``gpu``; with ``owns_window``, :meth:`close` destroys
    the gpu's window too (the backend opened it)."""

    kind = BackendKind.TEXTURE
    keeps_pixels = False

    def __init__(self, gpu: Gpu, *, why: str = "", owns_window: bool = False) -> None:
        self.gpu = gpu
        self._owns_window = owns_window
        self.describe = f"texture: {gpu.info.describe()}" + (f" ({why})" if why else "")
        self.last_counts = FrameCounts()
        self._lasting: dict[tuple[object, ...], GpuTexture] = {}
        self._kept: set[tuple[object, ...]] = set()
        """Lasting pictures kept for the layout whatever the screen: the prepared ones
        (the cards) and the felts."""
        self._background: tuple[object, ...] | None = None
        self._passing: OrderedDict[tuple[object, ...], GpuTexture] = OrderedDict()
        self._last: list[DrawItem] | None = None
        self._canvas: pygame.Surface | None = None
        self._canvas_texture: GpuTexture | None = None
        self.last_uploaded: list[tuple[object, ...]] = []
        """The keys of the pictures the last frame uploaded."""

    @property
    def size(self) -> tuple[int, int]:
        return self.gpu.size

    @property
    def textures(self) -> int:
        """Textures held (the lasting ones and the text cache's)."""
        return len(self._lasting) + len(self._passing)

    @property
    def text_textures(self) -> int:
        """Textures in the bounded cache of pictures that come and go."""
        return len(self._passing)

    # -- frames ---------------------------------------------------------------------

    def frame(self, background: Look, paints: Sequence[Paint], *, full: bool) -> list[pygame.Rect]:
        items = [item for item, _ in paints]
        if not full and items == self._last:
            self.last_counts = FrameCounts()
            return []
        self._drop_canvas()
        self.last_uploaded = []
        if background.key != self._background:
            if self._background is not None:
                self._screen_changed(paints)
            self._background = background.key
            self._kept.add(background.key)
        gpu = self._guard(lambda: self._draw(background, paints))
        self._last = items
        counts = gpu.take_counts()
        self.last_counts = FrameCounts(counts.uploads, counts.uploaded_bytes, counts.draw_calls)
        return [pygame.Rect((0, 0), self.size)]

    def _draw(self, background: Look, paints: Sequence[Paint]) -> Gpu:
        gpu = self.gpu
        w, h = self.size
        gpu.draw(self._texture(background), (0, 0, w, h))
        for item, look in paints:
            r = item.rect
            if r.w <= 0 or r.h <= 0 or 0 in look.size:
                continue  # nothing to see (an empty string)
            gpu.draw(
                self._texture(look), (r.x, r.y, r.w, r.h), turned=look.rotation == 180,
                tint=look.tint,
            )  # fmt: skip
        return gpu

    def _texture(self, look: Look) -> GpuTexture:
        key = look.key
        if look.lasting:
            texture = self._lasting.get(key)
            if texture is None:
                surface = look.draw(0)
                texture = self.gpu.upload(surface, blend=not look.opaque)
                self._lasting[key] = texture
                self.last_uploaded.append(key)
            return texture
        passing = self._passing
        texture = passing.get(key)
        if texture is not None:
            passing.move_to_end(key)
            return texture
        texture = passing[key] = self.gpu.upload(look.draw(0))
        self.last_uploaded.append(key)
        if len(passing) > TEXT_TEXTURES:
            passing.popitem(last=False)
        return texture

    def _screen_changed(self, paints: Sequence[Paint]) -> None:
        """Another screen (the felt changed): let go of the last one's lasting pictures
        that this frame does not show (a 1080p game-over panel is 2.7 MB the driver
        holds); those kept for the layout stay."""
        shown = {look.key for _, look in paints}
        for key in [k for k in self._lasting if k not in self._kept and k not in shown]:
            del self._lasting[key]

    def prepare(self, looks: Iterable[Look]) -> None:
        try:
            for look in looks:
                self._texture(look)
                if look.lasting:
                    self._kept.add(look.key)
        except GpuError as exc:
            raise BackendFailed(str(exc)) from exc
        self.gpu.take_counts()

    # -- the service menu -------------------------------------------------------------

    def canvas(self) -> pygame.Surface:
        if self._canvas is None:
            self._canvas = pygame.Surface(self.size)
        return self._canvas

    def canvas_drawn(self, rects: list[pygame.Rect]) -> list[pygame.Rect]:
        canvas = self._canvas
        if not rects or canvas is None:
            return []

        def show() -> None:
            if self._canvas_texture is None:
                self._canvas_texture = self.gpu.upload(canvas, streaming=True, blend=False)
            else:
                self.gpu.update(self._canvas_texture, canvas)
            w, h = self.size
            self.gpu.draw(self._canvas_texture, (0, 0, w, h))

        self._guard(show)
        self._last = None  # the table is drawn whole when the menu closes
        counts = self.gpu.take_counts()
        self.last_counts = FrameCounts(counts.uploads, counts.uploaded_bytes, counts.draw_calls)
        return [pygame.Rect((0, 0), self.size)]

    def _drop_canvas(self) -> None:
        self._canvas = None
        self._canvas_texture = None

    # -- showing ----------------------------------------------------------------------

    def present(self, rects: list[pygame.Rect]) -> None:
        if rects:
            self._guard(self.gpu.present)

    def read(self) -> pygame.Surface:
        """The last frame's pixels, read back (tests; slow)."""
        return self._guard(self.gpu.read)

    def close(self) -> None:
        """Let go of every texture, then the renderer, then (``owns_window``) the window:
        in that order, as SDL needs (closing twice is no error)."""
        self._lasting.clear()
        self._kept.clear()
        self._background = None
        self._passing.clear()
        self._last = None
        self._drop_canvas()
        self.gpu.close()
        if self._owns_window:
            self._owns_window = False
            self.gpu.window.destroy()

    @staticmethod
    def _guard(work: Callable[[], T]) -> T:
        try:
            return work()
        except GpuError as exc:
            raise BackendFailed(str(exc)) from exc
