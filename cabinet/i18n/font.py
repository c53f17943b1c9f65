"""The one font every on-screen text is drawn with, and a check that it has every glyph."""

from __future__ import annotations

from pathlib import Path

FONT_FILE = "DejaVuSans-Bold.ttf"
"""DejaVu Sans Bold 2.37: Latin-1, Latin Extended-A and more; licence beside it."""


def font_path() -> Path:
    """The bundled TTF, for ``pygame.font.Font(font_path(), size_px)``."""
    return Path(__file__).resolve().parent.parent / "assets" / "fonts" / FONT_FILE


def missing_glyphs(text: str, path: Path | None = None) -> tuple[str, ...]:
    """The distinct characters of ``text`` that the font at ``path`` (default: the bundled one)
    has no glyph for, in order of first appearance. Whitespace is never reported.

    ``pygame.font.Font.metrics`` cannot tell: SDL_ttf answers a missing character with the
    metrics of the font's "missing" box. FreeType's lookup (``pygame.freetype``) answers
    ``None`` for a character the font's character map lacks, so that is used here."""
    import pygame.freetype

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    font = pygame.freetype.Font(str(path if path is not None else font_path()), 16)
    missing: list[str] = []
    for char in dict.fromkeys(text):
        if char.isspace():
            continue
        if font.get_metrics(char)[0] is None:
            missing.append(char)
    return tuple(missing)
