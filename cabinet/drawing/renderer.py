"""Draws each screen from its view and the running animations, through a display backend.

Each frame the renderer turns the view into a *display list*: one
:class:`~cabinet.drawing.painter.DrawItem` per thing on screen (a card in a slot, a label,
a light…), in painting order, each with the rectangle it covers and the
:class:`~cabinet.drawing.painter.Look` it shows. A backend (:mod:`cabinet.drawing.backend`)
draws the list: the software one repaints only the rectangles that changed and returns
them for ``pygame.display.update(rects)``; the texture one draws a changed frame whole on
the GPU. Either draws nothing, and returns ``[]``, for a frame like the last.

This module owns the set-up (layout, animator, the felt), the frame's assembly and the
choice of what to prepare before play. What each screen shows is drawn elsewhere, into a
:class:`~cabinet.drawing.painter.Painter`: the felt and the table by
:mod:`cabinet.drawing.table_screen`, the attract banner and the join and game-over
screens by :mod:`cabinet.drawing.screens`, the on-screen lights by
:mod:`cabinet.drawing.lights_strip`.

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

from cabinet.drawing.animation import Animator, Timings
from cabinet.drawing.backend import DisplayBackend
from cabinet.drawing.cards import CardArt
from cabinet.drawing.fame_screens import paint_champions, paint_fame_board, paint_initials
from cabinet.drawing.fame_views import ChampionsView, FameBoardView, InitialsView
from cabinet.drawing.geometry import Orientation, TableGeometry, table_geometry
from cabinet.drawing.lights_strip import paint_lights
from cabinet.drawing.painter import DrawItem, Look, LookCache, Paint, Painter, Shapes
from cabinet.drawing.screens import paint_attract, paint_game_over, paint_join
from cabinet.drawing.software import SoftwareBackend
from cabinet.drawing.table_screen import paint_background, paint_table
from cabinet.drawing.text import TextCache
from cabinet.drawing.views import (
    AttractView,
    GameOverView,
    JoinView,
    TableView,
    View,
)
from game.cards import ALL_CARDS
from game.events import Event


class Renderer:
    """Draws the cabinet's screens through ``backend`` (a surface: the software backend
    on it).

    ``orientation`` is upright or cocktail (see :mod:`cabinet.drawing.geometry`);
    ``font_path`` a TTF file, or ``None`` for pygame's default font. ``lights_strip``
    reserves a strip for the on-screen lights (when no LED board is connected).
    ``beaten_text(margin_ns)`` formats the "beaten by 12.3 ms" label, translated.
    ``warm`` draws all 52 card faces at once instead of on first use (about 0.2 s), so
    no frame in play pays for it (with the texture backend: uploads them). The cabinet's
    screen passes ``False`` and has :meth:`warm` run in the time its first frame leaves
    (:meth:`ScreenOutput.warm <cabinet.display.screen_output.ScreenOutput.warm>`): a
    boot's first frame does not wait for 52 faces. :attr:`warmed` says whether it ran.
    """

    def __init__(
        self,
        backend: DisplayBackend | pygame.Surface,
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
        if isinstance(backend, pygame.Surface):
            backend = SoftwareBackend(backend)
        keep = backend.keeps_pixels
        self.text = TextCache(font_path, keep=keep)
        self.art = CardArt(self.text, keep=keep)
        self._beaten_text = beaten_text
        self._timings = timings
        self._warm = warm
        self._shapes = Shapes(keep=keep)
        self._looks = LookCache()
        self._set_up(backend)

    # -- set-up ---------------------------------------------------------------------------

    def _set_up(self, backend: DisplayBackend) -> None:
        self.backend = backend
        width, height = backend.size
        self.geometry: TableGeometry = table_geometry(
            width, height, self.orientation, lights_strip=self.lights_strip
        )
        self.animator = Animator(
            self.geometry, beaten_text=self._beaten_text, timings=self._timings
        )
        # The felt: with the card mats (the table) or plain (the other screens). The
        # software backend keeps the one in use (8 MB at 1080p); the texture one uploads
        # each once.
        self._felt: tuple[bool, pygame.Surface] | None = None
        self._felts = {mats: self._felt_look(mats) for mats in (True, False)}
        # The attract text sits where the countdown and the race moments go: it wins.
        banners = [b.box for b in self.geometry.banners]
        self._banners_hide_messages = any(
            b.intersects(m.box) for b in banners for m in self.geometry.messages
        )
        self._banners_hide_races = any(
            b.intersects(r.box) for b in banners for pile in self.geometry.races for r in pile
        )
        self._paints: list[Paint] = []
        self._screen: type[View] | None = None
        """The kind of view the last frame showed: its shapes are kept while it shows."""
        self._full = True
        self.wake_ns: int | None = None
        """When the screen next changes by itself (animation, blinking), on the caller's
        clock; ``None`` when it will not change until the view does."""
        self.warmed = False
        """Whether :meth:`warm` has drawn every face at this layout."""
        if self._warm:
            self.warm()

    def _felt_look(self, mats: bool) -> Look:
        g = self.geometry

        def draw(rotation: int) -> pygame.Surface:
            if self._felt is not None and self._felt[0] == mats:
                return self._felt[1]
            # Let the other felt go before painting this one (no name here may hold it:
            # two felts at once are 16 MB at 1080p, the display process's peak).
            self._felt = None
            surface = paint_background(g, mats=mats)
            if self.backend.keeps_pixels:
                self._felt = (mats, surface)
            return surface

        return Look(("felt", g.width, g.height, mats), 0, (g.width, g.height), draw, opaque=True)

    def resize(self, backend: DisplayBackend | pygame.Surface) -> None:
        """Draw through a new backend or onto a new surface (a resized window, a
        fallback): new layout, animations dropped."""
        if isinstance(backend, pygame.Surface):
            backend = SoftwareBackend(backend)
        self._set_up(backend)

    def invalidate(self) -> None:
        """Repaint the whole screen on the next frame (e.g. after something else drew)."""
        self._full = True

    def warm(self) -> None:
        """Prepare every card face and the empty outline at this layout's two sizes (slot
        and pile), the back at the slot's, and the table's felt."""
        g = self.geometry
        painter = self._painter()
        rotations = {0, *(p.rotation for p in g.players), *g.pile_rotations}
        looks: list[Look] = []
        for rotation in sorted(rotations):
            for w, h in ((g.card_w, g.card_h), (g.pile_w, g.pile_h)):
                looks.extend(painter.card_look(card, w, h, rotation) for card in ALL_CARDS)
                looks.append(painter.card_look(None, w, h, rotation))
            looks.append(painter.back_look(g.card_w, g.card_h, rotation))
        looks.append(self._felts[True])
        self.backend.prepare(looks)
        self.art.release_fonts()  # every face is drawn: the ranks' large fonts can go
        self.warmed = True

    def _painter(self) -> Painter:
        return Painter(self.geometry, self.text, self.art, self._shapes, self._looks)

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
        return tuple(item for item, _ in self._paints)

    # -- frames ---------------------------------------------------------------------------

    def draw(self, view: View, now_ns: int) -> list[pygame.Rect]:
        """Draw ``view`` as it looks at ``now_ns``; returns the rectangles repainted."""
        self.wake_ns = None
        painter = self._painter()
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
        elif isinstance(view, ChampionsView):
            paint_champions(painter, view)
        else:
            raise TypeError(f"the renderer cannot draw {type(view).__name__}")
        self._wake(paint_lights(painter, view.lights, now_ns))
        felt = self._felts[isinstance(view, TableView | AttractView)]
        paints = painter.paints
        self._paints = paints
        if type(view) is not self._screen:
            if self._screen is not None:  # another screen: the last one's shapes go
                self._shapes.keep_only({look.key for _, look in paints})
            self._screen = type(view)
        full, self._full = self._full, False
        return self.backend.frame(felt, paints, full=full)

    def _wake(self, at_ns: int | None) -> None:
        if at_ns is not None and (self.wake_ns is None or at_ns < self.wake_ns):
            self.wake_ns = at_ns

    # -- screens --------------------------------------------------------------------------

    def _table(self, painter: Painter, view: TableView, now_ns: int) -> None:
        layouts = (view.players[0].layout, view.players[1].layout)
        frame = self.animator.frame(now_ns, layouts)
        self._wake(frame.next_change_ns)
        paint_table(painter, view, frame)
