"""Animations on a virtual clock: where each moving card is at given times, what the slots
and piles show meanwhile, and when the labels come and go."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.drawing.animation import (
    AnimationClockError,
    Animator,
    MotionKind,
    Timings,
    ease_out,
)
from cabinet.drawing.geometry import Orientation, table_geometry
from game.cards import Card
from game.events import Played, Refilled, Rejected, RejectReason, Spat, Started

from .conftest import MS, beaten_text

C = Card.parse
T0 = 1_000 * MS
GEOMETRY = table_geometry(1920, 1080, Orientation.COCKTAIL)
LAYOUTS = ((C("5S"), C("9D"), C("3H"), C("9S")), (C("KS"), C("6S"), C("8S"), C("9H")))


def started_animator() -> Animator:
    """An animator that saw the start (so it knows the piles), with the start landed."""
    animator = Animator(GEOMETRY, beaten_text=beaten_text)
    animator.feed([Started(0, (C("8D"), C("2C")))])
    animator.frame(T0 - 1)
    return animator


def test_a_played_card_flies_from_slot_to_pile_and_lands_on_time() -> None:
    animator = started_animator()
    animator.feed([Played(T0, 0, 1, 0, C("9D")), Refilled(T0, 0, 1, C("4C"))])
    slot, pile = GEOMETRY.players[0].slots[1], GEOMETRY.piles[0]

    first = animator.frame(T0)
    play = next(s for s in first.sprites if s.kind is MotionKind.PLAY)
    assert play.box == slot and play.card == C("9D") and play.rotation == 0
    assert first.piles == {0: C("8D")}  # the old top shows until it lands
    assert first.slots == {(0, 1): None}  # the slot is empty until the refill lands

    middle = animator.frame(T0 + 75 * MS)
    play = next(s for s in middle.sprites if s.kind is MotionKind.PLAY)
    u = ease_out(0.5)
    assert play.box == slot.lerp(pile, u)
    assert middle.next_change_ns == T0 + 75 * MS

    landed = animator.frame(T0 + 150 * MS)
    assert all(s.kind is not MotionKind.PLAY for s in landed.sprites)
    assert 0 not in landed.piles


def test_the_refill_slides_in_from_the_deck_after_a_short_delay() -> None:
    animator = started_animator()
    t = Timings()
    animator.feed([Played(T0, 1, 2, 1, C("8S")), Refilled(T0, 1, 2, C("JD"))])
    deck = GEOMETRY.players[1].deck
    before = animator.frame(T0 + t.refill_delay_ns - 1)
    assert not [s for s in before.sprites if s.kind is MotionKind.REFILL]
    assert before.slots == {(1, 2): None}
    start = animator.frame(T0 + t.refill_delay_ns)
    refill = next(s for s in start.sprites if s.kind is MotionKind.REFILL)
    assert refill.box == deck and refill.card == C("JD") and refill.rotation == 180
    end = animator.frame(T0 + t.refill_delay_ns + t.refill_ns)
    assert not end.sprites and not end.slots and not end.piles
    assert end.next_change_ns is None


def test_a_beaten_play_bounces_back_and_shows_the_margin() -> None:
    animator = started_animator()
    t = Timings()
    animator.feed([Rejected(T0, 0, 3, 1, RejectReason.BEATEN, 12_345_678)])
    slot, pile = GEOMETRY.players[0].slots[3], GEOMETRY.piles[1]
    frame = animator.frame(T0 + t.bounce_ns // 2, LAYOUTS)
    bounce = frame.sprites[0]
    assert bounce.kind is MotionKind.BOUNCE and bounce.card == C("9S")
    assert bounce.box == slot.lerp(pile, t.bounce_reach)  # the turning point
    assert frame.slots == {(0, 3): None}
    assert frame.labels == ((0, "beaten by 12.3 ms"),)
    back = animator.frame(T0 + t.bounce_ns, LAYOUTS)
    assert not back.sprites and not back.slots
    assert back.labels == ((0, "beaten by 12.3 ms"),)
    assert back.next_change_ns == T0 + t.label_ns
    gone = animator.frame(T0 + t.label_ns, LAYOUTS)
    assert gone.labels == ()


def test_illegal_plays_bounce_without_a_label_and_empty_slots_do_nothing() -> None:
    animator = started_animator()
    animator.feed(
        [
            Rejected(T0, 1, 0, 0, RejectReason.ILLEGAL),
            Rejected(T0, 0, 2, 0, RejectReason.EMPTY_SLOT),
        ]
    )
    frame = animator.frame(T0 + MS, LAYOUTS)
    assert [(s.kind, s.player, s.card) for s in frame.sprites] == [(MotionKind.BOUNCE, 1, C("KS"))]
    assert frame.labels == ()
    # Without the layouts the card is unknown: nothing bounces and nothing is hidden.
    assert animator.frame(T0 + 2 * MS).sprites == ()


def test_a_slot_bounces_once_at_a_time() -> None:
    """Hammering a pile button restarts the slot's bounce; it never stacks copies of the
    card. Another slot's bounce and a play from the slot are their own motions."""
    animator = started_animator()
    animator.feed([Rejected(T0 + i * 20 * MS, 0, 1, 0, RejectReason.ILLEGAL) for i in range(8)])
    animator.feed([Rejected(T0 + 150 * MS, 1, 2, 1, RejectReason.ILLEGAL)])
    frame = animator.frame(T0 + 160 * MS, LAYOUTS)
    assert sorted((s.player, s.card) for s in frame.sprites) == [(0, C("9D")), (1, C("8S"))]
    # The bounce restarted at the last press (140 ms): still out, and back 220 ms later.
    slot = GEOMETRY.players[0].slots[1]
    assert [s.box for s in frame.sprites if s.player == 0] != [slot]
    assert [s for s in animator.frame(T0 + 359 * MS, LAYOUTS).sprites if s.player == 0]
    assert not [s for s in animator.frame(T0 + 361 * MS, LAYOUTS).sprites if s.player == 0]
    # A play from a bouncing slot: the card flies to the pile, no copy stays bouncing.
    animator.feed([Rejected(T0 + 400 * MS, 0, 1, 0, RejectReason.ILLEGAL)])
    animator.feed([Played(T0 + 410 * MS, 0, 1, 0, C("9D"))])
    kinds = [s.kind for s in animator.frame(T0 + 420 * MS, LAYOUTS).sprites if s.player == 0]
    assert kinds == [MotionKind.PLAY]


