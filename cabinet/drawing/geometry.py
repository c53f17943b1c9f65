"""Where everything goes on screen, for any resolution and aspect: pure arithmetic, no pygame.

:func:`table_geometry` is the entry point: it splits the screen into the table area and
the optional lights strip, has :mod:`cabinet.drawing.arrangement` lay the table out for
the :class:`Orientation`, places the strip's light spots and returns every box in one
:class:`TableGeometry`.

All lengths are integer pixels; a :class:`~cabinet.drawing.box.Box` is ``(x, y, w, h)``
with ``(0, 0)`` the screen's top-left corner. Card size follows the screen: the card width
is the largest that fits the orientation's arrangement (about 1/11.7 of the width upright,
where the two rows of four slots and the piles share the width; about 1/6.4 of the height
in cocktail, where two halves and the pile band share the height), and a card is 1.4
times as tall as it is wide, like a real one. The two centre piles are larger: at least
1.3 times the layout cards' width (:data:`~cabinet.drawing.arrangement.PILE_SCALE`).

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
from dataclasses import dataclass

from cabinet.drawing.arrangement import Arrangement, PlayerGeometry, cocktail, upright
from cabinet.drawing.box import Box, Placed

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
class TableGeometry:
    """Every box of one screen size and orientation. Build it with :func:`table_geometry`."""

    width: int
    height: int
    orientation: Orientation
    card_w: int
    card_h: int
    """The size of a layout card and a deck."""
    pile_w: int
    pile_h: int
    """The size of a centre pile's card: the largest on the screen."""
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
    :attr:`messages` in cocktail; the centre between the players upright."""
    scores: tuple[Placed, ...]
    """The match score during play: above the piles upright, one beside the piles for
    each player in cocktail."""
    races: tuple[tuple[Placed, ...], tuple[Placed, ...]]
    """Per pile, where a close race's moment is written: under the pile upright, beside
    it once for each player (in their reading direction) in cocktail."""
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
        """Every box a card may rest in: slots, decks and piles (the piles are larger)."""
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
        geometry = upright(width, height, table)
    else:
        strip = None
        if lights_strip:
            sw = max(16, round(width * 0.05))
            strip = Box(width - sw, 0, sw, height)
        table = Box(0, 0, strip.x if strip else width, height)
        geometry = cocktail(width, height, table)
    spots = _light_spots(strip, geometry, orientation) if strip else ()
    return TableGeometry(
        width=width,
        height=height,
        orientation=orientation,
        card_w=geometry.card_w,
        card_h=geometry.card_h,
        pile_w=geometry.pile_w,
        pile_h=geometry.pile_h,
        players=geometry.players,
        piles=geometry.piles,
        pile_rotations=geometry.pile_rotations,
        pile_counts=geometry.pile_counts,
        messages=geometry.messages,
        banners=geometry.banners,
        scores=geometry.scores,
        races=geometry.races,
        table=table,
        lights=strip,
        light_spots=spots,
    )


def _light_spots(strip: Box, table: Arrangement, orientation: Orientation) -> tuple[Box, ...]:
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

        g1 = row(table.players[0].panel.center[0])
        g2 = row(table.players[1].panel.center[0])
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
