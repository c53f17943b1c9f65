"""Draws the service menu with pygame: large type on a dark ground, readable from arm's
length and beyond, in the bundled font (every language's letters).

Always drawn upright: in a cocktail cabinet the operator stands at player 1's side,
where the screen reads upright. The monitor test draws its patterns over the whole
screen, turned 180° for the far side when asked. A frame that shows the same
:class:`MenuScreen` as the last one paints nothing.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from cabinet.drawing.box import Box
from cabinet.drawing.text import Colour, TextCache
from cabinet.service.screen import MenuScreen, Row, Tone

BACKGROUND: Colour = (10, 14, 30)
TITLE_BAR: Colour = (30, 60, 120)
CURSOR: Colour = (255, 214, 0)
TEXT: Colour = (240, 240, 235)
DIM: Colour = (150, 160, 170)
TONES: dict[Tone, Colour] = {
    Tone.NORMAL: TEXT,
    Tone.HEAD: (190, 205, 220),
    Tone.WARN: (255, 120, 90),
    Tone.GOOD: (110, 230, 140),
    Tone.DIM: DIM,
}
BARS: tuple[Colour, ...] = (
    (255, 255, 255),
    (255, 255, 0),
    (0, 255, 255),
    (0, 255, 0),
    (255, 0, 255),
    (255, 0, 0),
    (0, 0, 255),
    (0, 0, 0),
)
"""SMPTE-style 100 % colour bars, white to black."""

VISIBLE_ROWS = 11
"""Rows a short page is laid out for: the row height (and type size) of a page of up to
this many rows."""

MAX_VISIBLE_ROWS = 20
"""The most rows shown at once: a page of up to this many rows is shown whole, its rows
made shorter to fit (at 1080 lines, about 38 px each), so pages without a cursor (the
input test) and rows the cursor never reaches (headings, counters) are all on screen.
Longer pages scroll with the cursor."""


def fitted_rows(count: int) -> int:
    """How many row heights the rows area is divided into for a page of ``count`` rows:
    :data:`VISIBLE_ROWS` for a short page, every row up to :data:`MAX_VISIBLE_ROWS`."""
    return max(VISIBLE_ROWS, min(count, MAX_VISIBLE_ROWS))


class MenuRenderer:
    """Paints :class:`MenuScreen` values onto ``surface`` (``None``: given later, by
    :meth:`resize`, before the first page: the texture backend makes the menu's canvas
    only while the menu is open)."""

    def __init__(self, surface: pygame.Surface | None, font_path: str | Path | None) -> None:
        self._surface = surface
        self.text = TextCache(font_path)
        self._last: MenuScreen | None = None
        self.top = 0
        """The first row shown (the page scrolls to keep the cursor in view)."""
        self.shown = range(0)
        """The indices of the rows on screen after the last page drawn."""

    @property
    def surface(self) -> pygame.Surface:
        if self._surface is None:
            raise RuntimeError("the menu renderer has no surface yet: resize() first")
        return self._surface

    @property
    def has_surface(self) -> bool:
        return self._surface is not None

    def resize(self, surface: pygame.Surface) -> None:
        self._surface = surface
        self._last = None

    def release(self) -> None:
        """Let go of the surface (the menu closed and its canvas is no longer needed)."""
        self._surface = None
        self._last = None

    def invalidate(self) -> None:
        self._last = None

    def draw(self, screen: MenuScreen) -> list[pygame.Rect]:
        """Paint ``screen``; returns the repainted rectangles (none when unchanged)."""
        if screen == self._last:
            return []
        self._last = screen
        surface = self.surface
        if screen.pattern is not None:
            self._pattern(screen)
        else:
            self._page(screen)
        return [surface.get_rect()]

    # -- pages ---------------------------------------------------------------------

    def _page(self, screen: MenuScreen) -> None:
        surface = self.surface
        w, h = surface.get_size()
        surface.fill(BACKGROUND)
        margin = max(8, w // 40)
        title_h = h // 9
        pygame.draw.rect(surface, TITLE_BAR, (0, 0, w, title_h))
        self._line(screen.title, margin, 0, w - 2 * margin, title_h, TEXT, fill=0.62)
        help_h = h // 14
        notice_h = h // 10
        rows_top = title_h + h // 60
        rows_h = h - rows_top - help_h - notice_h
        rows = screen.rows
        visible = fitted_rows(len(rows))
        row_h = rows_h // visible
        cursor = screen.cursor
        if cursor is not None:
            if cursor < self.top:
                self.top = cursor
            elif cursor >= self.top + visible:
                self.top = cursor - visible + 1
        self.top = max(0, min(self.top, max(0, len(rows) - visible)))
        self.shown = range(self.top, min(len(rows), self.top + visible))
        for i, row in enumerate(rows[self.top : self.top + visible]):
            y = rows_top + i * row_h
            self._row(row, self.top + i == cursor, margin, y, w - 2 * margin, row_h)
        if self.top > 0:
            self._line("▲", w - margin, rows_top, margin, row_h // 2, DIM)
        if self.top + visible < len(rows):
            self._line("▼", w - margin, rows_top + rows_h - row_h // 2, margin, row_h // 2, DIM)
        if screen.notice:
            box = pygame.Rect(margin, h - help_h - notice_h, w - 2 * margin, notice_h)
            size, lines = self.text.block(screen.notice, _box(box), line_h=0.42)
            for k, text in enumerate(lines):
                image = self.text.render(text, size, CURSOR)
                surface.blit(image, (box.x, box.y + k * self.text.font(size).get_linesize()))
        pygame.draw.rect(surface, TITLE_BAR, (0, h - help_h, w, help_h))
        self._line(screen.help, margin, h - help_h, w - 2 * margin, help_h, TEXT, fill=0.5)

    def _row(self, row: Row, selected: bool, x: int, y: int, w: int, h: int) -> None:
        colour = TONES.get(row.tone, TEXT)
        if selected:
            pygame.draw.rect(self.surface, CURSOR, (x - 4, y + 2, w + 8, h - 4), width=3)
            colour = CURSOR
        label_w = w * 55 // 100 if row.value else w - 8
        self._line(row.label, x + 8, y, label_w - 8, h, colour, fill=0.6)
        if row.value:
            self._line(row.value, x + label_w, y, w - label_w - 8, h, colour, fill=0.6, right=True)

    def _line(
        self,
        text: str,
        x: int,
        y: int,
        w: int,
        h: int,
        colour: Colour,
        *,
        fill: float = 0.6,
        right: bool = False,
    ) -> None:
        if not text or w <= 0:
            return
        size = self.text.fit_size(text, w, h, fill=fill)
        image = self.text.render(text, size, colour)
        left = x + w - image.get_width() if right else x
        self.surface.blit(image, (left, y + (h - image.get_height()) // 2))

    # -- the monitor test ----------------------------------------------------------

    def _pattern(self, screen: MenuScreen) -> None:
        w, h = self.surface.get_size()
        canvas = pygame.Surface((w, h))
        canvas.fill((0, 0, 0))
        if screen.pattern == "bars":
            for i, colour in enumerate(BARS):
                x0, x1 = i * w // len(BARS), (i + 1) * w // len(BARS)
                pygame.draw.rect(canvas, colour, (x0, 0, x1 - x0, h))
        elif screen.pattern == "crosshatch":
            step = max(8, min(w, h) // 12)
            for x in range(0, w, step):
                pygame.draw.line(canvas, TEXT, (x, 0), (x, h - 1))
            for y in range(0, h, step):
                pygame.draw.line(canvas, TEXT, (0, y), (w - 1, y))
            pygame.draw.line(canvas, TEXT, (w - 1, 0), (w - 1, h - 1))
            pygame.draw.line(canvas, TEXT, (0, h - 1), (w - 1, h - 1))
            pygame.draw.circle(canvas, TEXT, (w // 2, h // 2), min(w, h) // 3, width=2)
        else:  # safe area: the edge, 95 % (action safe) and 90 % (title safe)
            pygame.draw.rect(canvas, (255, 0, 0), (0, 0, w, h), width=2)
            for fraction, colour in ((0.95, (255, 214, 0)), (0.90, (0, 220, 120))):
                sw, sh = int(w * fraction), int(h * fraction)
                pygame.draw.rect(canvas, colour, ((w - sw) // 2, (h - sh) // 2, sw, sh), width=2)
        label_box = (w // 6, h - h // 6, w * 2 // 3, h // 10)
        pygame.draw.rect(canvas, BACKGROUND, label_box)
        size = self.text.fit_size(screen.title, label_box[2] - 16, label_box[3], fill=0.6)
        image = self.text.render(screen.title, size, TEXT)
        canvas.blit(
            image,
            (
                label_box[0] + (label_box[2] - image.get_width()) // 2,
                label_box[1] + (label_box[3] - image.get_height()) // 2,
            ),
        )
        if screen.turned:
            canvas = pygame.transform.rotate(canvas, 180)
        self.surface.blit(canvas, (0, 0))


def _box(rect: pygame.Rect) -> Box:
    return Box(rect.x, rect.y, rect.w, rect.h)