def test_spit_cards_fly_from_each_deck_to_its_own_pile() -> None:
    animator = started_animator()
    animator.feed([Spat(T0, (C("QH"), None))])
    frame = animator.frame(T0)
    assert [(s.kind, s.player, s.card, s.box) for s in frame.sprites] == [
        (MotionKind.SPIT, 0, C("QH"), GEOMETRY.players[0].deck)
    ]
    assert frame.piles == {0: C("8D")}
    end = animator.frame(T0 + Timings().spit_ns - 1)
    assert end.sprites[0].box == GEOMETRY.players[0].deck.lerp(
        GEOMETRY.piles[0], ease_out((Timings().spit_ns - 1) / Timings().spit_ns)
    )
    assert animator.frame(T0 + Timings().spit_ns).sprites == ()


def test_two_plays_onto_one_pile_show_the_right_card_underneath() -> None:
    animator = started_animator()
    animator.feed([Played(T0, 0, 0, 0, C("9S")), Played(T0 + 50 * MS, 1, 3, 0, C("TH"))])
    assert animator.frame(T0 + 60 * MS).piles == {0: C("8D")}
    assert animator.frame(T0 + 150 * MS).piles == {0: C("9S")}
    assert animator.frame(T0 + 200 * MS).piles == {}


def test_fed_mid_game_the_piles_are_not_hidden() -> None:
    animator = Animator(GEOMETRY)
    animator.feed([Played(T0, 0, 0, 1, C("9S"))])
    frame = animator.frame(T0 + MS)
    assert len(frame.sprites) == 1 and frame.piles == {}


def test_the_clock_may_not_go_back() -> None:
    animator = started_animator()
    animator.frame(T0)
    with pytest.raises(AnimationClockError, match="after one at"):
        animator.frame(T0 - 1)
    animator.clear()
    animator.frame(0)  # a cleared animator starts a new clock


@given(st.floats(0, 1), st.floats(0, 1))
def test_easing_is_monotonic_from_zero_to_one(a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    assert ease_out(0) == 0 and ease_out(1) == 1
    assert ease_out(lo) <= ease_out(hi)
