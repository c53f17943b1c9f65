"""Draws each screen from its view and the running animations, repainting only what changed.

Each frame the renderer turns the view into a *display list*: one
:class:`~cabinet.display.painter.DrawItem` per thing on screen (a card in a slot, a label,
a light…), in painting order, each with the rectangle it covers. It compares the list
with the previous frame's; the rectangles of items that appeared, vanished or changed are
*dirty*: there it restores the cached background and repaints every item that overlaps, in
order. :meth:`Renderer.draw` returns those rectangles for ``pygame.display.update(rects)``;
a frame where nothing changed paints nothing and returns ``[]``.

This module owns the set-up (layout, animator, cached backgrounds), the frame's assembly
and the dirty rectangles. What each screen shows is drawn elsewhere, into a
:class:`~cabinet.display.painter.Painter`: the felt and the table by
:mod:`cabinet.display.table_screen`, the attract banner and the join and game-over
screens by :mod:`cabinet.display.screens`, the on-screen lights by
:mod:`cabinet.display.lights_strip`.

Tests read :attr:`Renderer.display_list` to check what is shown (the right cards in the
right places) without comparing pixels.

The renderer never waits or reads a clock: the caller passes ``now_ns`` (the match clock,
the same one the events' ``t_ns`` are on) and may sleep until :attr:`Renderer.wake_ns`,
the time the screen next changes by itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from pathlib import Path

import pygame

from cabinet.display.animation import Animator, Timings
from cabinet.display.cards import CardArt
from cabinet.display.fame_screens import paint_fame_board, paint_initials
from cabinet.display.fame_views import FameBoardView, InitialsView
from cabinet.display.geometry import Orientation, TableGeometry, table_geometry
from cabinet.display.lights_strip import paint_lights
from cabinet.display.painter import DrawItem, Paint, Painter
from cabinet.display.screens import paint_attract, paint_game_over, paint_join
from cabinet.display.table_screen import paint_background, paint_table
from cabinet.display.text import TextCache
from cabinet.display.views import (
    AttractView,
    GameOverView,
    JoinView,
    TableView,
    View,
)
from game.cards import ALL_CARDS
from game.events import Event

#: When the dirty area passes this fraction of the screen, one full repaint is cheaper.
FULL_REPAINT_FRACTION = 0.5


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
            True: paint_background(self.geometry, mats=True),
            False: paint_background(self.geometry, mats=False),
        }
        self._background = self._backgrounds[True]
        # The attract text sits where the countdown and the race moments go: it wins.
        banners = [b.box for b in self.geometry.banners]
        self._banners_hide_messages = any(
            b.intersects(m.box) for b in banners for m in self.geometry.messages
        )
        self._banners_hide_races = any(
            b.intersects(r.box) for b in banners for pile in self.geometry.races for r in pile
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
        """Draw every card face and the empty outline at this layout's two sizes (slot
        and pile), and the back at the slot's."""
        g = self.geometry
        rotations = {0, *(p.rotation for p in g.players), *g.pile_rotations}
        for rotation in sorted(rotations):
            for w, h in ((g.card_w, g.card_h), (g.pile_w, g.pile_h)):
                for card in ALL_CARDS:
                    self.art.face(card, w, h, rotation)
                self.art.empty(w, h, rotation)
            self.art.back(g.card_w, g.card_h, rotation)

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
        painter = Painter(self.geometry, self.text, self.art, self._shapes)
        if isinstance(view, TableView):
            self._table(painter, view, now_ns)
        elif isinstance(view, AttractView):
            table = view.table
            if self._banners_hide_messages and table.countdown is not None:
                table = dataclasses.replace(table, countdown=None)
            if self._banners_hide_races and table.races:
                table = dataclasses.replace(table, races=())
            self._table(painter, table, now_ns)
            self._wake(paint_attract(painter, view, now_ns))
        elif isinstance(view, JoinView):
            paint_join(painter, view)
        elif isinstance(view, GameOverView):
            paint_game_over(painter, view)
        elif isinstance(view, InitialsView):
            paint_initials(painter, view)
        elif isinstance(view, FameBoardView):
            paint_fame_board(painter, view)
        else:
            raise TypeError(f"the renderer cannot draw {type(view).__name__}")
        self._wake(paint_lights(painter, view.lights, now_ns))
        background = self._backgrounds[isinstance(view, TableView | AttractView)]
        if background is not self._background:
            self._background = background
            self._full = True
        return self._present(painter.paints)

    def _wake(self, at_ns: int | None) -> None:
        if at_ns is not None and (self.wake_ns is None or at_ns < self.wake_ns):
            self.wake_ns = at_ns

    # -- screens --------------------------------------------------------------------------

    def _table(self, painter: Painter, view: TableView, now_ns: int) -> None:
        layouts = (view.players[0].layout, view.players[1].layout)
        frame = self.animator.frame(now_ns, layouts)
        self._wake(frame.next_change_ns)
        paint_table(painter, view, frame)

    # -- presenting -----------------------------------------------------------------------

    def _present(self, paints: list[Paint]) -> list[pygame.Rect]:
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
