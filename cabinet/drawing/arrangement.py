"""How each orientation arranges the table: each player's half laid out in that player's
own frame, and the piles and shared text between the halves. Pure arithmetic, no pygame.

* :func:`upright`: players side by side; player 2's half is player 1's moved sideways.
* :func:`cocktail`: players face to face; player 2's half is player 1's turned 180° about
  the table's centre.

In both, the two centre piles, where every race is run, are the largest cards on the
screen: at least :data:`PILE_SCALE` times as wide as the layout cards (as large as the
centre allows upright). Each arrangement takes the largest card width whose whole layout
fits (:mod:`cabinet.drawing.card_size`), then places the boxes.

:func:`cabinet.drawing.geometry.table_geometry` picks the arrangement for the orientation
and adds the lights strip; lengths are integer pixels, as in :mod:`cabinet.drawing.box`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from cabinet.drawing.box import Box, Placed
from cabinet.drawing.card_size import CARD_ASPECT as CARD_ASPECT  # re-exported
from cabinet.drawing.card_size import PILE_SCALE as PILE_SCALE  # re-exported
from cabinet.drawing.card_size import CocktailSizes, Sizes, UprightSizes


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


# -- upright ------------------------------------------------------------------------------


def upright(width: int, height: int, table: Box) -> Arrangement:
    """Players side by side: [P1 column] [piles] [P2 column]. A column, top to bottom:
    name and cards left, the four slots, the message line, then the deck row at the
    bottom. The centre, top to bottom: the countdown, the match score, the two piles
    (centred between a column's message line and its deck row), their counts and the
    race moments. The piles sit between the rows of slots, so the rows (four cards
    each, in the buttons' order) and the piles share the width: that sets the card
    size. Spare height goes in equal parts above, between and below the column's
    blocks, so no band across the screen stays empty."""
    u = UprightSizes.fitting(table.w, table.h)
    at = _UprightPlan.of(u, table)
    p1 = _upright_column(u, at, table)
    dx = at.x2 - at.x1
    region = Box(table.right - p1.region.w, table.y, p1.region.w, table.h)
    p2 = _placed(p1, 0, region, lambda b: b.moved(dx, 0))
    return _upright_centre(u, at, table, (p1, p2))


@dataclass(frozen=True, slots=True)
class _UprightPlan:
    """Where the upright blocks go, across and down."""

    pw: int
    ph: int
    """The piles' size: as large as the centre allows."""
    x1: int
    """The left of player 1's column (player 2's is at ``x2``)."""
    x2: int
    px: int
    """The left of the piles."""
    cx0: int
    """The centre between the columns, from ``cx0`` to ``cx1``: half a separation from
    each row of slots."""
    cx1: int
    y0: int
    """The top of a column's name line."""
    core_y: int
    """The top of the centre's core: the score, the piles and their counts."""
    deck_y: int

    @classmethod
    def of(cls, u: UprightSizes, table: Box) -> _UprightPlan:
        s, g = u.s, u.s.g
        pw = max(s.pw, min(u.pile_room(table.w, table.h)))
        ph = round(pw * CARD_ASPECT)
        centre_w = 2 * pw + g
        # Horizontal: the columns at the margins, the piles centred between them.
        x1 = table.x + u.side
        x2 = table.right - u.side - s.row_w
        px = (x1 + s.row_w + x2 - centre_w) // 2
        cx0 = x1 + s.row_w + (px - (x1 + s.row_w)) // 2
        cx1 = x2 - (x2 - (px + centre_w)) // 2
        y0, core_y, deck_y = _upright_rows(u, table, u.core(ph))
        return cls(
            pw=pw, ph=ph, x1=x1, x2=x2, px=px, cx0=cx0, cx1=cx1, y0=y0, core_y=core_y, deck_y=deck_y
        )


def _upright_rows(u: UprightSizes, table: Box, core: int) -> tuple[int, int, int]:
    """The tops of a column's name line, of the centre's ``core`` (that high) and of the
    deck row. They stack, the column's top block, the core and the deck row, when the
    height allows, with the spare height spread evenly; else the top block is at the top,
    the deck row at the bottom and the core centred (it only shares height with the
    columns, never width)."""
    g, th = u.s.g, table.h
    spare = th - (2 * g + u.top_block + g + core + g + u.s.ch)
    if spare >= 0:
        e = spare // 4
        y0 = table.y + g + e
        core_y = y0 + u.top_block + g + e
        return y0, core_y, core_y + core + g + e
    lowest = table.y + g + u.lh + g
    highest = table.bottom - g - u.rh - g - core
    core_y = max(lowest, min(table.y + (th - core) // 2, highest))
    return table.y + g, core_y, table.bottom - g - u.s.ch


def _upright_column(u: UprightSizes, at: _UprightPlan, table: Box) -> PlayerGeometry:
    """Player 1's column, its half reaching to the centre's left."""
    s, g, cw, ch = u.s, u.s.g, u.s.cw, u.s.ch
    x1, y0, deck_y = at.x1, at.y0, at.deck_y
    row_y = y0 + u.lh + g
    name_w = s.row_w * 11 // 20
    deck = Box(x1, deck_y, cw, ch)
    return _player(
        s,
        Box(table.x, table.y, at.cx0 - table.x, table.h),
        x1,
        row_y,
        deck=deck,
        deck_count=Box(x1 + cw + g, deck_y + (ch - u.lh) // 2, cw, u.lh),
        label=Box(x1, y0, name_w, u.lh),
        cards_left=Box(x1 + name_w + g, y0, s.row_w - name_w - g, u.lh),
        stuck=Box(x1 + 2 * (cw + g), deck_y + (ch - u.bh) // 2, 2 * cw + g, u.bh),
        message=Box(x1, row_y + ch + g, s.row_w, u.mh),
        panel=Box(x1, y0, s.row_w, deck.bottom - y0),
    )


def _upright_centre(
    u: UprightSizes, at: _UprightPlan, table: Box, players: tuple[PlayerGeometry, PlayerGeometry]
) -> Arrangement:
    """The arrangement of ``players`` with the centre between them: the countdown, the
    match score, the piles, their counts and the race moments, under one banner."""
    g, pw, ph, px = u.s.g, at.pw, at.ph, at.px
    cx0, cx1, top = at.cx0, at.cx1, table.y + g
    score = Placed(Box(px, at.core_y, 2 * pw + g, u.sh), 0)
    pile_y = score.box.bottom + g
    piles = (Box(px, pile_y, pw, ph), Box(px + pw + g, pile_y, pw, ph))
    counts = tuple(Placed(Box(p.x, p.bottom + g, pw, u.nh), 0) for p in piles)
    countdown = Placed(Box(cx0, top, cx1 - cx0, at.core_y - g - top), 0)
    race_y = counts[0].box.bottom + g
    race_h = table.bottom - g - race_y
    mid = px + pw + g // 2
    races = (
        (Placed(Box(cx0, race_y, mid - cx0, race_h), 0),),
        (Placed(Box(mid, race_y, cx1 - mid, race_h), 0),),
    )
    banner = Placed(Box(cx0, top, cx1 - cx0, table.h - 2 * g), 0)
    return Arrangement(
        card_w=u.s.cw,
        card_h=u.s.ch,
        pile_w=pw,
        pile_h=ph,
        players=players,
        piles=piles,
        pile_rotations=(0, 0),
        pile_counts=(counts[0], counts[1]),
        messages=(countdown,),
        banners=(banner,),
        scores=(score,),
        races=races,
    )


# -- cocktail -----------------------------------------------------------------------------


def cocktail(width: int, height: int, table: Box) -> Arrangement:
    """Face to face. Player 1's half, in their own frame from the near edge inward: name
    line, then the row of four slots with the deck and the cards left on its right,
    then a message line. The piles sit on the centre line, larger than the slots, with
    their counts beside them; on each side of the piles, in the nearer player's reading
    direction, the countdown (and the attract and game-over text), and the match score
    nearest that player. A race moment is written beside its pile twice, once for each
    player. Player 2's half is player 1's turned 180°."""
    c = CocktailSizes.fitting(table.w, table.h)
    g, ph = c.s.g, c.s.ph
    # Vertical: [margin][P2 half][gap][pile band][gap][P1 half][margin]; spare height
    # in equal parts to the margins and the gaps.
    e = max(0, table.h - (2 * (g + c.half_h + g) + ph)) // 4
    p1_top = table.bottom - g - e - c.half_h
    band_y = p1_top - g - e - ph
    p1 = _cocktail_half(c, table, p1_top, band_y + ph)
    p2 = _placed(p1, 180, p1.region.turned(table), lambda b: b.turned(table))
    return _cocktail_band(c, table, band_y, (p1, p2))


def _cocktail_half(c: CocktailSizes, table: Box, top: int, region_top: int) -> PlayerGeometry:
    """Player 1's half from ``top`` (its message line) down, centred across; the region
    reaches up to ``region_top``, the pile band's bottom."""
    s, g, cw, ch = c.s, c.s.g, c.s.cw, c.s.ch
    x1 = table.x + (table.w - c.group_w) // 2
    row_y = top + c.mh + g
    deck = Box(x1 + s.row_w + 2 * g, row_y, cw, ch)
    name_y = row_y + ch + g
    return _player(
        s,
        Box(table.x, region_top, table.w, table.bottom - region_top),
        x1,
        row_y,
        deck=deck,
        deck_count=Box(deck.x, name_y, cw, c.lh),
        label=Box(x1, name_y, 2 * cw + g, c.lh),
        cards_left=Box(deck.right + g, row_y + (ch - c.lh) // 2, c.left_w, c.lh),
        stuck=Box(x1 + 2 * (cw + g), name_y, 2 * cw + g, c.lh),
        message=Box(x1, top, s.row_w, c.mh),
        panel=Box(x1, top, c.group_w, c.half_h),
    )


def _cocktail_band(
    c: CocktailSizes, table: Box, band_y: int, players: tuple[PlayerGeometry, PlayerGeometry]
) -> Arrangement:
    """The arrangement of ``players`` with the pile band between them at ``band_y``."""
    g, pw, ph = c.s.g, c.s.pw, c.s.ph
    px = table.x + (table.w - (2 * pw + g)) // 2
    piles = (Box(px, band_y, pw, ph), Box(px + pw + g, band_y, pw, ph))
    count1 = Placed(Box(px - g - c.count_w, band_y + ph - c.nh, c.count_w, c.nh), 0)
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
        card_w=c.s.cw,
        card_h=c.s.ch,
        pile_w=pw,
        pile_h=ph,
        players=players,
        piles=piles,
        pile_rotations=(0, 180),
        pile_counts=(count1, _facing(count1, table)),
        messages=(msg1, _facing(msg1, table)),
        banners=(msg1, _facing(msg1, table)),
        scores=(score1, _facing(score1, table)),
        races=races,
    )


def _facing(near: Placed, table: Box) -> Placed:
    """``near`` turned 180° about the table's centre, for the facing player to read."""
    return Placed(near.box.turned(table), 180)


# -- a player's half ----------------------------------------------------------------------


def _four(boxes: Iterable[Box]) -> tuple[Box, Box, Box, Box]:
    items = tuple(boxes)
    return (items[0], items[1], items[2], items[3])


def _player(
    s: Sizes,
    region: Box,
    x: int,
    row_y: int,
    *,
    deck: Box,
    deck_count: Box,
    label: Box,
    cards_left: Box,
    stuck: Box,
    message: Box,
    panel: Box,
) -> PlayerGeometry:
    """Player 1's half, upright on screen: its row of four slots from (``x``, ``row_y``)
    with their selection frames, and the other boxes as given."""
    slots = tuple(Box(x + i * (s.cw + s.g), row_y, s.cw, s.ch) for i in range(4))
    return PlayerGeometry(
        rotation=0,
        region=region,
        slots=_four(slots),
        highlights=_four(b.inflate(s.hl) for b in slots),
        deck=deck,
        deck_count=deck_count,
        label=label,
        cards_left=cards_left,
        stuck=stuck,
        message=message,
        panel=panel,
    )


def _placed(
    p: PlayerGeometry, rotation: int, region: Box, place: Callable[[Box], Box]
) -> PlayerGeometry:
    """Player ``p``'s half put elsewhere: the other player's. Its ``rotation`` and
    ``region`` as given, each of its boxes where ``place`` puts ``p``'s."""
    return PlayerGeometry(
        rotation=rotation,
        region=region,
        slots=_four(place(b) for b in p.slots),
        highlights=_four(place(b) for b in p.highlights),
        deck=place(p.deck),
        deck_count=place(p.deck_count),
        label=place(p.label),
        cards_left=place(p.cards_left),
        stuck=place(p.stuck),
        message=place(p.message),
        panel=place(p.panel),
    )
