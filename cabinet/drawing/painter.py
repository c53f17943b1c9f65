"""One frame's display list as it is built: each :class:`DrawItem` with the surface that
paints it.

A :class:`Painter` is made for every frame. The screens (:mod:`cabinet.drawing.table_screen`,
:mod:`cabinet.drawing.screens`, :mod:`cabinet.drawing.lights_strip`) add their items to it
in painting order, through its helpers for the things they share: cards, fitted text,
wrapped text blocks, panels, the selection highlight and the STUCK badge. The renderer
(:mod:`cabinet.drawing.renderer`) then compares the list with the previous frame's.

Each item comes with a :class:`Look`: the picture it shows, named by a key and drawn only
when a backend asks for its pixels. The software backend keeps them (drawing a frame is
blitting them); the texture backend uploads each once and keeps only the texture
(:mod:`cabinet.drawing.backend`). Shapes drawn here (panels, highlights, badges, light
spots) are cached in the renderer's :class:`Shapes`, which outlives the frame (until
another screen shows), when the backend keeps pixels; cards and text have their own
caches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pygame

from cabinet.drawing.box import Box
from cabinet.drawing.cards import CardArt
from cabinet.drawing.geometry import TableGeometry
from cabinet.drawing.text import Colour, TextCache
from game.cards import Card

WHITE: Colour = (245, 245, 240)
GREY: Colour = (170, 180, 175)
YELLOW: Colour = (255, 214, 0)
AMBER: Colour = (255, 170, 40)
GREEN: Colour = (80, 220, 120)
STUCK_RED: Colour = (205, 30, 40)


@dataclass(frozen=True, slots=True)
class DrawItem:
    """One thing drawn in a frame.

    ``kind`` is one of: ``slot`` (player, index = slot, card or ``None`` for empty),
    ``highlight`` (player, index = selected slot), ``deck`` (player, text = cards in it),
    ``deck_count``, ``label``, ``cards_left``, ``stuck``, ``message`` (player, text),
    ``pile`` (index = pile, card), ``pile_count`` (index, text), ``score`` (index = copy,
    text), ``race_panel`` (index = pile; the race moment's backing), ``race`` (index =
    pile, text: one wrapped line), ``countdown`` (text), ``sprite`` (a moving card:
    player, card), ``banner``, ``prompt``, ``howto``, ``headline``, ``match``,
    ``footer``, ``credits`` (text), ``panel`` (player; a panel's background), ``title``,
    ``status``, ``line`` (player, text), ``light`` (index in ``LIGHT_NAMES`` order, style = colour).
    ``rect`` is the screen rectangle it covers; ``rotation`` is 0 or 180 degrees.
    """

    kind: str
    rect: Box
    player: int | None = None
    index: int | None = None
    card: Card | None = None
    text: str | None = None
    rotation: int = 0
    style: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class Look:
    """The picture a display-list item shows.

    ``key`` names the picture upright: two looks with one key show the same pixels, so a
    backend keeps one copy (a texture) per key. ``rotation`` (0 or 180 degrees) is how it
    is turned on screen; ``size`` (w, h, in px) is the picture's own size, which the
    item's rectangle may scale (a card growing in flight). ``draw(rotation)`` paints it
    turned, from a cache where pixels are kept. ``lasting``: part of the layout (cards,
    the felt, shapes of a fixed size), drawn all game; otherwise it comes and goes (text,
    panels that hug it), and a backend bounds how many it keeps. ``opaque``: every pixel
    is (the felt): drawn with blending off. ``tint``: the picture (``draw`` gives it
    untinted) is drawn multiplied by this colour, as a light's level: one picture for
    every level of a pulse; the GPU tints its one texture as it draws it.
    """

    key: tuple[object, ...]
    rotation: int
    size: tuple[int, int]
    draw: Callable[[int], pygame.Surface]
    lasting: bool = True
    opaque: bool = False
    tint: tuple[int, int, int] | None = None


Paint = tuple[DrawItem, Look]
"""A display-list item and the picture drawn over its rectangle."""


class LookCache:
    """Looks by what they show (the picture's key and its turn), kept from frame to frame:
    a frame finds the looks of the last one instead of making them again (and, for text,
    measuring it again). Bounded: past :attr:`limit` entries it starts afresh."""

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._looks: dict[tuple[object, ...], Look] = {}

    def get(self, key: tuple[object, ...]) -> Look | None:
        return self._looks.get(key)

    def put(self, key: tuple[object, ...], look: Look) -> Look:
        looks = self._looks
        if len(looks) >= self.limit:
            looks.clear()
        looks[key] = look
        return look

    def __len__(self) -> int:
        return len(self._looks)


class Shapes:
    """Drawn shapes by key; kept only when the backend keeps pixels (``keep``), and only
    those of the screen shown (:meth:`keep_only`)."""

    def __init__(self, *, keep: bool = True) -> None:
        self.keep = keep
        self._kept: dict[tuple[object, ...], pygame.Surface] = {}

    def get(self, key: tuple[object, ...], draw: Callable[[], pygame.Surface]) -> pygame.Surface:
        """The shape named ``key``, drawn by ``draw()`` unless kept."""
        surface = self._kept.get(key)
        if surface is None:
            surface = draw()
            if self.keep:
                self._kept[key] = surface
        return surface

    def __len__(self) -> int:
        return len(self._kept)

    def keep_only(self, keys: set[tuple[object, ...]]) -> None:
        """Let go of every shape but those named in ``keys`` (each with its turned copies,
        kept as ``(*key, rotation)``): the screen shown changed, and the last one's panels
        (a game-over panel is 2.7 MB at 1080p) are drawn again if it comes back."""
        self._kept = {
            key: surface
            for key, surface in self._kept.items()
            if key in keys or (key[-1] in (90, 180, 270) and key[:-1] in keys)
        }

    def pixel_bytes(self) -> int:
        """Bytes of pixels kept (4 a pixel)."""
        return sum(s.get_width() * s.get_height() * 4 for s in self._kept.values())


class Painter:
    """Builds one frame's :attr:`paints` at ``geometry``'s layout, drawing with ``text``
    and ``art`` and caching shapes in ``shapes``."""

    def __init__(
        self,
        geometry: TableGeometry,
        text: TextCache,
        art: CardArt,
        shapes: Shapes,
        looks: LookCache | None = None,
    ) -> None:
        self.geometry = geometry
        self.text = text
        self.art = art
        self.shapes = shapes
        self.looks = looks if looks is not None else LookCache()
        self.paints: list[Paint] = []

    def add(self, item: DrawItem, look: Look) -> None:
        """Show ``look`` for ``item``, over everything added before."""
        self.paints.append((item, look))

    def shape(
        self, key: tuple[object, ...], size: tuple[int, int], draw: Callable[[], pygame.Surface],
        rotation: int = 0,
    ) -> Look:  # fmt: skip
        """The look of a shape named ``key`` (``size`` px upright), drawn by ``draw()``,
        turned ``rotation`` on screen."""
        found = self.looks.get((*key, rotation))
        if found is not None:
            return found
        shapes = self.shapes

        def turned(rotation: int) -> pygame.Surface:
            upright = shapes.get(key, draw)
            if not rotation:
                return upright
            return shapes.get((*key, rotation), lambda: pygame.transform.rotate(upright, rotation))

        return self.looks.put((*key, rotation), Look(key, rotation, size, turned))

    def card_look(self, card: Card | None, w: int, h: int, rotation: int) -> Look:
        """``card``'s face at ``w`` × ``h`` px (the empty outline for ``None``)."""
        found = self.looks.get(("card", card, w, h, rotation))
        if found is not None:
            return found
        art = self.art
        if card is None:
            look = Look(("empty", w, h), rotation, (w, h), partial(art.empty, w, h))
        else:
            look = Look(("face", card, w, h), rotation, (w, h), partial(art.face, card, w, h))
        return self.looks.put(("card", card, w, h, rotation), look)

    def back_look(self, w: int, h: int, rotation: int) -> Look:
        """A card face down, ``w`` × ``h`` px."""
        found = self.looks.get(("back", w, h, rotation))
        if found is not None:
            return found
        look = Look(("back", w, h), rotation, (w, h), partial(self.art.back, w, h))
        return self.looks.put(("back", w, h, rotation), look)

    def text_look(self, text: str, size: int, colour: Colour, rotation: int) -> Look:
        """``text`` at font ``size`` in ``colour``."""
        key = ("text", text, size, colour, rotation)
        found = self.looks.get(key)
        if found is not None:
            return found
        cache = self.text
        look = Look(
            ("text", text, size, colour),
            rotation,
            cache.size(text, size),
            partial(cache.render, text, size, colour),
            lasting=False,
        )
        return self.looks.put(key, look)

    def add_card(
        self, kind: str, player: int | None, index: int, card: Card | None, box: Box,
        rotation: int,
    ) -> None:  # fmt: skip
        """A card's face filling ``box`` (a slot's or a pile's), or the empty outline for
        ``None``."""
        look = self.card_look(card, box.w, box.h, rotation)
        self.add(DrawItem(kind, box, player, index, card, rotation=rotation), look)

    def add_text(
        self, kind: str, text: str, box: Box, rotation: int, colour: Colour, *,
        player: int | None = None, index: int | None = None, align: str = "center",
        fill: float = 0.8,
    ) -> None:  # fmt: skip
        """One line fitted into ``box`` (``fill`` of its height at most), centred
        vertically, centred or at the reader's left (``align="left"``) or right
        (``"right"``)."""
        size = self.text.fit_size(text, box.w, box.h, fill=fill)
        look = self.text_look(text, size, colour, rotation)
        w, h = look.size
        if align == "left":
            x = box.x if rotation == 0 else box.right - w
        elif align == "right":
            x = box.right - w if rotation == 0 else box.x
        else:
            x = box.x + (box.w - w) // 2
        y = box.y + (box.h - h) // 2
        item = DrawItem(kind, Box(x, y, w, h), player, index, text=text, rotation=rotation,
                        style=colour)  # fmt: skip
        self.add(item, look)

    def add_block(
        self, kind: str, text: str, box: Box, rotation: int, colour: Colour, *,
        index: int | None = None, middle: bool = False, line_h: float = 0.34,
    ) -> None:  # fmt: skip
        """Wrapped lines, top to bottom in the reader's frame (``middle``: the block
        centred vertically in ``box``). ``line_h``: the first size tried, as a fraction of
        the box's height."""
        size, lines = self.text.block(text, box, line_h=line_h)
        line_h_px = self.text.font(size).get_linesize()
        top = box.y
        if middle:
            top += max(0, (box.h - line_h_px * len(lines)) // 2)
        for k, line in enumerate(lines):
            if not line:
                continue
            look = self.text_look(line, size, colour, rotation)
            w, h = look.size
            local_box = Box(box.x + (box.w - w) // 2, top + k * line_h_px, w, h)
            rect = local_box if rotation == 0 else local_box.turned(box)
            item = DrawItem(kind, rect, None, index, text=line, rotation=rotation, style=colour)
            self.add(item, look)

    def add_callout(
        self, kind: str, text: str, box: Box, rotation: int, colour: Colour, *,
        index: int | None = None, font_px: int,
    ) -> None:  # fmt: skip
        """``text`` wrapped and centred in ``box`` (``font_px`` at most) on a dark rounded
        panel (kind ``{kind}_panel``) that hugs the lines."""
        pad = max(2, font_px // 4)
        inner = box.inflate(-pad)
        start = len(self.paints)
        fraction = min(0.45, font_px / max(1, inner.h))
        self.add_block(kind, text, inner, rotation, colour, index=index, middle=True,
                       line_h=fraction)  # fmt: skip
        rects = [item.rect for item, _ in self.paints[start:]]
        if not rects:
            return
        hug = rects[0]
        for rect in rects[1:]:
            hug = hug.union(rect)
        hug = hug.inflate(pad)
        x, y = max(hug.x, box.x), max(hug.y, box.y)
        panel = Box(x, y, min(hug.right, box.right) - x, min(hug.bottom, box.bottom) - y)
        end = len(self.paints)
        self.add_panel(f"{kind}_panel", None, panel, (0, 0, 0, 170), colour, index=index)
        self.paints.insert(start, self.paints.pop(end))

    def add_panel(
        self, kind: str, player: int | None, box: Box, fill: tuple[int, int, int, int],
        border: Colour | None, *, index: int | None = None,
    ) -> None:  # fmt: skip
        """A rounded translucent panel over ``box``, with a ``border`` ring if given."""

        def draw() -> pygame.Surface:
            surface = pygame.Surface((box.w, box.h), pygame.SRCALPHA)
            radius = max(4, min(box.w, box.h) // 12)
            pygame.draw.rect(surface, fill, surface.get_rect(), border_radius=radius)
            if border is not None:
                width = max(2, min(box.w, box.h) // 60)
                pygame.draw.rect(surface, border, surface.get_rect(), width, border_radius=radius)
            return surface

        # Panels that hug text come and go with it; the screens' own panels last.
        lasting = not kind.endswith("_panel")
        look = self.looks.get(("panel", box.w, box.h, fill, border, lasting))
        if look is None:
            shape = self.shape(("panel", box.w, box.h, fill, border), (box.w, box.h), draw)
            look = Look(shape.key, 0, shape.size, shape.draw, lasting=lasting)
            self.looks.put(("panel", box.w, box.h, fill, border, lasting), look)
        style = (*fill, *(border or ()))
        self.add(DrawItem(kind, box, player, index, style=style), look)

    def frame_look(self, box: Box) -> Look:
        """The selection highlight: a thick yellow ring the size of ``box``."""

        def draw() -> pygame.Surface:
            surface = pygame.Surface((box.w, box.h), pygame.SRCALPHA)
            width = max(2, (box.w - self.geometry.card_w) // 2 + 1)
            radius = max(3, self.geometry.card_w // 10)
            pygame.draw.rect(surface, YELLOW, surface.get_rect(), width, border_radius=radius)
            return surface

        return self.shape(("highlight", box.w, box.h), (box.w, box.h), draw)

    def badge(self, text: str, box: Box, rotation: int) -> Look:
        """The STUCK badge: white bold text on a red lozenge."""

        def draw() -> pygame.Surface:
            surface = pygame.Surface((box.w, box.h), pygame.SRCALPHA)
            pygame.draw.rect(surface, STUCK_RED, surface.get_rect(), border_radius=box.h // 3)
            size = self.text.fit_size(text, box.w * 9 // 10, box.h, fill=0.75)
            glyphs = self.text.render(text, size, WHITE)
            surface.blit(glyphs, glyphs.get_rect(center=(box.w // 2, box.h // 2)))
            return surface

        return self.shape(("badge", text, box.w, box.h), (box.w, box.h), draw, rotation)


def local(box: Box, x: int, y: int, w: int, h: int, rotation: int) -> Box:
    """The box at (``x``, ``y``, ``w``, ``h``) inside ``box`` in its reader's frame, on screen."""
    inner = Box(box.x + x, box.y + y, w, h)
    return inner if rotation == 0 else inner.turned(box)
