"""Where everything goes on screen, for any resolution and aspect: pure arithmetic, no pygame.

All lengths are integer pixels; a :class:`Box` is ``(x, y, w, h)`` with ``(0, 0)`` the
screen's top-left corner. Card size follows the screen: the card width is the largest that
fits the orientation's arrangement (about 1/13 of the width upright, 1/4.75 of the height in
cocktail), and a card is 1.4 times as tall as it is wide, like a real one.

Two orientations (see docs/display.md):

* **upright**: players side by side, both halves upright; player 1 on the left, player 2
  on the right, the two piles between them, pile 1 on the left.
* **cocktail**: players face to face across the screen; player 1 at the bottom, player 2 at
  the top with their whole half turned 180° toward them. Pile 1 is on player 1's left, so
  pile 2 is on player 2's left.

Each player's half is laid out once, in that player's own frame (as they see it), then
placed on screen: translated for upright, turned 180° about the screen's table area for
cocktail. Player 2's boxes are therefore exact images of player 1's.

Players, slots and piles are 0-based, as in :mod:`game.engine`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

#: A card is this many times as tall as it is wide (a poker card is 88.9 × 63.5 mm).
CARD_ASPECT = 1.4

#: The smallest screen the layout is made for, in pixels.
MIN_WIDTH = 320
MIN_HEIGHT = 240

#: The lights on the strip, in :data:`firmware_bridge.lights.LIGHT_NAMES` order, grouped:
#: each player's STUCK light and six buttons, and the SPIT light between them.
LIGHTS_COUNT = 15


class GeometryError(ValueError):
    """A layout was asked for something it cannot lay out."""


class ScreenTooSmallError(GeometryError):
    """The screen (or window) is smaller than the layout can use."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__(
            f"a {width}×{height} screen is too small for the table: the display needs at"
            f" least {MIN_WIDTH}×{MIN_HEIGHT} pixels"
        )


