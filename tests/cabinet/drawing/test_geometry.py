"""Layout properties over random screens: everything on screen, nothing overlapping, the
cocktail half turned, the piles where the control panel expects them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cabinet.drawing.box import Box
from cabinet.drawing.geometry import (
    LIGHTS_COUNT,
    GeometryError,
    Orientation,
    ScreenTooSmallError,
    TableGeometry,
    table_geometry,
)

screens = st.tuples(
    st.integers(320, 3840), st.integers(240, 2160), st.sampled_from(Orientation), st.booleans()
)


def player_boxes(g: TableGeometry, p: int) -> list[Box]:
    pg = g.players[p]
    return [
        *pg.slots, *pg.highlights, pg.deck, pg.deck_count, pg.label, pg.cards_left, pg.stuck,
        pg.message,
    ]  # fmt: skip


def shared_texts(g: TableGeometry) -> list[Box]:
    """The text boxes between the halves: pile counts, countdowns, scores, race moments."""
    placed = [*g.pile_counts, *g.messages, *g.scores, *g.races[0], *g.races[1]]
    return [p.box for p in placed]


def all_boxes(g: TableGeometry) -> list[Box]:
    boxes = player_boxes(g, 0) + player_boxes(g, 1) + list(g.piles)
    boxes += shared_texts(g) + [p.box for p in g.banners]
    boxes += [p.panel for p in g.players] + list(g.light_spots)
    return boxes


@settings(max_examples=300, deadline=None)
@given(screens)
def test_every_box_is_on_screen_and_not_empty(screen: tuple[int, int, Orientation, bool]) -> None:
    w, h, orientation, strip = screen
    g = table_geometry(w, h, orientation, lights_strip=strip)
    for box in all_boxes(g):
        assert box.w > 0 and box.h > 0, box
        assert g.screen.contains(box), (box, g.screen)


@settings(max_examples=300, deadline=None)
@given(screens)
def test_cards_never_overlap(screen: tuple[int, int, Orientation, bool]) -> None:
    g = table_geometry(screen[0], screen[1], screen[2], lights_strip=screen[3])
    cards = g.card_boxes()
    assert len(cards) == 12
    for i, a in enumerate(cards):
        assert g.table.contains(a)
        for b in cards[i + 1 :]:
            assert not a.intersects(b), (a, b)
    # Selection frames stay clear of the other cards, and the halves stay apart.
    for p in (0, 1):
        for s, frame in enumerate(g.players[p].highlights):
            others = [c for c in cards if c != g.players[p].slots[s]]
            assert not any(frame.intersects(c) for c in others)
    for a in player_boxes(g, 0):
        for b in player_boxes(g, 1):
            assert not a.intersects(b), (a, b)


@settings(max_examples=200, deadline=None)
@given(screens)
def test_text_boxes_leave_the_cards_alone(screen: tuple[int, int, Orientation, bool]) -> None:
    g = table_geometry(screen[0], screen[1], screen[2], lights_strip=screen[3])
    texts = [
        b for p in g.players for b in (p.label, p.cards_left, p.stuck, p.message, p.deck_count)
    ]
    texts += shared_texts(g)
    for text in texts:
        for card in g.card_boxes():
            assert not text.intersects(card), (text, card)
    for p in g.players:
        assert not p.label.intersects(p.stuck)
        assert not p.deck_count.intersects(p.stuck)
        assert not p.cards_left.intersects(p.label)
        assert not p.cards_left.intersects(p.stuck)
        assert not p.cards_left.intersects(p.deck_count)
    # Beside the piles the score never shares a box with the countdown or a race moment;
    # a race moment shares the countdown's box only in cocktail, where the countdown wins.
    moments = [p.box for p in (*g.races[0], *g.races[1])]
    for score in g.scores:
        assert not any(score.box.intersects(b) for b in [m.box for m in g.messages] + moments)
    for a_i, a in enumerate(moments):
        assert not any(a.intersects(b) for b in moments[a_i + 1 :])


@settings(max_examples=200, deadline=None)
@given(screens)
def test_halves_mirror_each_other(screen: tuple[int, int, Orientation, bool]) -> None:
    w, h, orientation, strip = screen
    g = table_geometry(w, h, orientation, lights_strip=strip)
    p1, p2 = g.players
    assert p1.rotation == 0
    if orientation is Orientation.COCKTAIL:
        # Player 2's half is player 1's turned 180° about the table.
        assert p2.rotation == 180
        assert p2.slots == tuple(b.turned(g.table) for b in p1.slots)
        assert p2.deck == p1.deck.turned(g.table)
        assert p2.label == p1.label.turned(g.table)
        assert p2.cards_left == p1.cards_left.turned(g.table)
        assert g.scores[1].box == g.scores[0].box.turned(g.table)
        assert [p.rotation for p in g.scores] == [0, 180]
        # Each pile's race moment twice: near it, once in each player's reading direction.
        for pile in (0, 1):
            assert sorted(p.rotation for p in g.races[pile]) == [0, 180]
        assert max(b.bottom for b in p2.slots) <= min(b.y for b in g.piles)
        assert max(b.bottom for b in g.piles) <= min(b.y for b in p1.slots)
        # Slot 1 is each player's own left: screen left for player 1, right for player 2.
        assert [b.x for b in p1.slots] == sorted(b.x for b in p1.slots)
        assert [b.x for b in p2.slots] == sorted((b.x for b in p2.slots), reverse=True)
        assert g.pile_rotations == (0, 180)
    else:
        assert p2.rotation == 0
        dx = p2.slots[0].x - p1.slots[0].x
        assert p2.slots == tuple(b.moved(dx, 0) for b in p1.slots)
        assert p2.cards_left == p1.cards_left.moved(dx, 0)
        assert max(b.right for b in p1.slots) <= g.piles[0].x
        assert g.piles[1].right <= p2.slots[0].x
        assert [b.x for b in p2.slots] == sorted(b.x for b in p2.slots)
    # Pile 1 is on player 1's left (the wiring's pile buttons follow the screen).
    assert g.piles[0].right <= g.piles[1].x


@settings(max_examples=200, deadline=None)
@given(screens)
def test_cards_keep_their_shape_and_a_readable_size(
    screen: tuple[int, int, Orientation, bool],
) -> None:
    w, h, orientation, strip = screen
    g = table_geometry(w, h, orientation, lights_strip=strip)
    assert abs(g.card_h / g.card_w - 1.4) < 0.1
    assert abs(g.pile_h / g.pile_w - 1.4) < 0.05
    for p in g.players:
        for box in (*p.slots, p.deck):
            assert (box.w, box.h) == (g.card_w, g.card_h)
    for box in g.piles:
        assert (box.w, box.h) == (g.pile_w, g.pile_h)
    # The piles, where the races are run, are the largest cards.
    assert g.pile_w >= 1.3 * g.card_w
    # At least 1/14 of the short side: 77 px on 1080 lines, whatever the aspect.
    assert g.card_w >= min(w, h) / 14 or g.card_w >= w / 14


@settings(max_examples=150, deadline=None)
@given(screens)
def test_light_strip_has_fifteen_separate_spots(screen: tuple[int, int, Orientation, bool]) -> None:
    w, h, orientation, strip = screen
    g = table_geometry(w, h, orientation, lights_strip=strip)
    if not strip:
        assert g.lights is None and g.light_spots == ()
        return
    assert g.lights is not None
    assert not g.lights.intersects(g.table)
    assert len(g.light_spots) == LIGHTS_COUNT
    for i, a in enumerate(g.light_spots):
        assert g.lights.contains(a)
        for b in g.light_spots[i + 1 :]:
            assert not a.intersects(b)


def test_full_hd_cards_are_large() -> None:
    upright = table_geometry(1920, 1080, Orientation.UPRIGHT)
    cocktail = table_geometry(1920, 1080, Orientation.COCKTAIL)
    # About 4.5 cm wide on a 24-inch 1080p screen: the rank is readable from a metre.
    assert upright.card_w >= 160
    assert cocktail.card_w >= 165
    assert upright.pile_w >= 210 and cocktail.pile_w >= 215


def test_too_small_a_screen_is_refused_with_the_minimum() -> None:
    with pytest.raises(ScreenTooSmallError, match="320×240"):
        table_geometry(300, 600, Orientation.UPRIGHT)
    with pytest.raises(GeometryError):
        table_geometry(640.5, 480, Orientation.UPRIGHT)  # type: ignore[arg-type]


def test_orientation_parse() -> None:
    assert Orientation.parse(" Cocktail ") is Orientation.COCKTAIL
    with pytest.raises(GeometryError, match="upright, cocktail"):
        Orientation.parse("sideways")


def test_box_turn_is_an_involution() -> None:
    area = Box(0, 0, 100, 60)
    box = Box(10, 5, 20, 30)
    assert box.turned(area) == Box(70, 25, 20, 30)
    assert box.turned(area).turned(area) == box
    assert box.lerp(Box(30, 25, 20, 30), 0.5) == Box(20, 15, 20, 30)
