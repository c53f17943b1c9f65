"""Cards drawn by code: faces, the back and the empty-slot outline, cached by size and
rotation.

Suit pips are shapes (circles and polygons), never glyphs: pygame's default font has no
♠♥♦♣. Each surface is drawn at :data:`SUPERSAMPLE` times its size and smooth-scaled down,
which anti-aliases every edge for the price of one scale at first use; afterwards a card
is a cached surface and drawing it is one blit.

A face shows the rank in two opposite corners (``10`` for the notation's ``T``) with a
small pip under each, and one large pip in the middle, so it reads from either side of a
cocktail table. The rank is large, an arcade's index rather than a real card's: its
capitals and digits are :data:`RANK_HEIGHT` of the card's height tall whatever the font
(the font size is picked from the drawn ink), which makes them at least 4.5 % of the
screen's short side on every screen the layout is made for; ``10``, the widest, is drawn
condensed to :data:`RANK_MAX_WIDTH` of the card's width.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from cabinet.drawing.text import TextCache
from game.cards import Card, Suit

#: Faces are drawn this many times larger, then smooth-scaled down (anti-aliasing).
SUPERSAMPLE = 3

RED = (200, 16, 46)
BLACK = (20, 20, 24)
FACE = (250, 248, 240)
EDGE = (150, 150, 150)
BACK = (24, 52, 120)
BACK_LINE = (70, 110, 190)
EMPTY_LINE = (255, 255, 255, 70)

#: The ink height of a rank's capitals and digits, as a fraction of the card's height.
RANK_HEIGHT = 0.32
#: The widest a rank is drawn, as a fraction of the card's width (``10`` is condensed).
RANK_MAX_WIDTH = 0.6
#: The pip under each corner's rank, as a fraction of the card's width.
CORNER_PIP = 0.3

CardKey = tuple[object, int, int, int]


def rank_text(card: Card) -> str:
    """What the corner says: the notation's rank symbol, with ``T`` written ``10``."""
    return "10" if card.rank == 10 else card.rank_symbol


# -- pips: each draws one suit filling the square (x, y, size) ----------------------


def _pt(x: float, y: float, s: float, u: float, v: float) -> tuple[float, float]:
    return (x + u * s, y + v * s)


def _circle(surface: pygame.Surface, colour: tuple[int, int, int], x: float, y: float,
            s: float, u: float, v: float, r: float) -> None:  # fmt: skip
    pygame.draw.circle(surface, colour, _pt(x, y, s, u, v), r * s)


def _poly(surface: pygame.Surface, colour: tuple[int, int, int], x: float, y: float,
          s: float, points: list[tuple[float, float]]) -> None:  # fmt: skip
    pygame.draw.polygon(surface, colour, [_pt(x, y, s, u, v) for u, v in points])


def _diamond(surface: pygame.Surface, colour: tuple[int, int, int], x: float, y: float,
             s: float) -> None:  # fmt: skip
    _poly(surface, colour, x, y, s, [(0.5, 0.0), (0.9, 0.5), (0.5, 1.0), (0.1, 0.5)])


def _heart(surface: pygame.Surface, colour: tuple[int, int, int], x: float, y: float,
           s: float) -> None:  # fmt: skip
    _circle(surface, colour, x, y, s, 0.28, 0.32, 0.25)
    _circle(surface, colour, x, y, s, 0.72, 0.32, 0.25)
    _poly(surface, colour, x, y, s, [(0.04, 0.40), (0.5, 0.97), (0.96, 0.40), (0.5, 0.30)])


def _spade(surface: pygame.Surface, colour: tuple[int, int, int], x: float, y: float,
           s: float) -> None:  # fmt: skip
    _circle(surface, colour, x, y, s, 0.28, 0.58, 0.23)
    _circle(surface, colour, x, y, s, 0.72, 0.58, 0.23)
    _poly(surface, colour, x, y, s, [(0.06, 0.52), (0.5, 0.0), (0.94, 0.52), (0.5, 0.72)])
    _poly(surface, colour, x, y, s, [(0.5, 0.55), (0.3, 1.0), (0.7, 1.0)])


