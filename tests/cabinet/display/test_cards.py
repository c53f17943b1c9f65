"""Cards drawn by code: sizes, colours of the pips, rotation, and the surface cache."""

from __future__ import annotations

import pygame
import pytest

from cabinet.display.cards import BACK, RED, CardArt, draw_pip, rank_text
from cabinet.display.text import TextCache
from game.cards import ALL_CARDS, Card, Suit

W, H = 145, 203


@pytest.fixture
def art() -> CardArt:
    return CardArt(TextCache())


def test_ten_is_written_10() -> None:
    assert rank_text(Card.parse("TD")) == "10"
    assert [rank_text(c) for c in ALL_CARDS[:13]] == [
        "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"
    ]  # fmt: skip


@pytest.mark.parametrize("notation", ["AH", "7D", "KS", "2C"])
def test_the_big_pip_in_the_middle_is_in_the_suit_colour(art: CardArt, notation: str) -> None:
    card = Card.parse(notation)
    face = art.face(card, W, H)
    assert face.get_size() == (W, H)
    r, g, b, a = face.get_at((W // 2, H // 2))
    assert a >= 250  # opaque (smooth-scaling leaves a trace of rounding)
    if card.suit.is_red:
        assert r > 150 and g < 80 and b < 100
    else:
        assert r < 60 and g < 60 and b < 60
    # The corner is the card's face colour (light), not transparent: a real card.
    assert face.get_at((W // 2, H // 10))[:3] > (200, 200, 200)
    # Rounded corners: the very corner pixel is (almost) transparent.
    assert face.get_at((0, 0)).a < 128


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
    # A spade is not symmetric top to bottom: the two really differ.
    assert pygame.image.tobytes(upright, "RGBA") != pygame.image.tobytes(turned, "RGBA")


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
