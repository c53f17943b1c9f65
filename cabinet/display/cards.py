"""Cards drawn by code: faces, the back and the empty-slot outline, cached by size and
rotation.

Suit pips are shapes (circles and polygons), never glyphs: pygame's default font has no
♠♥♦♣. Each surface is drawn at :data:`SUPERSAMPLE` times its size and smooth-scaled down,
which anti-aliases every edge for the price of one scale at first use; afterwards a card
is a cached surface and drawing it is one blit.

A face shows the rank in two opposite corners (``10`` for the notation's ``T``) with a
small pip under each, and one large pip in the middle, so it reads from either side of a
cocktail table.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from cabinet.display.text import TextCache
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

    ``hits`` and ``misses`` count cache look-ups, for tests and the benchmark.
    """

    def __init__(self, text: TextCache) -> None:
        self.text = text
        self._cache: dict[CardKey, pygame.Surface] = {}
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
        self._cache[key] = surface
        return surface

    # -- drawing at SUPERSAMPLE scale ----------------------------------------------------

    @staticmethod
    def _blank(w: int, h: int) -> tuple[pygame.Surface, int, int]:
        big_w, big_h = w * SUPERSAMPLE, h * SUPERSAMPLE
        return pygame.Surface((big_w, big_h), pygame.SRCALPHA), big_w, big_h

    def _draw_face(self, card: Card, w: int, h: int) -> pygame.Surface:
        surface, bw, bh = self._blank(w, h)
        radius = round(bw * 0.08)
        pygame.draw.rect(surface, FACE, (0, 0, bw, bh), border_radius=radius)
        pygame.draw.rect(surface, EDGE, (0, 0, bw, bh), max(1, SUPERSAMPLE), border_radius=radius)
        colour = RED if card.suit.is_red else BLACK
        corner = pygame.Surface((round(bw * 0.36), round(bh * 0.46)), pygame.SRCALPHA)
        rank = rank_text(card)
        size = self.text.fit_size(rank, corner.get_width(), round(bh * 0.34), fill=1.0)
        glyph = self.text.font(size).render(rank, True, colour)
        cw = corner.get_width()
        corner.blit(glyph, ((cw - glyph.get_width()) // 2, 0))
        pip = round(cw * 0.55)
        draw_pip(corner, card.suit, (cw - pip) / 2, glyph.get_height() * 0.92, pip)
        inset_x, inset_y = round(bw * 0.03), round(bh * 0.025)
        surface.blit(corner, (inset_x, inset_y))
        turned = pygame.transform.rotate(corner, 180)
        surface.blit(turned, (bw - inset_x - cw, bh - inset_y - corner.get_height()))
        big = bw * 0.4
        draw_pip(surface, card.suit, (bw - big) / 2, (bh - big) / 2, big)
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