def _club(surface: pygame.Surface, colour: tuple[int, int, int], x: float, y: float,
          s: float) -> None:  # fmt: skip
    _circle(surface, colour, x, y, s, 0.5, 0.25, 0.21)
    _circle(surface, colour, x, y, s, 0.25, 0.58, 0.21)
    _circle(surface, colour, x, y, s, 0.75, 0.58, 0.21)
    _circle(surface, colour, x, y, s, 0.5, 0.5, 0.12)
    _poly(surface, colour, x, y, s, [(0.5, 0.45), (0.3, 1.0), (0.7, 1.0)])


PIPS: dict[Suit, Callable[[pygame.Surface, tuple[int, int, int], float, float, float], None]] = {
    Suit.SPADES: _spade,
    Suit.HEARTS: _heart,
    Suit.DIAMONDS: _diamond,
    Suit.CLUBS: _club,
}


def draw_pip(
    surface: pygame.Surface, suit: Suit, x: float, y: float, size: float,
    colour: tuple[int, int, int] | None = None,
) -> None:  # fmt: skip
    """Draw ``suit``'s pip filling the ``size``-pixel square at (``x``, ``y``)."""
    PIPS[suit](surface, colour or (RED if suit.is_red else BLACK), x, y, size)


class CardArt:
    """Card surfaces, each drawn once per (card, width, height, rotation) and then reused.

    ``hits`` and ``misses`` count cache look-ups, for tests and the benchmark. ``keep``:
    keep what is drawn (the software backend); without it every call draws afresh (the
    texture backend uploads each picture once and keeps only the texture).
    """

    def __init__(self, text: TextCache, *, keep: bool = True) -> None:
        self.text = text
        self.keep = keep
        self._cache: dict[CardKey, pygame.Surface] = {}
        self._rank_sizes: dict[int, int] = {}
        self._fonts: dict[int, pygame.font.Font] = {}
        """The ranks' fonts, drawn at :data:`SUPERSAMPLE` scale (300–400 px at 1080p:
        with the glyphs they have drawn, 1–2 MB each), kept until :meth:`release_fonts`."""
        self.hits = 0
        self.misses = 0

    def face(self, card: Card, w: int, h: int, rotation: int = 0) -> pygame.Surface:
        """``card`` face up, ``w`` × ``h`` px, turned ``rotation`` degrees (0 or 180)."""
        return self._get((card, w, h, rotation), lambda: self._draw_face(card, w, h))

    def back(self, w: int, h: int, rotation: int = 0) -> pygame.Surface:
        """A card face down (the deck)."""
        return self._get(("back", w, h, rotation), lambda: self._draw_back(w, h))

    def empty(self, w: int, h: int, rotation: int = 0) -> pygame.Surface:
        """The faint outline of an empty slot or pile."""
        return self._get(("empty", w, h, rotation), lambda: self._draw_empty(w, h))

    def __len__(self) -> int:
        return len(self._cache)

    def _get(self, key: CardKey, draw: Callable[[], pygame.Surface]) -> pygame.Surface:
        surface = self._cache.get(key)
        if surface is not None:
            self.hits += 1
            return surface
        self.misses += 1
        rotation = key[3]
        if rotation:
            surface = pygame.transform.rotate(
                self._get((key[0], key[1], key[2], 0), draw), rotation
            )
        else:
            big = draw()
            surface = pygame.transform.smoothscale(big, (key[1], key[2]))
            if pygame.display.get_surface() is not None:
                surface = surface.convert_alpha()
        if self.keep:
            self._cache[key] = surface
        return surface

    def pixel_bytes(self) -> int:
        """Bytes of pictures kept (4 a pixel)."""
        return sum(s.get_width() * s.get_height() * 4 for s in self._cache.values())

    def release_fonts(self) -> None:
        """Close the ranks' fonts (every face at the layout's sizes is drawn: the renderer's
        warm-up); a face drawn later opens them again."""
        self._fonts.clear()

    def _font(self, size: int) -> pygame.font.Font:
        font = self._fonts.get(size)
        if font is None:
            font = self._fonts[size] = self.text.open_font(size)
        return font

    # -- drawing at SUPERSAMPLE scale ----------------------------------------------------

    @staticmethod
    def _blank(w: int, h: int) -> tuple[pygame.Surface, int, int]:
        big_w, big_h = w * SUPERSAMPLE, h * SUPERSAMPLE
        return pygame.Surface((big_w, big_h), pygame.SRCALPHA), big_w, big_h

    def rank_glyph(self, rank: str, colour: tuple[int, int, int], bh: int) -> pygame.Surface:
        """``rank``'s ink, cropped, for a card ``bh`` px tall (at the drawing scale): its
        capitals and digits :data:`RANK_HEIGHT` × ``bh`` tall, not yet condensed."""
        size = self._rank_sizes.get(bh)
        if size is None:
            # The font size whose capital's ink is the wanted height, whatever the font.
            target = RANK_HEIGHT * bh
            probe = 100
            ink = self._font(probe).render("E", True, BLACK).get_bounding_rect().h
            size = max(4, round(probe * target / max(1, ink)))
            while self._font(size).render("E", True, BLACK).get_bounding_rect().h < target:
                size += 1
            self._rank_sizes[bh] = size
        rendered = self._font(size).render(rank, True, colour)
        return rendered.subsurface(rendered.get_bounding_rect()).copy()

    def _draw_face(self, card: Card, w: int, h: int) -> pygame.Surface:
        surface, bw, bh = self._blank(w, h)
        radius = round(bw * 0.08)
        pygame.draw.rect(surface, FACE, (0, 0, bw, bh), border_radius=radius)
        pygame.draw.rect(surface, EDGE, (0, 0, bw, bh), max(1, SUPERSAMPLE), border_radius=radius)
        colour = RED if card.suit.is_red else BLACK
        glyph = self.rank_glyph(rank_text(card), colour, bh)
        widest = round(bw * RANK_MAX_WIDTH)
        if glyph.get_width() > widest:  # "10": condensed, as tall as the others
            glyph = pygame.transform.smoothscale(glyph, (widest, glyph.get_height()))
        # The corner: the rank, and the pip under it at the card's edge; the other
        # corner's pip sits beside it, on the other side of the card's middle.
        pip = round(bw * CORNER_PIP)
        gap = round(bh * 0.025)
        corner_w = max(glyph.get_width(), pip + round(bw * 0.02))
        corner = pygame.Surface((corner_w, glyph.get_height() + gap + pip), pygame.SRCALPHA)
        corner.blit(glyph, (0, 0))
        draw_pip(corner, card.suit, round(bw * 0.02), glyph.get_height() + gap, pip)
        inset_x, inset_y = round(bw * 0.05), round(bh * 0.03)
        surface.blit(corner, (inset_x, inset_y))
        turned = pygame.transform.rotate(corner, 180)
        surface.blit(turned, (bw - inset_x - corner_w, bh - inset_y - corner.get_height()))
        return surface

    @staticmethod
    def _draw_back(w: int, h: int) -> pygame.Surface:
        surface, bw, bh = CardArt._blank(w, h)
        radius = round(bw * 0.08)
        pygame.draw.rect(surface, FACE, (0, 0, bw, bh), border_radius=radius)
        inset = round(bw * 0.07)
        inner = pygame.Rect(inset, inset, bw - 2 * inset, bh - 2 * inset)
        pygame.draw.rect(surface, BACK, inner, border_radius=max(1, radius // 2))
        step = max(4, bw // 9)
        width = max(1, SUPERSAMPLE)
        pattern = pygame.Surface(inner.size, pygame.SRCALPHA)
        for k in range(-inner.h, inner.w, step):
            pygame.draw.line(pattern, BACK_LINE, (k, 0), (k + inner.h, inner.h), width)
            pygame.draw.line(pattern, BACK_LINE, (k + inner.h, 0), (k, inner.h), width)
        mask = pygame.Surface(inner.size, pygame.SRCALPHA)
        pygame.draw.rect(
            mask, (255, 255, 255, 255), mask.get_rect(), border_radius=max(1, radius // 2)
        )
        pattern.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        surface.blit(pattern, inner.topleft)
        pygame.draw.rect(surface, EDGE, (0, 0, bw, bh), max(1, SUPERSAMPLE), border_radius=radius)
        return surface

    @staticmethod
    def _draw_empty(w: int, h: int) -> pygame.Surface:
        surface, bw, bh = CardArt._blank(w, h)
        radius = round(bw * 0.08)
        pygame.draw.rect(surface, (0, 0, 0, 40), (0, 0, bw, bh), border_radius=radius)
        pygame.draw.rect(surface, EMPTY_LINE, (0, 0, bw, bh), 2 * SUPERSAMPLE, border_radius=radius)
        return surface