class Orientation(enum.Enum):
    """How the two players face the screen."""

    UPRIGHT = "upright"
    """Side by side in front of an upright screen."""
    COCKTAIL = "cocktail"
    """Face to face across a screen laid flat in a table."""

    @classmethod
    def parse(cls, text: str) -> Orientation:
        """Read ``"upright"`` or ``"cocktail"`` (any case)."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise GeometryError(f"orientation {text!r} is not one of: upright, cocktail") from None


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle in pixels: left ``x``, top ``y``, width ``w``, height ``h``."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    @property
    def area(self) -> int:
        return self.w * self.h

    def intersects(self, other: Box) -> bool:
        """Whether the two boxes share any pixel (touching edges do not)."""
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def contains(self, other: Box) -> bool:
        """Whether ``other`` lies wholly inside this box."""
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def inflate(self, by: int) -> Box:
        """This box grown by ``by`` pixels on every side (shrunk when negative)."""
        return Box(self.x - by, self.y - by, self.w + 2 * by, self.h + 2 * by)

    def union(self, other: Box) -> Box:
        x = min(self.x, other.x)
        y = min(self.y, other.y)
        return Box(x, y, max(self.right, other.right) - x, max(self.bottom, other.bottom) - y)

    def lerp(self, other: Box, u: float) -> Box:
        """The box ``u`` of the way (0..1, or beyond for overshoot) from this one to ``other``."""
        return Box(
            round(self.x + (other.x - self.x) * u),
            round(self.y + (other.y - self.y) * u),
            round(self.w + (other.w - self.w) * u),
            round(self.h + (other.h - self.h) * u),
        )

    def turned(self, area: Box) -> Box:
        """This box turned 180° about the centre of ``area`` (exact in integers)."""
        return Box(
            2 * area.x + area.w - self.right, 2 * area.y + area.h - self.bottom, self.w, self.h
        )

    def moved(self, dx: int, dy: int) -> Box:
        return Box(self.x + dx, self.y + dy, self.w, self.h)

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.w, self.h)


@dataclass(frozen=True, slots=True)
class Placed:
    """A box for text or a panel, with the rotation (degrees, 0 or 180) its content is
    drawn at so that the player it is meant for reads it upright."""

    box: Box
    rotation: int


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
class TableGeometry:
    """Every box of one screen size and orientation. Build it with :func:`table_geometry`."""

    width: int
    height: int
    orientation: Orientation
    card_w: int
    card_h: int
    players: tuple[PlayerGeometry, PlayerGeometry]
    piles: tuple[Box, Box]
    pile_rotations: tuple[int, int]
    """Pile 2 faces player 2 in cocktail; every index is drawn in two opposite corners, so
    each card reads from both sides anyway."""
    pile_counts: tuple[Placed, Placed]
    messages: tuple[Placed, ...]
    """Shared messages (the "ready… spit!" countdown): one upright, one per player in
    cocktail."""
    banners: tuple[Placed, ...]
    """Shared text (attract prompt and how-to card, winner, match score), placed like
    :attr:`messages`."""
    table: Box
    """The screen without the lights strip."""
    lights: Box | None
    """The on-screen lights strip, when asked for."""
    light_spots: tuple[Box, ...]
    """One square per light, in ``LIGHT_NAMES`` order (empty without a strip)."""

    @property
    def screen(self) -> Box:
        return Box(0, 0, self.width, self.height)

    def card_boxes(self) -> list[Box]:
        """Every box a card may rest in: slots, decks and piles."""
        boxes = [b for p in self.players for b in (*p.slots, p.deck)]
        boxes.extend(self.piles)
        return boxes


def table_geometry(
    width: int, height: int, orientation: Orientation, *, lights_strip: bool = False
) -> TableGeometry:
    """The layout for a ``width`` × ``height`` pixel screen.

    ``lights_strip`` reserves a strip for the on-screen lights (along the bottom upright,
    along the right edge in cocktail). Raises :class:`ScreenTooSmallError` below
    :data:`MIN_WIDTH` × :data:`MIN_HEIGHT`.
    """
    if not isinstance(width, int) or not isinstance(height, int):
        raise GeometryError(f"screen size must be whole pixels, got {width!r}×{height!r}")
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        raise ScreenTooSmallError(width, height)
    if orientation is Orientation.UPRIGHT:
        strip = Box(0, height - max(16, round(height * 0.07)), width, 0) if lights_strip else None
        if strip is not None:
            strip = Box(0, strip.y, width, height - strip.y)
        table = Box(0, 0, width, strip.y if strip else height)
        geometry = _upright(width, height, table)
    else:
        strip = None
        if lights_strip:
            sw = max(16, round(width * 0.05))
            strip = Box(width - sw, 0, sw, height)
        table = Box(0, 0, strip.x if strip else width, height)
        geometry = _cocktail(width, height, table)
    spots = _light_spots(strip, geometry, orientation) if strip else ()
    return TableGeometry(
        width=width,
        height=height,
        orientation=orientation,
        card_w=geometry.card_w,
        card_h=geometry.card_h,
        players=geometry.players,
        piles=geometry.piles,
        pile_rotations=geometry.pile_rotations,
        pile_counts=geometry.pile_counts,
        messages=geometry.messages,
        banners=geometry.banners,
        table=table,
        lights=strip,
        light_spots=spots,
    )


@dataclass(frozen=True, slots=True)
class _Table:
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


def _upright(width: int, height: int, table: Box) -> _Table:
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
    return _Table(
        card_w=cw,
        card_h=ch,
        players=(p1, p2),
        piles=piles,
        pile_rotations=(0, 0),
        pile_counts=(counts[0], counts[1]),
        messages=(msg,),
        banners=(banner,),
    )


def _cocktail(width: int, height: int, table: Box) -> _Table:
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
    return _Table(
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


def _light_spots(strip: Box, table: _Table, orientation: Orientation) -> tuple[Box, ...]:
    """15 squares: player 1's STUCK and six buttons near player 1, SPIT in the middle,
    player 2's near player 2; returned in LIGHT_NAMES order (stuck1, stuck2, spit, p1
    buttons, p2 buttons)."""
    if orientation is Orientation.UPRIGHT:
        size = max(6, min(strip.h * 6 // 10, strip.w // 30))
        step = size + max(2, size // 2)
        cy = strip.y + (strip.h - size) // 2

        def row(centre_x: float) -> list[Box]:
            left = round(centre_x - (7 * step - (step - size)) / 2)
            return [Box(left + i * step, cy, size, size) for i in range(7)]

        g1 = row(table.players[0].label.center[0])
        g2 = row(table.players[1].label.center[0])
        spit = Box(strip.x + (strip.w - size) // 2, cy, size, size)
    else:
        size = max(6, min(strip.w * 6 // 10, strip.h // 30))
        step = size + max(2, size // 2)
        cx = strip.x + (strip.w - size) // 2
        # Player 1 sits at the bottom: their group reads bottom-up from the near edge.
        bottom = strip.bottom - step
        g1 = [Box(cx, bottom - i * step, size, size) for i in range(7)]
        g2 = [Box(cx, strip.y + step + i * step, size, size) for i in range(7)]
        spit = Box(cx, strip.y + (strip.h - size) // 2, size, size)
    # Group order: STUCK first, then slot 1-4, pile 1, pile 2.
    return (g1[0], g2[0], spit, *g1[1:], *g2[1:])
