"""How large the cards can be: every length of each orientation's arrangement for one card
width, and the largest card width whose whole layout fits the table. Pure arithmetic, no
pygame.

:class:`UprightSizes` and :class:`CocktailSizes` each say whether their layout fits a
table at one card width; :meth:`UprightSizes.fitting` and :meth:`CocktailSizes.fitting`
pick the largest that does. :mod:`cabinet.drawing.arrangement` then places the boxes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

#: A card is this many times as tall as it is wide (a poker card is 88.9 × 63.5 mm).
CARD_ASPECT = 1.4

#: The centre piles are at least this many times as wide as the layout cards.
PILE_SCALE = 1.3


def _line(ch: int, fraction: float) -> int:
    """A text line's height: ``fraction`` of a card's height, 10 px at least."""
    return max(10, round(ch * fraction))


@dataclass(frozen=True, slots=True)
class Sizes:
    """The lengths both arrangements share, for one card width ``cw``."""

    cw: int
    ch: int
    g: int
    """The gap between cards, and the unit of every margin."""
    hl: int
    """How far a slot's selection frame reaches out round it."""
    pw: int
    """The smallest pile width: :data:`PILE_SCALE` × ``cw``, rounded up."""
    ph: int
    row_w: int
    """Four slots side by side."""

    @classmethod
    def of(cls, cw: int) -> Sizes:
        pw = math.ceil(cw * PILE_SCALE - 1e-9)
        g = max(2, round(cw * 0.08))
        return cls(
            cw=cw,
            ch=round(cw * CARD_ASPECT),
            g=g,
            hl=max(2, g // 2),
            pw=pw,
            ph=round(pw * CARD_ASPECT),
            row_w=4 * cw + 3 * g,
        )


def _largest(start: float, fits: Callable[[int], bool]) -> int:
    """The largest card width from ``start`` down (8 px at least) that ``fits(cw)``."""
    cw = max(8, int(start))
    while cw > 8 and not fits(cw):
        cw -= 1
    return cw


@dataclass(frozen=True, slots=True)
class UprightSizes:
    """Upright lengths for one card width: a player's column is the name line (name and
    cards left), the four slots, the message line and, at the bottom, the deck row (deck,
    count, STUCK badge); the centre is the countdown, the match score, the piles, their
    counts and the race moments, top to bottom."""

    s: Sizes
    side: int
    """Left and right margin."""
    sep: int
    """Between a row of slots and the piles: room for the highlight and the pile mat."""
    lh: int
    mh: int
    sh: int
    """The match score's line."""
    nh: int
    """A pile count's line."""
    rh: int
    """The least height of a race moment's box."""
    bh: int
    """The STUCK badge's height."""

    @classmethod
    def of(cls, cw: int) -> UprightSizes:
        s = Sizes.of(cw)
        return cls(
            s=s,
            side=max(s.hl + 1, round(cw * 0.05)),
            sep=max(2 * s.hl + 2, round(cw * 0.2)),
            lh=_line(s.ch, 0.2),
            mh=_line(s.ch, 0.2),
            sh=_line(s.ch, 0.2),
            nh=_line(s.ch, 0.16),
            rh=_line(s.ch, 0.3),
            bh=_line(s.ch, 0.34),
        )

    @classmethod
    def fitting(cls, tw: int, th: int) -> UprightSizes:
        """The lengths at the largest card width that fits a ``tw`` × ``th`` table."""
        return cls.of(_largest(min(tw / 11.6, th / 3.4), lambda cw: cls.of(cw).fits(tw, th)))

    @property
    def top_block(self) -> int:
        """A column's name line, slots and message line."""
        return self.lh + self.s.g + self.s.ch + self.s.g + self.mh

    def core(self, ph: int) -> int:
        """The centre's score, piles and counts."""
        return self.sh + self.s.g + ph + self.s.g + self.nh

    def pile_room(self, tw: int, th: int) -> tuple[int, int]:
        """The widest piles the centre's width and the table's height allow (may be
        below the minimum: then the card width does not fit)."""
        s, g = self.s, self.s.g
        centre = tw - 2 * self.side - 2 * s.row_w - 2 * self.sep
        by_width = (centre - g) // 2
        ph_room = th - 2 * g - (self.lh + g) - (self.core(0) + g + self.rh)
        return by_width, int(ph_room / CARD_ASPECT)

    def fits(self, tw: int, th: int) -> bool:
        s, g = self.s, self.s.g
        column = 2 * g + self.top_block + g + s.ch
        by_width, by_height = self.pile_room(tw, th)
        return column <= th and min(by_width, by_height) >= s.pw


@dataclass(frozen=True, slots=True)
class CocktailSizes:
    """Cocktail lengths for one card width: a player's half, from the near edge inward,
    is the name line, the slots with the deck and the cards left on their right, and the
    message line; the pile band on the centre line holds the piles, their counts and, on
    each side, the countdown, the race moments and the match score."""

    s: Sizes
    lh: int
    mh: int
    sh: int
    nh: int
    left_w: int
    """The cards-left box right of the deck."""

    @classmethod
    def of(cls, cw: int) -> CocktailSizes:
        s = Sizes.of(cw)
        return cls(
            s=s,
            lh=_line(s.ch, 0.2),
            mh=_line(s.ch, 0.18),
            sh=_line(s.ch, 0.2),
            nh=_line(s.ch, 0.16),
            left_w=round(cw * 1.5),
        )

    @classmethod
    def fitting(cls, tw: int, th: int) -> CocktailSizes:
        """The lengths at the largest card width that fits a ``tw`` × ``th`` table."""
        start = min(tw / 6.6, th / (CARD_ASPECT * 4.4))
        return cls.of(_largest(start, lambda cw: cls.of(cw).fits(tw, th)))

    @property
    def half_h(self) -> int:
        """A player's half: message line, slots, name line."""
        return self.mh + self.s.g + self.s.ch + self.s.g + self.lh

    @property
    def group_w(self) -> int:
        """The slots, the deck and the cards-left box."""
        return self.s.row_w + 2 * self.s.g + self.s.cw + self.s.g + self.left_w

    @property
    def count_w(self) -> int:
        return max(self.s.cw // 2, 3 * self.nh // 2)

    def fits(self, tw: int, th: int) -> bool:
        s, g = self.s, self.s.g
        height = 2 * (g + self.half_h + g) + s.ph
        band = 2 * s.pw + g + 2 * (g + self.count_w) + 2 * (2 * g + s.cw)
        return height <= th and self.group_w + 2 * g <= tw and band <= tw
