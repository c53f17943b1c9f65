"""The table: the felt background, and the play screen's items (each player's name, cards
left, deck, slots, selection and STUCK badge and messages; the piles and their counts; the
match score; the race moments; the countdown; the cards in flight), as the view and the
running animations show them.

The attract screen draws this table under its banner (:mod:`cabinet.drawing.screens`).
"""

from __future__ import annotations

import pygame

from cabinet.drawing.animation import AnimationFrame
from cabinet.drawing.arrangement import PlayerGeometry
from cabinet.drawing.box import Box
from cabinet.drawing.geometry import Orientation, TableGeometry
from cabinet.drawing.painter import AMBER, GREY, WHITE, YELLOW, DrawItem, Look, Painter
from cabinet.drawing.text import Colour
from cabinet.drawing.views import PlayerTable, TableView
from game.cards import Card

FELT_TOP: Colour = (14, 96, 62)
FELT_BOTTOM: Colour = (6, 58, 38)
STRIP: Colour = (12, 16, 14)


def paint_background(g: TableGeometry, *, mats: bool) -> pygame.Surface:
    """Felt, with (``mats``) a darker mat under each player's cards and a lighter one
    under the piles. Each mat is blended from a surface of its own size, so painting the
    felt never holds a second screenful of pixels."""
    screen = pygame.display.get_surface()
    # In the screen's own format from the start: a convert() would hold two screenfuls.
    size = (g.width, g.height)
    surface = pygame.Surface(size, 0, screen) if screen else pygame.Surface(size)
    table = g.table
    for y in range(table.h):
        u = y / max(1, table.h - 1)
        colour = tuple(round(a + (b - a) * u) for a, b in zip(FELT_TOP, FELT_BOTTOM, strict=True))
        pygame.draw.line(surface, colour, (table.x, table.y + y), (table.right - 1, table.y + y))
    pad = max(4, g.card_w // 8)
    radius = max(6, g.card_w // 6)
    if mats:
        for p in g.players:
            _mat(surface, p.panel.inflate(pad), radius, (0, 0, 0, 45), None)
        piles = g.piles[0].union(g.piles[1]).inflate(pad)
        _mat(surface, piles, radius, (255, 255, 255, 28), (255, 255, 255, 60))
    if g.lights is not None:
        pygame.draw.rect(surface, STRIP, g.lights.as_tuple())
    return surface


def _mat(
    surface: pygame.Surface,
    area: Box,
    radius: int,
    fill: tuple[int, int, int, int],
    ring: tuple[int, int, int, int] | None,
) -> None:
    mat = pygame.Surface((area.w, area.h), pygame.SRCALPHA)
    pygame.draw.rect(mat, fill, mat.get_rect(), border_radius=radius)
    if ring is not None:
        pygame.draw.rect(mat, ring, mat.get_rect(), 2, border_radius=radius)
    surface.blit(mat, (area.x, area.y))


def paint_table(painter: Painter, view: TableView, frame: AnimationFrame) -> None:
    """The table of ``view``, with the cards ``frame`` has in motion (and the slots and
    piles it keeps showing until they land) and its labels on the message lines."""
    g = painter.geometry
    labels = dict(frame.labels)
    for p, (pg, pv) in enumerate(zip(g.players, view.players, strict=True)):
        _paint_half(painter, view, frame, p, pg, pv, labels.get(p, pv.warning))
    for i in (0, 1):
        card = frame.piles[i] if i in frame.piles else view.pile_tops[i]
        painter.add_card("pile", None, i, card, g.piles[i], g.pile_rotations[i])
        placed = g.pile_counts[i]
        text = str(view.pile_sizes[i])
        painter.add_text("pile_count", text, placed.box, placed.rotation, GREY, index=i)
    _paint_centre_text(painter, view)
    for sprite in frame.sprites:
        item = DrawItem(
            "sprite", sprite.box, sprite.player, card=sprite.card, rotation=sprite.rotation
        )
        painter.add(item, sprite_look(painter, g, sprite.card, sprite.box, sprite.rotation))


def _paint_half(
    painter: Painter,
    view: TableView,
    frame: AnimationFrame,
    p: int,
    pg: PlayerGeometry,
    pv: PlayerTable,
    message: str | None,
) -> None:
    """Player ``p``'s half: name, cards left, deck and its count, the slots (as ``frame``
    shows them) with the selection, the STUCK badge and ``message``."""
    g = painter.geometry
    rot = pg.rotation
    painter.add_text("label", pv.label, pg.label, rot, WHITE, player=p, align="left")
    if pv.cards_left:
        # Upright the cards left end the name line; in cocktail they follow the deck.
        align = "right" if g.orientation is Orientation.UPRIGHT else "left"
        painter.add_text(
            "cards_left", pv.cards_left, pg.cards_left, rot, WHITE, player=p, align=align
        )
    deck_look = (
        painter.back_look(g.card_w, g.card_h, rot)
        if pv.deck_size
        else painter.card_look(None, g.card_w, g.card_h, rot)
    )
    count = str(pv.deck_size)
    painter.add(DrawItem("deck", pg.deck, p, text=count, rotation=rot), deck_look)
    painter.add_text("deck_count", count, pg.deck_count, rot, GREY, player=p)
    for s in range(4):
        if pv.selected == s:
            box = pg.highlights[s]
            painter.add(DrawItem("highlight", box, p, s, rotation=rot), painter.frame_look(box))
        key = (p, s)
        card = frame.slots[key] if key in frame.slots else pv.layout[s]
        painter.add_card("slot", p, s, card, pg.slots[s], rot)
    if pv.stuck:
        badge = painter.badge(view.stuck_text, pg.stuck, rot)
        painter.add(DrawItem("stuck", pg.stuck, p, text=view.stuck_text, rotation=rot), badge)
    if message:
        painter.add_text("message", message, pg.message, rot, AMBER, player=p)


def _paint_centre_text(painter: Painter, view: TableView) -> None:
    """The match score, the countdown and the race moments (where the countdown is not)."""
    g = painter.geometry
    if view.score:
        for i, placed in enumerate(g.scores):
            painter.add_text("score", view.score, placed.box, placed.rotation, WHITE, index=i)
    if view.countdown:
        for i, placed in enumerate(g.messages):
            # As tall as a third of a card at most, however big the box.
            fill = min(0.75, g.card_h * 0.34 / max(1, placed.box.h))
            painter.add_text(
                "countdown", view.countdown, placed.box, placed.rotation, YELLOW, index=i,
                fill=fill,
            )  # fmt: skip
    for race in view.races:
        for placed in g.races[race.pile]:
            if view.countdown and any(placed.box.intersects(m.box) for m in g.messages):
                continue  # the countdown wins the shared box
            painter.add_callout(
                "race", race.text, placed.box, placed.rotation, YELLOW, index=race.pile,
                font_px=round(g.card_h * 0.18),
            )  # fmt: skip


def sprite_look(painter: Painter, g: TableGeometry, card: Card, box: Box, rotation: int) -> Look:
    """A moving card's face: a slot's or a pile's face as drawn at those sizes, and for
    any size between (a card growing on its way to a pile) the pile's, scaled to the box
    as it is drawn."""
    if (box.w, box.h) == (g.card_w, g.card_h):
        return painter.card_look(card, g.card_w, g.card_h, rotation)
    return painter.card_look(card, g.pile_w, g.pile_h, rotation)
