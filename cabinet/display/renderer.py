"""Draws each screen from its view and the running animations, repainting only what changed.

Each frame the renderer turns the view into a *display list*: one :class:`DrawItem` per
thing on screen (a card in a slot, a label, a light…), in painting order, each with the
rectangle it covers. It compares the list with the previous frame's; the rectangles of
items that appeared, vanished or changed are *dirty*: there it restores the cached
background and repaints every item that overlaps, in order. :meth:`Renderer.draw` returns
those rectangles for ``pygame.display.update(rects)``; a frame where nothing changed
paints nothing and returns ``[]``.

Tests read :attr:`Renderer.display_list` to check what is shown (the right cards in the
right places) without comparing pixels.

The renderer never waits or reads a clock: the caller passes ``now_ns`` (the match clock,
the same one the events' ``t_ns`` are on) and may sleep until :attr:`Renderer.wake_ns`,
the time the screen next changes by itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pygame

from cabinet.display.animation import AnimationFrame, Animator, Timings
from cabinet.display.cards import CardArt
from cabinet.display.geometry import Box, Orientation, TableGeometry, table_geometry
from cabinet.display.lights_strip import light_colour
from cabinet.display.text import Colour, TextCache
from cabinet.display.views import (
    AttractView,
    GameOverView,
    JoinView,
    TableView,
    View,
)
from firmware_bridge.lights import LightState
from game.cards import ALL_CARDS, Card
from game.events import Event
from game.rules import MS

WHITE: Colour = (245, 245, 240)
GREY: Colour = (170, 180, 175)
YELLOW: Colour = (255, 214, 0)
AMBER: Colour = (255, 170, 40)
GREEN: Colour = (80, 220, 120)
STUCK_RED: Colour = (205, 30, 40)
FELT_TOP: Colour = (14, 96, 62)
FELT_BOTTOM: Colour = (6, 58, 38)
STRIP: Colour = (12, 16, 14)

#: The attract prompt blinks: on for this long of every second (ns).
PROMPT_ON_NS = 600 * MS
PROMPT_PERIOD_NS = 1000 * MS

#: When the dirty area passes this fraction of the screen, one full repaint is cheaper.
FULL_REPAINT_FRACTION = 0.5


@dataclass(frozen=True, slots=True)
class DrawItem:
    """One thing drawn in a frame.

    ``kind`` is one of: ``slot`` (player, index = slot, card or ``None`` for empty),
    ``highlight`` (player, index = selected slot), ``deck`` (player, text = cards in it),
    ``deck_count``, ``label``, ``stuck``, ``message`` (player, text), ``pile`` (index =
    pile, card), ``pile_count`` (index, text), ``countdown`` (text), ``sprite`` (a moving
    card: player, card), ``banner``, ``prompt``, ``howto``, ``headline``, ``match``,
    ``footer`` (text), ``panel`` (player; a panel's background), ``title``, ``status``,
    ``line`` (player, text), ``light`` (index in ``LIGHT_NAMES`` order, style = colour).
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


_Paint = tuple[DrawItem, pygame.Surface]


class Renderer:
    """Draws the cabinet's screens onto ``surface``.

    ``orientation`` is upright or cocktail (see :mod:`cabinet.display.geometry`);
    ``font_path`` a TTF file, or ``None`` for pygame's default font. ``lights_strip``
    reserves a strip for the on-screen lights (when no LED board is connected).
    ``beaten_text(margin_ns)`` formats the "beaten by 12.3 ms" label, translated.
    ``warm`` draws all 52 card faces at once instead of on first use (about 0.2 s), so
    no frame in play pays for it.
    """

    def __init__(
        self,
        surface: pygame.Surface,
        orientation: Orientation,
        font_path: str | Path | None = None,
        *,
        lights_strip: bool = False,
        beaten_text: Callable[[int], str] | None = None,
        timings: Timings | None = None,
        warm: bool = True,
    ) -> None:
        self.orientation = orientation
        self.lights_strip = lights_strip
        self.text = TextCache(font_path)
        self.art = CardArt(self.text)
        self._beaten_text = beaten_text
        self._timings = timings
        self._warm = warm
        self._shapes: dict[tuple[object, ...], pygame.Surface] = {}
        self.surface = surface
        self._set_up(surface)

    # -- set-up ---------------------------------------------------------------------------

    def _set_up(self, surface: pygame.Surface) -> None:
        self.surface = surface
        width, height = surface.get_size()
        self.geometry: TableGeometry = table_geometry(
            width, height, self.orientation, lights_strip=self.lights_strip
        )
        self.animator = Animator(
            self.geometry, beaten_text=self._beaten_text, timings=self._timings
        )
        self._backgrounds = {
            True: self._paint_background(mats=True),
            False: self._paint_background(mats=False),
        }
        self._background = self._backgrounds[True]
        # In cocktail the attract text sits where the countdown goes: the text wins.
        self._banners_hide_messages = any(
            b.box.intersects(m.box) for b in self.geometry.banners for m in self.geometry.messages
        )
        self._last: list[DrawItem] = []
        self._last_set: set[DrawItem] = set()
        self._full = True
        self.wake_ns: int | None = None
        """When the screen next changes by itself (animation, blinking), on the caller's
        clock; ``None`` when it will not change until the view does."""
        if self._warm:
            self.warm()

    def resize(self, surface: pygame.Surface) -> None:
        """Draw onto a new surface (a resized window): new layout, animations dropped."""
        self._set_up(surface)

    def invalidate(self) -> None:
        """Repaint the whole screen on the next frame (e.g. after something else drew)."""
        self._full = True

    def warm(self) -> None:
        """Draw every card face, the back and the empty outline at this layout's size."""
        g = self.geometry
        rotations = {0, *(p.rotation for p in g.players), *g.pile_rotations}
        for rotation in sorted(rotations):
            for card in ALL_CARDS:
                self.art.face(card, g.card_w, g.card_h, rotation)
            self.art.back(g.card_w, g.card_h, rotation)
            self.art.empty(g.card_w, g.card_h, rotation)

    # -- events ---------------------------------------------------------------------------

    def feed(self, events: Iterable[Event]) -> None:
        """Hand over the events the referee decided, in order (attract and play)."""
        self.animator.feed(events)

    def reset_animations(self) -> None:
        """Drop every motion (call when a new game starts or the screen changes)."""
        self.animator.clear()

    @property
    def display_list(self) -> tuple[DrawItem, ...]:
        """What the last frame showed, in painting order."""
        return tuple(self._last)

    # -- frames ---------------------------------------------------------------------------

    def draw(self, view: View, now_ns: int) -> list[pygame.Rect]:
        """Draw ``view`` as it looks at ``now_ns``; returns the rectangles repainted."""
        self.wake_ns = None
        paints: list[_Paint] = []
        if isinstance(view, TableView):
            self._table(paints, view, now_ns)
        elif isinstance(view, AttractView):
            table = view.table
            if self._banners_hide_messages and table.countdown is not None:
                table = dataclasses.replace(table, countdown=None)
            self._table(paints, table, now_ns)
            self._attract(paints, view, now_ns)
        elif isinstance(view, JoinView):
            self._join(paints, view)
        elif isinstance(view, GameOverView):
            self._game_over(paints, view)
        else:
            raise TypeError(f"the renderer cannot draw {type(view).__name__}")
        self._lights(paints, view.lights, now_ns)
        background = self._backgrounds[isinstance(view, TableView | AttractView)]
        if background is not self._background:
            self._background = background
            self._full = True
        return self._present(paints)

    def _wake(self, at_ns: int | None) -> None:
        if at_ns is not None and (self.wake_ns is None or at_ns < self.wake_ns):
            self.wake_ns = at_ns

    # -- screens --------------------------------------------------------------------------

    def _table(self, paints: list[_Paint], view: TableView, now_ns: int) -> None:
        g = self.geometry
        layouts = (view.players[0].layout, view.players[1].layout)
        frame: AnimationFrame = self.animator.frame(now_ns, layouts)
        self._wake(frame.next_change_ns)
        labels = dict(frame.labels)
        for p, (pg, pv) in enumerate(zip(g.players, view.players, strict=True)):
            rot = pg.rotation
            self._text(paints, "label", pv.label, pg.label, rot, WHITE, player=p, align="left")
            deck_surface = (
                self.art.back(g.card_w, g.card_h, rot)
                if pv.deck_size
                else self.art.empty(g.card_w, g.card_h, rot)
            )
            count = str(pv.deck_size)
            paints.append((DrawItem("deck", pg.deck, p, text=count, rotation=rot), deck_surface))
            self._text(paints, "deck_count", count, pg.deck_count, rot, GREY, player=p)
            for s in range(4):
                if pv.selected == s:
                    box = pg.highlights[s]
                    paints.append(
                        (DrawItem("highlight", box, p, s, rotation=rot), self._frame_surface(box))
                    )
                key = (p, s)
                card = frame.slots[key] if key in frame.slots else pv.layout[s]
                self._card(paints, "slot", p, s, card, pg.slots[s], rot)
            if pv.stuck:
                badge = self._badge(view.stuck_text, pg.stuck, rot)
                paints.append(
                    (DrawItem("stuck", pg.stuck, p, text=view.stuck_text, rotation=rot), badge)
                )
            message = labels.get(p, pv.warning)
            if message:
                self._text(paints, "message", message, pg.message, rot, AMBER, player=p)
        for i in (0, 1):
            card = frame.piles[i] if i in frame.piles else view.pile_tops[i]
            self._card(paints, "pile", None, i, card, g.piles[i], g.pile_rotations[i])
            placed = g.pile_counts[i]
            text = str(view.pile_sizes[i])
            self._text(paints, "pile_count", text, placed.box, placed.rotation, GREY, index=i)
        if view.countdown:
            for i, placed in enumerate(g.messages):
                # As tall as a third of a card at most, however big the box.
                fill = min(0.75, g.card_h * 0.34 / max(1, placed.box.h))
                self._text(
                    paints, "countdown", view.countdown, placed.box, placed.rotation, YELLOW,
                    index=i, fill=fill,
                )  # fmt: skip
        for sprite in frame.sprites:
            surface = self.art.face(sprite.card, g.card_w, g.card_h, sprite.rotation)
            item = DrawItem(
                "sprite", sprite.box, sprite.player, card=sprite.card, rotation=sprite.rotation
            )
            paints.append((item, surface))

    def _attract(self, paints: list[_Paint], view: AttractView, now_ns: int) -> None:
        phase = now_ns % PROMPT_PERIOD_NS
        show_prompt = phase < PROMPT_ON_NS
        self._wake(now_ns - phase + (PROMPT_ON_NS if show_prompt else PROMPT_PERIOD_NS))
        for i, placed in enumerate(self.geometry.banners):
            box, rot = placed.box, placed.rotation
            self._panel(paints, "banner", None, box, (0, 0, 0, 150), None, index=i)
            prompt_box = _local(box, 0, 0, box.w, box.h * 36 // 100, rot)
            if show_prompt:
                self._text(paints, "prompt", view.prompt, prompt_box, rot, YELLOW, index=i)
            inner = _local(
                box, box.w // 20, box.h * 38 // 100, box.w * 9 // 10, box.h * 58 // 100, rot
            )
            self._block(paints, "howto", view.howto, inner, rot, WHITE, index=i)

    def _join(self, paints: list[_Paint], view: JoinView) -> None:
        for p, (pg, jp) in enumerate(zip(self.geometry.players, view.players, strict=True)):
            box, rot = pg.panel, pg.rotation
            border = GREEN if jp.joined else GREY
            self._panel(paints, "panel", p, box, (0, 0, 0, 140), border)
            title = _local(box, 0, box.h // 10, box.w, box.h * 3 // 10, rot)
            status = _local(
                box, box.w // 20, box.h * 5 // 10, box.w * 9 // 10, box.h * 2 // 10, rot
            )
            self._text(paints, "title", jp.title, title, rot, WHITE, player=p)
            colour = GREEN if jp.joined else YELLOW
            self._text(paints, "status", jp.status, status, rot, colour, player=p)
        if view.footer:
            for i, placed in enumerate(self.geometry.banners):
                self._text(
                    paints, "footer", view.footer, placed.box, placed.rotation, WHITE,
                    index=i, fill=0.4,
                )  # fmt: skip

    def _game_over(self, paints: list[_Paint], view: GameOverView) -> None:
        for p, (pg, ps) in enumerate(zip(self.geometry.players, view.players, strict=True)):
            box, rot = pg.panel, pg.rotation
            border = YELLOW if ps.winner else GREY
            self._panel(paints, "panel", p, box, (0, 0, 0, 150), border)
            title = _local(box, 0, box.h // 16, box.w, box.h * 2 // 10, rot)
            self._text(
                paints, "title", ps.title, title, rot, YELLOW if ps.winner else WHITE, player=p
            )
            n = max(1, len(ps.lines))
            top = box.h * 3 // 10
            line_h = min(box.h // 8, (box.h - top - box.h // 16) // n)
            for k, line in enumerate(ps.lines):
                lb = _local(box, box.w // 12, top + k * line_h, box.w * 10 // 12, line_h, rot)
                self._text(paints, "line", line, lb, rot, WHITE, player=p, align="left")
        for i, placed in enumerate(self.geometry.banners):
            box, rot = placed.box, placed.rotation
            head_h = box.h * 6 // 10 if view.match_line else box.h
            head = _local(box, 0, 0, box.w, head_h, rot)
            self._text(paints, "headline", view.headline, head, rot, YELLOW, index=i, fill=0.7)
            if view.match_line:
                match = _local(box, 0, head_h, box.w, box.h - head_h, rot)
                self._text(paints, "match", view.match_line, match, rot, WHITE, index=i, fill=0.6)

    def _lights(self, paints: list[_Paint], state: LightState | None, now_ns: int) -> None:
        spots = self.geometry.light_spots
        if not spots:
            return
        lights = state if state is not None else LightState.all_off()
        for i, (spot, light) in enumerate(zip(spots, lights.lights, strict=True)):
            colour, change_ns = light_colour(light, now_ns)
            self._wake(change_ns)
            key = ("light", spot.w, colour)
            surface = self._shapes.get(key)
            if surface is None:
                surface = _light_surface(spot.w, colour)
                self._shapes[key] = surface
            paints.append((DrawItem("light", spot, index=i, style=colour), surface))

    # -- items ----------------------------------------------------------------------------

    def _card(
        self, paints: list[_Paint], kind: str, player: int | None, index: int,
        card: Card | None, box: Box, rotation: int,
    ) -> None:  # fmt: skip
        g = self.geometry
        surface = (
            self.art.face(card, g.card_w, g.card_h, rotation)
            if card is not None
            else self.art.empty(g.card_w, g.card_h, rotation)
        )
        paints.append((DrawItem(kind, box, player, index, card, rotation=rotation), surface))

    def _text(
        self, paints: list[_Paint], kind: str, text: str, box: Box, rotation: int,
        colour: Colour, *, player: int | None = None, index: int | None = None,
        align: str = "center", fill: float = 0.8,
    ) -> None:  # fmt: skip
        size = self.text.fit_size(text, box.w, box.h, fill=fill)
        surface = self.text.render(text, size, colour, rotation)
        w, h = surface.get_size()
        if align == "left":
            x = box.x if rotation == 0 else box.right - w
        else:
            x = box.x + (box.w - w) // 2
        y = box.y + (box.h - h) // 2
        item = DrawItem(kind, Box(x, y, w, h), player, index, text=text, rotation=rotation,
                        style=colour)  # fmt: skip
        paints.append((item, surface))

    def _block(
        self, paints: list[_Paint], kind: str, text: str, box: Box, rotation: int,
        colour: Colour, *, index: int | None = None,
    ) -> None:  # fmt: skip
        """Wrapped lines, top to bottom in the reader's frame."""
        size, lines = self.text.block(text, box)
        line_h = self.text.font(size).get_linesize()
        for k, line in enumerate(lines):
            if not line:
                continue
            surface = self.text.render(line, size, colour, rotation)
            w, h = surface.get_size()
            local = Box(box.x + (box.w - w) // 2, box.y + k * line_h, w, h)
            rect = local if rotation == 0 else local.turned(box)
            item = DrawItem(kind, rect, None, index, text=line, rotation=rotation, style=colour)
            paints.append((item, surface))

    def _panel(
        self, paints: list[_Paint], kind: str, player: int | None, box: Box,
        fill: tuple[int, int, int, int], border: Colour | None, *, index: int | None = None,
    ) -> None:  # fmt: skip
        key = ("panel", box.w, box.h, fill, border)
        surface = self._shapes.get(key)
        if surface is None:
            surface = pygame.Surface((box.w, box.h), pygame.SRCALPHA)
            radius = max(4, min(box.w, box.h) // 12)
            pygame.draw.rect(surface, fill, surface.get_rect(), border_radius=radius)
            if border is not None:
                width = max(2, min(box.w, box.h) // 60)
                pygame.draw.rect(surface, border, surface.get_rect(), width, border_radius=radius)
            self._shapes[key] = surface
        style = (*fill, *(border or ()))
        paints.append((DrawItem(kind, box, player, index, style=style), surface))

    def _frame_surface(self, box: Box) -> pygame.Surface:
        """The selection highlight: a thick yellow ring the size of ``box``."""
        key = ("highlight", box.w, box.h)
        surface = self._shapes.get(key)
        if surface is None:
            surface = pygame.Surface((box.w, box.h), pygame.SRCALPHA)
            width = max(2, (box.w - self.geometry.card_w) // 2 + 1)
            radius = max(3, self.geometry.card_w // 10)
            pygame.draw.rect(surface, YELLOW, surface.get_rect(), width, border_radius=radius)
            self._shapes[key] = surface
        return surface

    def _badge(self, text: str, box: Box, rotation: int) -> pygame.Surface:
        """The STUCK badge: white bold text on a red lozenge."""
        key = ("badge", text, box.w, box.h, rotation)
        surface = self._shapes.get(key)
        if surface is None:
            surface = pygame.Surface((box.w, box.h), pygame.SRCALPHA)
            pygame.draw.rect(surface, STUCK_RED, surface.get_rect(), border_radius=box.h // 3)
            size = self.text.fit_size(text, box.w * 9 // 10, box.h, fill=0.75)
            glyphs = self.text.render(text, size, WHITE)
            surface.blit(glyphs, glyphs.get_rect(center=(box.w // 2, box.h // 2)))
            if rotation:
                surface = pygame.transform.rotate(surface, rotation)
            self._shapes[key] = surface
        return surface

    # -- painting -------------------------------------------------------------------------

    def _paint_background(self, *, mats: bool) -> pygame.Surface:
        """Felt, with (``mats``) a darker mat under each player's cards and a lighter one
        under the piles."""
        g = self.geometry
        surface = pygame.Surface((g.width, g.height))
        table = g.table
        for y in range(table.h):
            u = y / max(1, table.h - 1)
            colour = tuple(
                round(a + (b - a) * u) for a, b in zip(FELT_TOP, FELT_BOTTOM, strict=True)
            )
            pygame.draw.line(
                surface, colour, (table.x, table.y + y), (table.right - 1, table.y + y)
            )
        mat = pygame.Surface((g.width, g.height), pygame.SRCALPHA)
        pad = max(4, g.card_w // 8)
        radius = max(6, g.card_w // 6)
        if mats:
            for p in g.players:
                area = p.panel.inflate(pad)
                pygame.draw.rect(mat, (0, 0, 0, 45), area.as_tuple(), border_radius=radius)
            piles = g.piles[0].union(g.piles[1]).inflate(pad)
            pygame.draw.rect(mat, (255, 255, 255, 28), piles.as_tuple(), border_radius=radius)
            pygame.draw.rect(mat, (255, 255, 255, 60), piles.as_tuple(), 2, border_radius=radius)
            surface.blit(mat, (0, 0))
        if g.lights is not None:
            pygame.draw.rect(surface, STRIP, g.lights.as_tuple())
        if pygame.display.get_surface() is not None:
            surface = surface.convert()
        return surface

    def _present(self, paints: list[_Paint]) -> list[pygame.Rect]:
        items = [item for item, _ in paints]
        new = set(items)
        old, self._last, self._last_set = self._last_set, items, new
        target = self.surface
        if not self._full:
            if new == old:
                return []
            dirty = [pygame.Rect(i.rect.as_tuple()) for i in old - new]
            dirty.extend(pygame.Rect(i.rect.as_tuple()) for i in new - old)
            screen = target.get_rect()
            rects = _merge(dirty, screen)
            if sum(r.w * r.h for r in rects) <= FULL_REPAINT_FRACTION * screen.w * screen.h:
                boxes = [pygame.Rect(item.rect.as_tuple()) for item in items]
                for rect in rects:
                    target.set_clip(rect)
                    target.blit(self._background, rect, rect)
                    target.fblits([(paints[k][1], boxes[k]) for k in rect.collidelistall(boxes)])
                target.set_clip(None)
                return rects
        self._full = False
        target.blit(self._background, (0, 0))
        target.fblits([(surface, (item.rect.x, item.rect.y)) for item, surface in paints])
        return [target.get_rect()]


def _local(box: Box, x: int, y: int, w: int, h: int, rotation: int) -> Box:
    """The box at (``x``, ``y``, ``w``, ``h``) inside ``box`` in its reader's frame, on screen."""
    inner = Box(box.x + x, box.y + y, w, h)
    return inner if rotation == 0 else inner.turned(box)


def _merge(rects: list[pygame.Rect], screen: pygame.Rect) -> list[pygame.Rect]:
    """Clip ``rects`` to the screen and merge the overlapping ones (pygame's rectangle
    tests run in C: this runs every frame)."""
    merged: list[pygame.Rect] = []
    for rect in rects:
        current = rect.clip(screen)
        if not current:
            continue
        # ``merged`` stays pairwise apart: absorb every rectangle the growing one meets.
        while (k := current.collidelist(merged)) != -1:
            current.union_ip(merged.pop(k))
        merged.append(current)
    return merged


def _light_surface(size: int, colour: Colour) -> pygame.Surface:
    surface = pygame.Surface((size, size), pygame.SRCALPHA)
    r = size / 2
    pygame.draw.circle(surface, (0, 0, 0), (r, r), r)
    pygame.draw.circle(surface, colour, (r, r), r * 0.8)
    return surface
