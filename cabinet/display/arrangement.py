"""How each orientation arranges the table: the card size for the screen, each player's
half laid out in that player's own frame, and the piles and shared text between the halves.
Pure arithmetic, no pygame.

* :func:`upright`: players side by side; player 2's half is player 1's moved sideways.
* :func:`cocktail`: players face to face; player 2's half is player 1's turned 180° about
  the table's centre.

:func:`cabinet.display.geometry.table_geometry` picks the arrangement for the orientation
and adds the lights strip; lengths are integer pixels, as in :mod:`cabinet.display.box`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cabinet.display.box import Box, Placed

#: A card is this many times as tall as it is wide (a poker card is 88.9 × 63.5 mm).
CARD_ASPECT = 1.4


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
    players: tuple[PlayerGeometry, PlayerGeometry]
    piles: tuple[Box, Box]
    pile_rotations: tuple[int, int]
    pile_counts: tuple[Placed, Placed]
    messages: tuple[Placed, ...]
    banners: tuple[Placed, ...]


def _card_size(card_w: float) -> tuple[int, int, int]:
    """(card width, card height, gap) in pixels for a wanted card width."""
    cw = max(8, int(card_w))
    return cw, round(cw * CARD_ASPECT), max(2, round(cw * 0.12))


def upright(width: int, height: int, table: Box) -> Arrangement:
    """Players side by side: [P1 row] [pile 1 pile 2] [P2 row], then decks under the rows."""
    th = table.h
    cw, ch, g = _card_size(min(width / 13.2, th / (CARD_ASPECT * 3.6)))
    row_w = 4 * cw + 3 * g
    centre_w = 2 * cw + g
    free = width - 2 * row_w - centre_w
    margin = free // 5
    sep = (free - 2 * margin) // 2
    lh = max(10, round(ch * 0.3))  # name line
    mh = max(10, round(ch * 0.26))  # message line
    block = lh + g + mh + g + ch + 3 * g + ch
    y0 = table.y + max(g, (th - block) // 5)
    row_y = y0 + lh + g + mh + g
    deck_y = row_y + ch + 3 * g
    x1 = table.x + margin
    slots = tuple(Box(x1 + i * (cw + g), row_y, cw, ch) for i in range(4))
    deck = Box(x1, deck_y, cw, ch)
    deck_count = Box(x1 + cw + g, deck_y + (ch - lh) // 2, cw, lh)
    badge_h = max(10, round(ch * 0.34))
    stuck = Box(x1 + 2 * (cw + g), deck_y + (ch - badge_h) // 2, 2 * cw + g, badge_h)
    label = Box(x1, y0, row_w, lh)
    message = Box(x1, y0 + lh + g, row_w, mh)
    panel = Box(x1, y0, row_w, deck_y + ch - y0)
    region = Box(table.x, table.y, x1 + row_w + sep // 2 - table.x, th)
    p1 = _player(0, region, slots, deck, deck_count, label, stuck, message, panel, g)
    px = x1 + row_w + sep
    dx = px + centre_w + sep - x1
    p2 = PlayerGeometry(
        rotation=0,
        region=Box(table.right - region.w, table.y, region.w, th),
        slots=_four(b.moved(dx, 0) for b in p1.slots),
        highlights=_four(b.moved(dx, 0) for b in p1.highlights),
        deck=p1.deck.moved(dx, 0),
        deck_count=p1.deck_count.moved(dx, 0),
        label=p1.label.moved(dx, 0),
        stuck=p1.stuck.moved(dx, 0),
        message=p1.message.moved(dx, 0),
        panel=p1.panel.moved(dx, 0),
    )
    piles = (Box(px, row_y, cw, ch), Box(px + cw + g, row_y, cw, ch))
    count_h = max(10, round(ch * 0.18))
    counts = tuple(Placed(Box(p.x, p.bottom + g, cw, count_h), 0) for p in piles)
    msg = Placed(Box(px - sep // 2, y0, centre_w + sep - sep % 2, lh + g + mh), 0)
    banner_y = deck_y + ch + 2 * g
    banner = Placed(Box(x1, banner_y, width - 2 * margin, max(1, table.bottom - g - banner_y)), 0)
    return Arrangement(
        card_w=cw,
        card_h=ch,
        players=(p1, p2),
        piles=piles,
        pile_rotations=(0, 0),
        pile_counts=(counts[0], counts[1]),
        messages=(msg,),
        banners=(banner,),
    )


def cocktail(width: int, height: int, table: Box) -> Arrangement:
    """Face to face. Player 1's half, in their own frame from the near edge inward: name
    line, then the row of four slots with the deck on its right, then a message line.
    The piles sit on the centre line; player 2's half is player 1's turned 180°."""
    tw, th = table.w, table.h
    cw, ch, g = _card_size(min(tw / 6.9, th / (CARD_ASPECT * 4.75)))
    lh = max(10, round(ch * 0.22))
    mh = max(10, round(ch * 0.2))
    row_w = 4 * cw + 3 * g
    group_w = row_w + 2 * g + cw
    x1 = table.x + (tw - group_w) // 2
    # Vertical: [margin][P2 half][pile band][P1 half][margin], P1 half = msg, row, name.
    half_h = mh + g + ch + g + lh
    band_h = ch
    spare = th - 2 * half_h - band_h
    margin = max(1, spare // 4)
    gap = (spare - 2 * margin) // 2
    p1_top = table.bottom - margin - half_h
    message = Box(x1, p1_top, row_w, mh)
    row_y = p1_top + mh + g
    slots = tuple(Box(x1 + i * (cw + g), row_y, cw, ch) for i in range(4))
    deck = Box(x1 + row_w + 2 * g, row_y, cw, ch)
    name_y = row_y + ch + g
    label = Box(x1, name_y, 2 * cw + g, lh)
    stuck = Box(x1 + 2 * (cw + g), name_y, 2 * cw + g, lh)
    deck_count = Box(deck.x, name_y, cw, lh)
    region_top = table.y + th // 2 + ch // 2
    region = Box(table.x, region_top, tw, table.bottom - region_top)
    panel = Box(x1, p1_top, group_w, half_h)
    p1 = _player(0, region, slots, deck, deck_count, label, stuck, message, panel, g)
    p2 = _turned(p1, table)
    band_y = p1_top - gap - band_h
    px = table.x + (tw - (2 * cw + g)) // 2
    piles = (Box(px, band_y, cw, ch), Box(px + cw + g, band_y, cw, ch))
    count_w = max(cw // 2, 3 * lh // 2)
    count1 = Placed(Box(piles[0].x - g - count_w, band_y + ch - lh, count_w, lh), 0)
    count2 = Placed(count1.box.turned(table), 180)
    side_x = table.x + g
    side_w = count1.box.x - g - side_x
    msg1 = Placed(Box(side_x, band_y, max(1, side_w), ch), 0)
    msg2 = Placed(msg1.box.turned(table), 180)
    return Arrangement(
        card_w=cw,
        card_h=ch,
        players=(p1, p2),
        piles=piles,
        pile_rotations=(0, 180),
        pile_counts=(count1, count2),
        messages=(msg1, msg2),
        banners=(msg1, msg2),
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
        stuck=p.stuck.turned(table),
        message=p.message.turned(table),
        panel=p.panel.turned(table),
    )
