"""Fonts and rendered text, cached: rendering a string is the slowest thing a frame does,
and the same few strings are drawn every frame.

Text arrives already translated; this module only draws it. Sizes are font sizes in
pixels (pygame's ``Font(path, size)``).
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import pygame

from cabinet.drawing.box import Box

Colour = tuple[int, int, int]

#: How many rendered strings are kept (each a few kB to a few hundred kB).
TEXT_CACHE_SIZE = 512
#: How many font sizes are kept open, the most recently used: each size is a FreeType face
#: of its own (about 180 kB, more with the glyphs it has drawn), and fitting text to a box
#: tries sizes that are never drawn (10 s of attract at 1080p opened 31 sizes).
FONTS_KEPT = 16


class FontFileError(ValueError):
    """The font file given to the display cannot be read as a font."""


class TextCache:
    """Fonts by size and rendered strings by (text, size, colour, rotation).

    ``font_path`` is a TTF/OTF file; ``None`` uses pygame's default font (which has no
    accented capitals beyond Latin-1 and no suit symbols: suits are drawn, not typed).
    ``keep``: keep rendered strings (the software backend blits them every frame); the
    texture backend keeps textures instead, and only the fonts, fitted sizes and wrapped
    lines are cached here.
    """

    def __init__(
        self, font_path: str | Path | None = None, *, bold: bool = False, keep: bool = True
    ) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.font_path = None if font_path is None else str(font_path)
        self.bold = bold
        self.keep = keep
        self._fonts: OrderedDict[int, pygame.font.Font] = OrderedDict()
        self._surfaces: OrderedDict[tuple[str, int, Colour, int], pygame.Surface] = OrderedDict()
        self._fits: dict[tuple[str, int, int, int], int] = {}
        self._wraps: dict[tuple[str, int, int], tuple[str, ...]] = {}
        self._blocks: dict[tuple[str, Box, int], tuple[int, tuple[str, ...]]] = {}
        self.hits = 0
        self.misses = 0
        if self.font_path is not None:
            self.font(12)  # fail now, with a clear message, not mid-game

    def font(self, size: int) -> pygame.font.Font:
        """The font at ``size`` pixels (one of the :data:`FONTS_KEPT` kept open)."""
        size = max(4, int(size))
        fonts = self._fonts
        font = fonts.get(size)
        if font is not None:
            fonts.move_to_end(size)
            return font
        font = fonts[size] = self.open_font(size)
        if len(fonts) > FONTS_KEPT:
            fonts.popitem(last=False)
        return font

    def open_font(self, size: int) -> pygame.font.Font:
        """A font of this cache's file and style at ``size`` pixels, opened afresh and not
        kept (for one who keeps it as long as it needs it)."""
        size = max(4, int(size))
        try:
            font = pygame.font.Font(self.font_path, size)
            font.size("Ag")  # some broken files load, then fail on first use
        except (OSError, pygame.error) as exc:
            raise FontFileError(f"cannot load font {self.font_path!r}: {exc}") from exc
        font.bold = self.bold and self.font_path is None
        return font

    def render(self, text: str, size: int, colour: Colour, rotation: int = 0) -> pygame.Surface:
        """``text`` rendered anti-aliased at ``size`` px in ``colour``, turned ``rotation``
        degrees (0 or 180). Cached."""
        key = (text, size, colour, rotation)
        surface = self._surfaces.get(key)
        if surface is not None:
            self.hits += 1
            self._surfaces.move_to_end(key)
            return surface
        self.misses += 1
        if rotation:
            surface = pygame.transform.rotate(self.render(text, size, colour, 0), rotation)
        else:
            surface = self.font(size).render(text, True, colour)
            if pygame.display.get_surface() is not None:
                surface = surface.convert_alpha()
        if self.keep:
            self._surfaces[key] = surface
            if len(self._surfaces) > TEXT_CACHE_SIZE:
                self._surfaces.popitem(last=False)
        return surface

    def size(self, text: str, size: int) -> tuple[int, int]:
        """The size (w, h) of ``text`` rendered at ``size``. A font file measures it
        without rendering; pygame's default font measures some sizes a pixel short of
        what it renders, so with it the string is rendered (and kept, if kept)."""
        if self.font_path is not None:
            w, h = self.font(size).size(text)
        else:
            w, h = self.render(text, size, (255, 255, 255)).get_size()
        return (w, h)

    def pixel_bytes(self) -> int:
        """Bytes of rendered strings kept (4 a pixel)."""
        return sum(s.get_width() * s.get_height() * 4 for s in self._surfaces.values())

    def fit_size(self, text: str, box_w: int, box_h: int, *, fill: float = 0.8) -> int:
        """The largest font size, up to ``fill`` of ``box_h``, at which ``text`` fits
        ``box_w`` pixels wide on one line."""
        key = (text, box_w, box_h, round(fill * 100))
        size = self._fits.get(key)
        if size is None:
            size = max(4, int(box_h * fill))
            width = self.font(size).size(text)[0]
            if width > box_w > 0:
                size = max(4, int(size * box_w / width))
                while size > 4 and self.font(size).size(text)[0] > box_w:
                    size -= 1
            self._fits[key] = size
        return size

    def wrap(self, text: str, size: int, width: int) -> tuple[str, ...]:
        """``text`` broken into lines no wider than ``width`` px at ``size`` (at spaces;
        explicit newlines are kept)."""
        key = (text, size, width)
        lines = self._wraps.get(key)
        if lines is None:
            font = self.font(size)
            out: list[str] = []
            for paragraph in text.split("\n"):
                line = ""
                for word in paragraph.split():
                    trial = f"{line} {word}" if line else word
                    if line and font.size(trial)[0] > width:
                        out.append(line)
                        line = word
                    else:
                        line = trial
                out.append(line)
            lines = tuple(out)
            self._wraps[key] = lines
        return lines

    def block(self, text: str, box: Box, *, line_h: float = 0.34) -> tuple[int, tuple[str, ...]]:
        """The font size and wrapped lines that fit ``text`` inside ``box``: starts with
        lines ``line_h`` of the box height and shrinks until the block fits. Cached."""
        key = (text, box, round(line_h * 100))
        found = self._blocks.get(key)
        if found is not None:
            return found
        size = max(4, int(box.h * line_h))
        while True:
            lines = self.wrap(text, size, box.w)
            font = self.font(size)
            widest = max((font.size(line)[0] for line in lines), default=0)
            if size <= 6 or (font.get_linesize() * len(lines) <= box.h and widest <= box.w):
                self._blocks[key] = (size, lines)
                return size, lines
            size = max(6, int(size * 0.9))
