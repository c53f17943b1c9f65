"""How each orientation arranges the table: the card size for the screen, each player's
half laid out in that player's own frame, and the piles and shared text between the halves.
Pure arithmetic, no pygame.

* :func:`upright`: players side by side; player 2's half is player 1's moved sideways.
* :func:`cocktail`: players face to face; player 2's half is player 1's turned 180° about
  the table's centre.

In both, the two centre piles, where every race is run, are the largest cards on the
screen: at least :data:`PILE_SCALE` times as wide as the layout cards (as large as the
centre allows upright). Each arrangement picks the largest card width whose whole layout
fits (:class:`_Upright`, :class:`_Cocktail`), then places the boxes.

:func:`cabinet.drawing.geometry.table_geometry` picks the arrangement for the orientation
and adds the lights strip; lengths are integer pixels, as in :mod:`cabinet.drawing.box`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from cabinet.drawing.box import Box, Placed

#: A card is this many times as tall as it is wide (a poker card is 88.9 × 63.5 mm).
CARD_ASPECT = 1.4

#: The centre piles are at least this many times as wide as the layout cards.
PILE_SCALE = 1.3


@dataclass(frozen=True, slots=True)
class PlayerGeometry:
    """One player's half of the table. ``rotation`` (0 or 180 degrees) is how everything in
    it is turned on screen: 180 for player 2 in cocktail."""

    rotation: int
    region: Box
    """The whole half, for panels that cover it (join and game-over screens)."""
    slots: tuple[Box, Box, Box, Box]
    """Layout slots 1-4 (index 0-3), from the player's own left to right."""
    highlights: tuple[Box, Box, Box, Box]
    """The selection frame around each slot."""
    deck: Box
    deck_count: Box
    """Where the number of cards in the deck is written."""
    label: Box
    """The name / status line."""
    cards_left: Box
    """Where the player's cards left (deck and layout, R12) are written all game."""
    stuck: Box
    """The STUCK badge."""
    message: Box
    """This player's own messages (beaten labels, warnings)."""
    panel: Box
    """The text panel of the join and game-over screens."""


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One orientation's table area laid out: everything but the lights strip."""

    card_w: int
    card_h: int
    pile_w: int
    pile_h: int
    players: tuple[PlayerGeometry, PlayerGeometry]
    piles: tuple[Box, Box]
    pile_rotations: tuple[int, int]
    pile_counts: tuple[Placed, Placed]
    messages: tuple[Placed, ...]
    banners: tuple[Placed, ...]
    scores: tuple[Placed, ...]
    races: tuple[tuple[Placed, ...], tuple[Placed, ...]]


def _line(ch: int, fraction: float) -> int:
    """A text line's height: ``fraction`` of a card's height, 10 px at least."""
    return max(10, round(ch * fraction))


