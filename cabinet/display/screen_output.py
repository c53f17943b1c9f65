"""The screen the cabinet draws on: its display backend, the game's renderer and the
service menu's on it, and the hand-over to software when the backend fails mid-run.

When the backend fails (:class:`~cabinet.drawing.backend.BackendFailed`), it is said once
in the log and closed, the cabinet draws in software from then on, and the frame being
drawn is drawn again at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

import pygame

from cabinet.drawing.backend import BackendFailed, DisplayBackend
from cabinet.drawing.renderer import Renderer
from cabinet.drawing.software import SoftwareBackend
from cabinet.drawing.views import View
from cabinet.i18n import font_path
from cabinet.service.draw import MenuRenderer

# The main loop's logger: these lines keep the name they have always been logged under.
log = logging.getLogger("cabinet.display.app")

T = TypeVar("T")

MenuPaint = Callable[[MenuRenderer], list[pygame.Rect] | None]
"""Paints the service menu's page with the renderer it is given; returns the repainted
rectangles, or ``None`` when the menu shows the game's screen instead."""


def as_backend(screen: DisplayBackend | pygame.Surface) -> DisplayBackend:
    """``screen`` as a display backend: a surface gets the software backend on it."""
    return SoftwareBackend(screen) if isinstance(screen, pygame.Surface) else screen


class ScreenOutput:
    """The display backend, with the game's renderer and the service menu's on it."""

    def __init__(
        self,
        screen: DisplayBackend | pygame.Surface,
        make_renderer: Callable[[DisplayBackend], Renderer],
        fallback: Callable[[], DisplayBackend] | None = None,
    ) -> None:
        """``make_renderer``: the game's renderer on a backend (made again by
        :meth:`renew_renderer` and for every new backend); ``fallback``: the software
        backend to hand over to when the backend fails (default: one on
        ``pygame.display.set_mode`` at the failed one's size)."""
        self.backend = as_backend(screen)
        self._make_renderer = make_renderer
        self._fallback = fallback
        self.fallbacks = 0
        """How many times a failing backend handed over to software."""
        self.renderer = make_renderer(self.backend)
        self.menu_renderer = MenuRenderer(
            self.backend.canvas() if self.backend.keeps_pixels else None, font_path()
        )

    def renew_renderer(self) -> None:
        """Make the game's renderer again (for a new orientation or language)."""
        self.renderer = self._make_renderer(self.backend)

    def replace(self, open_backend: Callable[[], DisplayBackend | pygame.Surface]) -> None:
        """Close the backend, then draw on the one ``open_backend`` opens: the menu's
        renderer on its canvas, the game's made again."""
        self.backend.close()
        self.backend = as_backend(open_backend())
        self.menu_renderer.resize(self.backend.canvas())
        self.renew_renderer()

    def present(self, rects: list[pygame.Rect]) -> None:
        """Show the frame drawn (``rects``: what it changed)."""
        try:
            self.backend.present(rects)
        except BackendFailed as exc:
            self._fall_back(exc)

    def warm(self) -> None:
        """Draw ahead what the game's renderer keeps (its card faces), if it has not yet:
        the frame loop calls this in the time a frame leaves. A backend that fails at it
        hands over to software, as in a frame, and the new renderer is warmed instead."""
        if not self.renderer.warmed:
            self._drawing(lambda: self.renderer.warm())

    def game_frame(self, view: View, now: int) -> list[pygame.Rect]:
        """Draw ``view`` at screen clock reading ``now``; returns the repainted rectangles.
        On a backend that keeps no pixels, the menu's canvas goes with the menu."""
        if not self.backend.keeps_pixels and self.menu_renderer.has_surface:
            self.menu_renderer.release()
        return self._drawing(lambda: self.renderer.draw(view, now))

    def menu_frame(self, paint: MenuPaint) -> list[pygame.Rect] | None:
        """The service menu's frame, ``paint`` given the menu's renderer on the backend's
        canvas (``None``: the menu shows the game's screen)."""
        return self._drawing(lambda: self._menu_frame(paint))

    def close(self) -> None:
        """Let go of the backend (its textures before SDL quits)."""
        self.backend.close()

    def _menu_frame(self, paint: MenuPaint) -> list[pygame.Rect] | None:
        canvas = self.backend.canvas()
        menu = self.menu_renderer
        if not menu.has_surface or canvas is not menu.surface:
            menu.resize(canvas)
        drawn = paint(menu)
        return None if drawn is None else self.backend.canvas_drawn(drawn)

    def _drawing(self, draw: Callable[[], T]) -> T:
        """``draw()``; if the backend fails, hand over to software and draw again."""
        try:
            return draw()
        except BackendFailed as exc:
            self._fall_back(exc)
            self.renderer.invalidate()
            self.menu_renderer.invalidate()
            return draw()

    def _fall_back(self, exc: BackendFailed) -> None:
        """The backend failed: say so once, and draw in software from now on."""
        failed = self.backend
        log.error(
            "display: the %s backend failed (%s): drawing in software", failed.kind.value, exc
        )
        size = failed.size
        self.replace(lambda: self._software(size))

    def _software(self, size: tuple[int, int]) -> DisplayBackend:
        """The software backend that takes over from a failed one of ``size``."""
        if self._fallback is not None:
            backend = self._fallback()
        else:
            backend = SoftwareBackend(pygame.display.set_mode(size), why="fallback")
        log.info("display: %s", backend.describe)
        self.fallbacks += 1
        return backend
