"""The bundled font: it ships with its licence and has a glyph for every character shown."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from cabinet.i18n import LANGUAGES, font_path, missing_glyphs, translate
from cabinet.i18n.catalog import Catalog
from tests.cabinet.i18n.conftest import param_combinations

PACKAGE = Path(__file__).resolve().parents[3] / "cabinet"
PYGAME_DEFAULT_FONT = Path(pygame.__file__).parent / "freesansbold.ttf"


@pytest.fixture(scope="module")
def font() -> pygame.font.Font:
    pygame.font.init()
    return pygame.font.Font(font_path(), 32)


def test_the_font_and_its_licence_ship_inside_the_package() -> None:
    path = font_path()
    assert path.is_file()
    assert path.is_relative_to(PACKAGE)
    assert path.read_bytes()[:4] == b"\x00\x01\x00\x00"  # TrueType outlines
    licence = (path.parent / "LICENSE-DejaVu.md").read_text(encoding="utf-8")
    assert "Permission is hereby granted, free of charge" in licence
    assert "Bitstream Vera" in licence


def test_missing_glyphs_sees_what_a_font_lacks() -> None:
    # The check must be able to fail: CJK, a private-use character and a glyph only one of two
    # fonts has are reported; present letters are not.
    assert missing_glyphs("ő中\ue000ű") == ("中", "\ue000")
    assert missing_glyphs("♠♥") == ()
    assert missing_glyphs("a♠b♠", PYGAME_DEFAULT_FONT) == ("♠",)
    assert missing_glyphs("  \n\t") == ()


def test_sdl_ttf_metrics_would_not_have_told() -> None:
    """Why missing_glyphs uses FreeType: SDL_ttf's metrics of a missing character are the
    'missing' box's metrics, not None."""
    pygame.font.init()
    default = pygame.font.Font(PYGAME_DEFAULT_FONT, 24)
    assert default.metrics("♠") == default.metrics("中") != [None]


def test_latin_1_and_latin_extended_a_are_complete() -> None:
    text = "".join(chr(code) for code in range(0x20, 0x7F))
    text += "".join(chr(code) for code in range(0xA0, 0x180))
    assert missing_glyphs(text) == ()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_renders_without_missing_glyphs(
    language: str, catalogs: dict[str, Catalog], font: pygame.font.Font
) -> None:
    shown = 0
    for key, message in catalogs[language].messages.items():
        for form in (*message.forms, *(text for _, text in message.exact.values())):
            assert missing_glyphs(form) == (), (language, key, form)
        for params in param_combinations(message.params):
            text = translate(key, language, **params)
            assert missing_glyphs(text) == (), (language, key, text)
            surface = font.render(text, True, (255, 255, 255))
            assert surface.get_width() > 0 and surface.get_height() > 0
            shown += 1
    assert shown >= 60