@dataclass(frozen=True, slots=True)
class _Sizes:
    """The lengths both arrangements share, for one card width ``cw``."""

    cw: int
    ch: int
    g: int
    """The gap between cards, and the unit of every margin."""
    pw: int
    """The smallest pile width: :data:`PILE_SCALE` × ``cw``, rounded up."""
    ph: int
    row_w: int
    """Four slots side by side."""

    @classmethod
    def of(cls, cw: int) -> _Sizes:
        pw = math.ceil(cw * PILE_SCALE - 1e-9)
        g = max(2, round(cw * 0.08))
        return cls(
            cw=cw,
            ch=round(cw * CARD_ASPECT),
            g=g,
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


# -- upright ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Upright:
    """Upright lengths for one card width: a player's column is the name line (name and
    cards left), the four slots, the message line and, at the bottom, the deck row (deck,
    count, STUCK badge); the centre is the countdown, the match score, the piles, their
    counts and the race moments, top to bottom."""

    s: _Sizes
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

    @classmethod
    def of(cls, cw: int) -> _Upright:
        s = _Sizes.of(cw)
        hl = max(2, s.g // 2)
        return cls(
            s=s,
            side=max(hl + 1, round(cw * 0.05)),
            sep=max(2 * hl + 2, round(cw * 0.2)),
            lh=_line(s.ch, 0.2),
            mh=_line(s.ch, 0.2),
            sh=_line(s.ch, 0.2),
            nh=_line(s.ch, 0.16),
            rh=_line(s.ch, 0.3),
        )

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


def upright(width: int, height: int, table: Box) -> Arrangement:
    """Players side by side: [P1 column] [piles] [P2 column]. A column, top to bottom:
    name and cards left, the four slots, the message line, then the deck row at the
    bottom. The centre, top to bottom: the countdown, the match score, the two piles
    (centred between a column's message line and its deck row), their counts and the
    race moments. The piles sit between the rows of slots, so the rows (four cards
    each, in the buttons' order) and the piles share the width: that sets the card
    size. Spare height goes in equal parts above, between and below the column's
    blocks, so no band across the screen stays empty."""
    tw, th = table.w, table.h
    u = _Upright.of(_largest(min(tw / 11.6, th / 3.4), lambda cw: _Upright.of(cw).fits(tw, th)))
    s, g, cw, ch = u.s, u.s.g, u.s.cw, u.s.ch
    pw = max(s.pw, min(u.pile_room(tw, th)))
    ph = round(pw * CARD_ASPECT)
    centre_w = 2 * pw + g
    # Horizontal: the columns at the margins, the piles centred between them.
    x1 = table.x + u.side
    x2 = table.right - u.side - s.row_w
    px = (x1 + s.row_w + x2 - centre_w) // 2
    # Vertical: stack the column's top block, the centre's core and the deck row when
    # the height allows, with the spare height spread evenly; else the top block at the
    # top, the deck row at the bottom and the core centred (it only shares height with
    # the columns, never width).
    core = u.core(ph)
    spare = th - (2 * g + u.top_block + g + core + g + ch)
    if spare >= 0:
        e = spare // 4
        y0 = table.y + g + e
        core_y = y0 + u.top_block + g + e
        deck_y = core_y + core + g + e
    else:
        y0 = table.y + g
        deck_y = table.bottom - g - ch
        lowest = table.y + g + u.lh + g
        highest = table.bottom - g - u.rh - g - core
        core_y = max(lowest, min(table.y + (th - core) // 2, highest))
    row_y = y0 + u.lh + g
    slots = tuple(Box(x1 + i * (cw + g), row_y, cw, ch) for i in range(4))
    name_w = s.row_w * 11 // 20
    label = Box(x1, y0, name_w, u.lh)
    cards_left = Box(x1 + name_w + g, y0, s.row_w - name_w - g, u.lh)
    message = Box(x1, row_y + ch + g, s.row_w, u.mh)
    deck = Box(x1, deck_y, cw, ch)
    deck_count = Box(x1 + cw + g, deck_y + (ch - u.lh) // 2, cw, u.lh)
    badge_h = _line(ch, 0.34)
    stuck = Box(x1 + 2 * (cw + g), deck_y + (ch - badge_h) // 2, 2 * cw + g, badge_h)
    panel = Box(x1, y0, s.row_w, deck.bottom - y0)
    sep1 = px - (x1 + s.row_w)
    region = Box(table.x, table.y, x1 + s.row_w + sep1 // 2 - table.x, th)
    p1 = _player(0, region, slots, deck, deck_count, label, cards_left, stuck, message, panel, g)
    dx = x2 - x1
    p2 = PlayerGeometry(
        rotation=0,
        region=Box(table.right - region.w, table.y, region.w, th),
        slots=_four(b.moved(dx, 0) for b in p1.slots),
        highlights=_four(b.moved(dx, 0) for b in p1.highlights),
        deck=p1.deck.moved(dx, 0),
        deck_count=p1.deck_count.moved(dx, 0),
        label=p1.label.moved(dx, 0),
        cards_left=p1.cards_left.moved(dx, 0),
        stuck=p1.stuck.moved(dx, 0),
        message=p1.message.moved(dx, 0),
        panel=p1.panel.moved(dx, 0),
    )
    score = Placed(Box(px, core_y, centre_w, u.sh), 0)
    pile_y = score.box.bottom + g
    piles = (Box(px, pile_y, pw, ph), Box(px + pw + g, pile_y, pw, ph))
    counts = tuple(Placed(Box(p.x, p.bottom + g, pw, u.nh), 0) for p in piles)
    # The centre between the columns (half a separation from each row of slots).
    cx0 = x1 + s.row_w + sep1 // 2
    cx1 = x2 - (x2 - (px + centre_w)) // 2
    countdown = Placed(Box(cx0, table.y + g, cx1 - cx0, core_y - g - (table.y + g)), 0)
    race_y = counts[0].box.bottom + g
    race_h = table.bottom - g - race_y
    mid = px + pw + g // 2
    races = (
        (Placed(Box(cx0, race_y, mid - cx0, race_h), 0),),
        (Placed(Box(mid, race_y, cx1 - mid, race_h), 0),),
    )
    banner = Placed(Box(cx0, table.y + g, cx1 - cx0, th - 2 * g), 0)
    return Arrangement(
        card_w=cw,
        card_h=ch,
        pile_w=pw,
        pile_h=ph,
        players=(p1, p2),
        piles=piles,
        pile_rotations=(0, 0),
        pile_counts=(counts[0], counts[1]),
        messages=(countdown,),
        banners=(banner,),
        scores=(score,),
        races=races,
    )


# -- cocktail -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Cocktail:
    """Cocktail lengths for one card width: a player's half, from the near edge inward,
    is the name line, the slots with the deck and the cards left on their right, and the
    message line; the pile band on the centre line holds the piles, their counts and, on
    each side, the countdown, the race moments and the match score."""

    s: _Sizes
    lh: int
    mh: int
    sh: int
    nh: int
    left_w: int
    """The cards-left box right of the deck."""

    @classmethod
    def of(cls, cw: int) -> _Cocktail:
        s = _Sizes.of(cw)
        return cls(
            s=s,
            lh=_line(s.ch, 0.2),
            mh=_line(s.ch, 0.18),
            sh=_line(s.ch, 0.2),
            nh=_line(s.ch, 0.16),
            left_w=round(cw * 1.5),
        )

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


def cocktail(width: int, height: int, table: Box) -> Arrangement:
    """Face to face. Player 1's half, in their own frame from the near edge inward: name
    line, then the row of four slots with the deck and the cards left on its right,
    then a message line. The piles sit on the centre line, larger than the slots, with
    their counts beside them; on each side of the piles, in the nearer player's reading
    direction, the countdown (and the attract and game-over text), and the match score
    nearest that player. A race moment is written beside its pile twice, once for each
    player. Player 2's half is player 1's turned 180°."""
    tw, th = table.w, table.h
    start = min(tw / 6.6, th / (CARD_ASPECT * 4.4))
    c = _Cocktail.of(_largest(start, lambda cw: _Cocktail.of(cw).fits(tw, th)))
    s, g, cw, ch = c.s, c.s.g, c.s.cw, c.s.ch
    pw, ph = s.pw, s.ph
    x1 = table.x + (tw - c.group_w) // 2
    # Vertical: [margin][P2 half][gap][pile band][gap][P1 half][margin]; spare height
    # in equal parts to the margins and the gaps.
    spare = th - (2 * (g + c.half_h + g) + ph)
    e = max(0, spare) // 4
    p1_top = table.bottom - g - e - c.half_h
    message = Box(x1, p1_top, s.row_w, c.mh)
    row_y = p1_top + c.mh + g
    slots = tuple(Box(x1 + i * (cw + g), row_y, cw, ch) for i in range(4))
    deck = Box(x1 + s.row_w + 2 * g, row_y, cw, ch)
    cards_left = Box(deck.right + g, row_y + (ch - c.lh) // 2, c.left_w, c.lh)
    name_y = row_y + ch + g
    label = Box(x1, name_y, 2 * cw + g, c.lh)
    stuck = Box(x1 + 2 * (cw + g), name_y, 2 * cw + g, c.lh)
    deck_count = Box(deck.x, name_y, cw, c.lh)
    band_y = p1_top - g - e - ph
    region_top = band_y + ph
    region = Box(table.x, region_top, tw, table.bottom - region_top)
    panel = Box(x1, p1_top, c.group_w, c.half_h)
    p1 = _player(0, region, slots, deck, deck_count, label, cards_left, stuck, message, panel, g)
    p2 = _turned(p1, table)
    px = table.x + (tw - (2 * pw + g)) // 2
    piles = (Box(px, band_y, pw, ph), Box(px + pw + g, band_y, pw, ph))
    count1 = Placed(Box(px - g - c.count_w, band_y + ph - c.nh, c.count_w, c.nh), 0)
    count2 = Placed(count1.box.turned(table), 180)
    # Each side of the piles: the score at the near player's end, above it the
    # countdown; the race moments of the pile on this side share the countdown's box,
    # one half for each player.
    side_x = table.x + 2 * g
    side_w = count1.box.x - g - side_x
    score1 = Placed(Box(side_x, band_y + ph - c.sh, side_w, c.sh), 0)
    msg1 = Placed(Box(side_x, band_y, side_w, ph - c.sh - g), 0)
    race_h = (msg1.box.h - g) // 2
    race_far = Box(side_x, band_y, side_w, race_h)
    race_near = Box(side_x, msg1.box.bottom - race_h, side_w, race_h)
    races = (
        (Placed(race_near, 0), Placed(race_far, 180)),
        (Placed(race_far.turned(table), 0), Placed(race_near.turned(table), 180)),
    )
    return Arrangement(
        card_w=cw,
        card_h=ch,
        pile_w=pw,
        pile_h=ph,
        players=(p1, p2),
        piles=piles,
        pile_rotations=(0, 180),
        pile_counts=(count1, count2),
        messages=(msg1, Placed(msg1.box.turned(table), 180)),
        banners=(msg1, Placed(msg1.box.turned(table), 180)),
        scores=(score1, Placed(score1.box.turned(table), 180)),
        races=races,
    )


def _four(boxes: Iterable[Box]) -> tuple[Box, Box, Box, Box]:
    items = tuple(boxes)
    return (items[0], items[1], items[2], items[3])


def _player(
    rotation: int,
    region: Box,
    slots: tuple[Box, ...],
    deck: Box,
    deck_count: Box,
    label: Box,
    cards_left: Box,
    stuck: Box,
    message: Box,
    panel: Box,
    g: int,
) -> PlayerGeometry:
    hl = max(2, g // 2)
    return PlayerGeometry(
        rotation=rotation,
        region=region,
        slots=_four(slots),
        highlights=_four(s.inflate(hl) for s in slots),
        deck=deck,
        deck_count=deck_count,
        label=label,
        cards_left=cards_left,
        stuck=stuck,
        message=message,
        panel=panel,
    )


def _turned(p: PlayerGeometry, table: Box) -> PlayerGeometry:
    """Player ``p``'s half turned 180° about the table's centre: the facing player's."""
    return PlayerGeometry(
        rotation=(p.rotation + 180) % 360,
        region=p.region.turned(table),
        slots=_four(b.turned(table) for b in p.slots),
        highlights=_four(b.turned(table) for b in p.highlights),
        deck=p.deck.turned(table),
        deck_count=p.deck_count.turned(table),
        label=p.label.turned(table),
        cards_left=p.cards_left.turned(table),
        stuck=p.stuck.turned(table),
        message=p.message.turned(table),
        panel=p.panel.turned(table),
    )
