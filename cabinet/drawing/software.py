"""The software backend: the display list blitted onto a surface, only what changed.

It compares each frame's list with the previous one's; the rectangles of items that
appeared, vanished or changed are *dirty*: there it restores the background and repaints
every item that overlaps, in order, and returns those rectangles for
``pygame.display.update(rects)``. Past :data:`FULL_REPAINT_FRACTION` of the screen, one
full repaint is cheaper. A frame where nothing changed paints nothing and returns ``[]``.

Every picture's pixels are kept (in the renderer's caches), so a frame is blits alone; a
picture drawn at another size than its own (a card growing in flight) is smooth-scaled
as it is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pygame

from cabinet.drawing.backend import BackendKind, FrameCounts
from cabinet.drawing.painter import DrawItem, Look, Paint

#: When the dirty area passes this fraction of the screen, one full repaint is cheaper.
FULL_REPAINT_FRACTION = 0.5
#: Tinted pictures kept (every level of every light's pulse: 13 a colour).
TINTED_KEPT = 512


class SoftwareBackend:
    """Draws onto ``surface``; :meth:`present` updates those rectangles of the display
    when ``surface`` is pygame's display surface."""

    kind = BackendKind.SOFTWARE
    keeps_pixels = True

    def __init__(self, surface: pygame.Surface, *, why: str = "") -> None:
        self.surface = surface
        self._tinted: dict[tuple[object, ...], pygame.Surface] = {}
        self.describe = f"software on {_video_driver()}" + (f" ({why})" if why else "")
        self.last_counts = FrameCounts()
        self._last: set[DrawItem] = set()
        self._background_key: tuple[object, ...] | None = None

    @property
    def size(self) -> tuple[int, int]:
        w, h = self.surface.get_size()
        return (w, h)

    def frame(self, background: Look, paints: Sequence[Paint], *, full: bool) -> list[pygame.Rect]:
        items = [item for item, _ in paints]
        new = set(items)
        old, self._last = self._last, new
        target = self.surface
        if background.key != self._background_key:
            self._background_key = background.key
            full = True
        if not full:
            if new == old:
                self.last_counts = FrameCounts()
                return []
            dirty = [pygame.Rect(i.rect.as_tuple()) for i in old - new]
            dirty.extend(pygame.Rect(i.rect.as_tuple()) for i in new - old)
            screen = target.get_rect()
            rects = _merge(dirty, screen)
            if sum(r.w * r.h for r in rects) <= FULL_REPAINT_FRACTION * screen.w * screen.h:
                felt = background.draw(0)
                boxes = [pygame.Rect(item.rect.as_tuple()) for item in items]
                blits = 0
                for rect in rects:
                    target.set_clip(rect)
                    target.blit(felt, rect, rect)
                    hit = rect.collidelistall(boxes)
                    target.fblits([(self._surface(*paints[k]), boxes[k]) for k in hit])
                    blits += 1 + len(hit)
                target.set_clip(None)
                self.last_counts = FrameCounts(draw_calls=blits)
                return rects
        target.blit(background.draw(0), (0, 0))
        surface = self._surface
        target.fblits([(surface(item, look), (item.rect.x, item.rect.y)) for item, look in paints])
        self.last_counts = FrameCounts(draw_calls=1 + len(paints))
        return [target.get_rect()]

    def prepare(self, looks: Iterable[Look]) -> None:
        for look in looks:
            look.draw(look.rotation)

    def canvas(self) -> pygame.Surface:
        self._background_key = None  # the menu paints over the table: repaint it after
        return self.surface

    def canvas_drawn(self, rects: list[pygame.Rect]) -> list[pygame.Rect]:
        return rects

    def present(self, rects: list[pygame.Rect]) -> None:
        if rects and self.surface is pygame.display.get_surface():
            pygame.display.update(rects)

    def close(self) -> None:
        self._last = set()

    def _surface(self, item: DrawItem, look: Look) -> pygame.Surface:
        """``look``'s pixels for ``item``: as kept, tinted (kept too), or smooth-scaled
        to the item's size."""
        tint = look.tint
        if tint is not None:
            key = (*look.key, look.rotation, tint)
            surface = self._tinted.get(key)
            if surface is None:
                if len(self._tinted) >= TINTED_KEPT:
                    self._tinted.clear()
                surface = look.draw(look.rotation).copy()
                surface.fill(tint, special_flags=pygame.BLEND_RGB_MULT)
                self._tinted[key] = surface
        else:
            surface = look.draw(look.rotation)
        rect = item.rect
        w, h = look.size
        if (w != rect.w or h != rect.h) and rect.w > 0 and rect.h > 0:
            surface = pygame.transform.smoothscale(surface, (rect.w, rect.h))
        return surface


def _merge(rects: list[pygame.Rect], screen: pygame.Rect) -> list[pygame.Rect]:
    """Clip ``rects`` to the screen and merge the overlapping ones (pygame's rectangle
    tests run in C: this runs every frame)."""
    merged: list[pygame.Rect] = []
    for rect in rects:
        current = rect.clip(screen)
        if not current:
            continue
        # ``merged`` stays pairwise apart: absorb every rectangle the growing one meets.
        while (k := current.collidelist(merged)) != -1:
            current.union_ip(merged.pop(k))
        merged.append(current)
    return merged


def _video_driver() -> str:
    return pygame.display.get_driver() if pygame.display.get_init() else "no display"
