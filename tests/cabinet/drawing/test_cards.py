"""Cards drawn by code: sizes, colours of the pips, the rank's drawn size, rotation, and
the surface cache."""

from __future__ import annotations

import pygame
import pytest

from cabinet.drawing.cards import (
    BACK,
    BLACK,
    RANK_HEIGHT,
    RANK_MAX_WIDTH,
    RED,
    CardArt,
    draw_pip,
    rank_text,
)
from cabinet.drawing.text import TextCache
from cabinet.i18n import font_path
from game.cards import ALL_CARDS, Card, Suit

from .conftest import rank_ink

W, H = 145, 203


@pytest.fixture
def art() -> CardArt:
    return CardArt(TextCache())


def test_ten_is_written_10() -> None:
    assert rank_text(Card.parse("TD")) == "10"
    assert [rank_text(c) for c in ALL_CARDS[:13]] == [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"
    ]  # fmt: skip


def is_suit_colour(pixel: pygame.Color, red: bool) -> bool:
    r, g, b, a = pixel
    if a < 250:
        return False
    return r > 150 and g < 80 and b < 100 if red else r < 60 and g < 60 and b < 60


@pytest.mark.parametrize("notation", ["AH", "7D", "KS", "2C"])
def test_the_two_pips_straddle_the_middle_in_the_suit_colour(art: CardArt, notation: str) -> None:
    card = Card.parse(notation)
    face = art.face(card, W, H)
    assert face.get_size() == (W, H)
    middle = [face.get_at((x, H // 2)) for x in range(W)]
    # Each corner's pip reaches the middle line: one on the left, one on the right.
    left = [x for x in range(W) if is_suit_colour(middle[x], card.suit.is_red)]
    assert left and min(left) < W // 3 and max(left) > W * 2 // 3
    # The middle itself is the card's face colour (light), not transparent: a real card.
    assert middle[W // 2].a >= 250 and middle[W // 2][:3] > (200, 200, 200)
    # Rounded corners: the very corner pixel is (almost) transparent.
    assert face.get_at((0, 0)).a < 128


@pytest.mark.parametrize("bundled", [True, False], ids=["bundled font", "default font"])
def test_the_rank_is_drawn_a_third_of_the_card_tall_whatever_the_font(bundled: bool) -> None:
    """The rank's ink, measured on the drawn face, is RANK_HEIGHT of the card's height for
    every rank (a Q or a J's tail only adds to it), and 10 is condensed to fit."""
    art = CardArt(TextCache(font_path() if bundled else None))
    for w in (60, 87, 109, 164):
        h = round(w * 1.4)
        for card in ALL_CARDS[:13] + ALL_CARDS[26:39]:
            face = art.face(card, w, h)
            height, width = rank_ink(face, RED if card.suit.is_red else BLACK)
            assert height >= RANK_HEIGHT * h - 2, (w, card)
            if card.rank_symbol in "JQ":
                continue  # a tail, and the other corner's pip, make them taller
            # Round tops and bottoms (3, 6, 8, 9) overshoot a little, as in any font.
            assert height <= RANK_HEIGHT * h * 1.06 + 1, (w, card)
            assert width <= RANK_MAX_WIDTH * w + 2, (w, card)


@pytest.mark.parametrize("suit", list(Suit))
def test_each_pip_is_drawn_as_a_shape(suit: Suit) -> None:
    surface = pygame.Surface((60, 60), pygame.SRCALPHA)
    draw_pip(surface, suit, 0, 0, 60)
    covered = sum(1 for x in range(60) for y in range(60) if surface.get_at((x, y)).a)
    assert 800 < covered < 3000  # a pip, neither empty nor a filled square
    assert (surface.get_at((30, 30))[:3] == RED) is suit.is_red


def test_rotation_turns_the_face(art: CardArt) -> None:
    card = Card.parse("AS")
    upright = art.face(card, W, H)
    turned = art.face(card, W, H, 180)
    for x, y in ((W // 2, H // 3), (20, 30), (W // 2, H * 2 // 3)):
        assert turned.get_at((W - 1 - x, H - 1 - y)) == upright.get_at((x, y))
    # Turned, not mirrored: a spade is not symmetric top to bottom.
    mirrored = pygame.transform.flip(upright, False, True)
    assert pygame.image.tobytes(mirrored, "RGBA") != pygame.image.tobytes(turned, "RGBA")


def test_back_and_empty_outline(art: CardArt) -> None:
    back = art.back(W, H)
    assert back.get_at((W // 2, H // 2))[:3] != (250, 248, 240)
    inner = back.get_at((W // 4, H // 4))[:3]
    assert abs(inner[2] - BACK[2]) < 90 and inner[2] > inner[0]
    empty = art.empty(W, H)
    assert empty.get_at((W // 2, H // 2)).a < 80  # see-through middle


def test_surfaces_are_cached_per_card_size_and_rotation(art: CardArt) -> None:
    card = Card.parse("QH")
    first = art.face(card, W, H)
    assert art.misses == 1
    assert art.face(card, W, H) is first
    assert art.hits == 1
    art.face(card, W, H, 180)  # drawn by turning the cached upright face
    assert art.misses == 2 and art.hits == 2
    art.face(card, W + 1, H)
    assert art.misses == 3
    assert len(art) == 3
