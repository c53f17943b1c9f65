"""One test (at least) per rule of docs/rules.md, R1 to R14, on the engine."""

from __future__ import annotations

from collections import Counter

import pytest

from game.cards import ALL_CARDS, Card, DeckError, shuffled_deck
from game.engine import (
    BadMoveError,
    Game,
    OutOfOrderError,
    PositionError,
)
from game.events import (
    GameOver,
    Played,
    Refilled,
    Rejected,
    RejectReason,
    Spat,
    SpitDue,
    Started,
    StuckChanged,
    Termination,
)
from game.rules import Rules
from game.units import MS

from .conftest import cards, deck, position


def test_r1_each_player_has_a_full_deck_of_their_own() -> None:
    game = Game.from_seed(7)
    all_cards = Counter(game.all_cards())
    assert len(game.all_cards()) == 104
    assert all(all_cards[c] == 2 for c in ALL_CARDS)
    with pytest.raises(DeckError, match="duplicate cards: AS"):
        Game((deck("AS AS"), deck()))
    with pytest.raises(DeckError, match="51 cards, not 52; missing KC"):
        Game((deck()[:-1], deck()))


def test_r1_same_seed_deals_the_same_decks() -> None:
    assert Game.from_seed(3).layout(0) == Game.from_seed(3).layout(0)
    assert shuffled_deck(3, 0) != shuffled_deck(3, 1)
    assert shuffled_deck(3, 0) != shuffled_deck(4, 0)


def test_r2_ace_is_next_to_both_king_and_two() -> None:
    game = position("AS 5H 5D 5C", "9S 9H 9D 9C", "KH", "2D")
    assert (0, 0) in game.legal_plays(0)  # A onto K
    assert (0, 1) in game.legal_plays(0)  # A onto 2
    game = position("KS 5H 5D 5C", "9S 9H 9D 9C", "AH", "QD")
    assert game.legal_plays(0) == [(0, 0), (0, 1)]


def test_r2_ace_low_only_when_wrapping_is_off() -> None:
    rules = Rules(ace_wraps=False)
    game = position("AS 5H 5D 5C", "9S 9H 9D 9C", "KH", "2D", rules=rules)
    assert game.legal_plays(0) == [(0, 1)]
    game = position("KS 5H 5D 5C", "9S 9H 9D 9C", "AH", "QD", rules=rules)
    assert game.legal_plays(0) == [(0, 1)]


def test_r3_deal_puts_the_top_four_cards_in_slots_one_to_four() -> None:
    d0 = deck("2S 3S 4S 5S 6S")
    d1 = deck("2H 3H 4H 5H 6H")
    game = Game((d0, d1))
    assert game.layout(0) == tuple(cards("2S 3S 4S 5S"))
    assert game.layout(1) == tuple(cards("2H 3H 4H 5H"))
    assert game.deck_size(0) == 48


def test_r4_each_player_spits_onto_their_own_pile_and_may_play_on_either() -> None:
    game = Game((deck("2S 3S 4S 5S 6S"), deck("9H 9D 9C 3H 7H")))
    game.start(0)
    assert game.pile_top(0) == Card.parse("6S")
    assert game.pile_top(1) == Card.parse("7H")
    assert game.play(0, 3, 0, 1).accepted  # 5S onto its own pile (6S)
    assert game.play(1, 0, 0, 2).accepted is False  # 9H does not fit 5S
    assert game.play(1, 3, 0, 3).accepted is False  # 3H does not fit 5S either...
    assert game.play(1, 0, 0, 3).reason is RejectReason.ILLEGAL
    assert game.play(0, 0, 1, 4).accepted is False  # 2S onto 7H: illegal
    game2 = Game((deck("2S 3S 4S 8S 6S"), deck("9H 9D 9C 3H 7H")))
    game2.start(0)
    assert game2.play(0, 3, 1, 1).accepted  # 8S onto the opponent's pile (7H)


def test_r5_start_spits_each_deck_top_and_play_starts_at_once() -> None:
    game = Game((deck("2S 3S 4S 5S 6S"), deck("9H 9D 9C 3H 7H")))
    assert game.play(0, 3, 0, 0).reason is RejectReason.NOT_RUNNING
    game.start(0)
    events = game.take_events()
    assert isinstance(events[1], Started)
    assert events[1].cards == (Card.parse("6S"), Card.parse("7H"))
    assert game.running
    assert game.deck_size(0) == 47


def test_r6_no_turns_the_same_player_may_play_twice_in_a_row() -> None:
    game = position("5S 6S 7S 9C", "KH KD KC KS", "4H", "JD", deck0="2S 3S")
    assert game.play(0, 0, 0, 1).accepted  # 5S on 4H
    assert game.play(0, 1, 0, 2).accepted  # 6S on 5S
    assert game.play(0, 2, 0, 3).accepted  # 7S on 6S


@pytest.mark.parametrize(
    ("card", "top", "legal"),
    [("5S", "4H", True), ("5S", "6D", True), ("5S", "5H", False), ("5S", "7C", False)],
)
def test_r7_a_card_one_rank_up_or_down_plays_and_suit_is_irrelevant(
    card: str, top: str, legal: bool
) -> None:
    game = position(f"{card} KH KD KC", "9S 9H 9D 9C", top, "JD", deck0="2C", deck1="2D")
    result = game.play(0, 0, 0, 1)
    assert result.accepted is legal
    if not legal:
        assert result.reason is RejectReason.ILLEGAL


def test_r8_one_card_at_a_time_from_own_layout() -> None:
    game = position("5S KH KD KC", "5D 9H 9D 9C", "4H", "JD", deck0="2C", deck1="2D")
    assert game.play(0, 0, 0, 1).accepted
    events = game.take_events()
    played = [e for e in events if isinstance(e, Played)]
    assert played == [Played(1, 0, 0, 0, Card.parse("5S"))]
    # Player 2's 5D is theirs: after player 1's play it does not fit 5S.
    assert game.layout(1)[0] == Card.parse("5D")
    with pytest.raises(BadMoveError):
        game.play(0, 4, 0, 2)


def test_r9_a_played_slot_is_refilled_at_once_from_the_deck() -> None:
    game = position("5S KH KD KC", "9S 9H 9D 9C", "4H", "JD", deck0="QC 2C")
    game.play(0, 0, 0, 1)
    events = game.take_events()
    assert Refilled(1, 0, 0, Card.parse("QC")) in events
    assert game.layout(0)[0] == Card.parse("QC")
    assert game.deck_size(0) == 1


def test_r9_no_refill_when_the_deck_is_empty() -> None:
    game = position("5S KH KD KC", "9S 9H 9D 6C", "4H", "JD", deck1="2D")
    game.play(0, 0, 0, 1)
    assert game.layout(0)[0] is None
    assert game.play(0, 0, 0, 2).reason is RejectReason.EMPTY_SLOT


def test_r10_a_play_made_illegal_by_the_opponent_just_before_is_beaten_by_the_margin() -> None:
    # Both hold a card fitting pile 1 (4H): player 2's 3D lands first, then player 1's 5S
    # no longer fits (3D) but did fit the 4H it was aimed at.
    game = position("5S KH KD KC", "3D 9H 9D 9C", "4H", "JD", deck0="2C", deck1="2D")
    assert game.play(1, 0, 0, 10 * MS).accepted
    result = game.play(0, 0, 0, 10 * MS + 1_000)
    assert result.reason is RejectReason.BEATEN
    assert result.margin_ns == 1_000
    assert game.layout(0)[0] == Card.parse("5S")  # the card stays in the layout
    rejected = [e for e in game.take_events() if isinstance(e, Rejected)]
    assert rejected == [Rejected(10 * MS + 1_000, 0, 0, 0, RejectReason.BEATEN, 1_000)]


def test_r10_beaten_only_within_the_window_and_only_by_the_opponent() -> None:
    rules = Rules(beaten_window_ms=100)
    game = position("5S KH KD KC", "3D 9H 9D 9C", "4H", "JD", deck0="2C", deck1="2D", rules=rules)
    game.play(1, 0, 0, 0)
    late = game.play(0, 0, 0, 101 * MS)
    assert late.reason is RejectReason.ILLEGAL
    # Own play changing the pile is not a race.
    game = position(
        "5S 3S KD KC", "9S 9H 9D 9C", "4H", "JD", deck0="2C 8H", deck1="2D", rules=rules
    )
    game.play(0, 0, 0, 0)
    assert game.play(0, 1, 0, 1).reason is RejectReason.ILLEGAL


def test_r10_plays_must_arrive_in_time_order() -> None:
    game = position("5S KH KD KC", "3D 9H 9D 9C", "4H", "JD", t_ns=50)
    with pytest.raises(OutOfOrderError):
        game.play(0, 0, 0, 49)
    assert game.play(0, 0, 0, 50).accepted  # equal times are allowed


def test_r11_stuck_is_reported_per_player() -> None:
    # Player 2 holds only nines: a nine fits an 8 or a 10, and the tops are 4H and JD.
    game = position("5S KH KD KC", "9S 9H 9D 9C", "4H", "JD", deck0="QC", deck1="2D")
    assert game.is_stuck(1) is True
    assert game.is_stuck(0) is False
    assert game.legal_plays(1) == []
    assert game.spit_due_ns is None  # only one player is stuck: no countdown


def test_r11_both_stuck_runs_the_countdown_then_both_spit() -> None:
    rules = Rules(spit_delay_ms=1500)
    game = position(
        "5S KH KD KC", "9S 9H 9D 9C", "4H", "JD", deck0="8C 7C", deck1="2D 3D", rules=rules
    )
    game.take_events()
    assert game.play(0, 0, 0, 1 * MS).accepted  # 5S on 4H; refill 8C; now both stuck
    events = game.take_events()
    assert StuckChanged(1 * MS, 0, True) in events
    assert SpitDue(1 * MS, 1501 * MS) in events
    game.advance(1500 * MS)
    assert game.take_events() == []
    game.advance(1501 * MS)
    events = game.take_events()
    assert events[0] == Spat(1501 * MS, (Card.parse("7C"), Card.parse("2D")))
    assert game.pile_top(0) == Card.parse("7C")
    assert game.pile_top(1) == Card.parse("2D")
    assert game.spits == 1


def test_r11_only_the_player_with_cards_spits_when_one_deck_is_empty() -> None:
    game = position("5S KH KD KC", "9S 9H 9D 9C", "4H", "JD", deck0="8C", deck1="2D 8D")
    game.play(0, 0, 0, 0)  # 5S on 4H, refill 8C: player 1's deck is now empty; both stuck
    game.advance(Rules().spit_delay_ns)
    spat = [e for e in game.take_events() if isinstance(e, Spat)]
    assert spat == [Spat(Rules().spit_delay_ns, (None, Card.parse("2D")))]
    assert game.pile_top(0) == Card.parse("5S")


def test_r11_the_countdown_runs_again_when_still_stuck_after_a_spit() -> None:
    delay = Rules().spit_delay_ns
    game = position("2S 2H 2D 2C", "9S 9H 9D 9C", "6H", "6D", deck0="6C 6S 5S", deck1="QS JS 5H")
    assert game.spit_due_ns == delay
    game.advance(delay)  # 6C and QS: still nothing fits
    assert game.spit_due_ns == 2 * delay
    game.advance(2 * delay)  # 6S and JS
    assert game.spits == 2
    assert game.take_events()[-1] == SpitDue(2 * delay, 3 * delay)


def test_r12_an_empty_deck_keeps_playing_and_the_first_out_wins_at_once() -> None:
    game = position("5S - - -", "9S 9H 9D 9C", "4H", "JD", deck1="2D 3D")
    assert game.running
    assert game.play(0, 0, 0, 7).accepted
    over = [e for e in game.take_events() if isinstance(e, GameOver)]
    assert over[0].outcome.winner == 0
    assert over[0].outcome.termination is Termination.WENT_OUT
    assert over[0].outcome.cards_left == (0, 6)
    assert game.play(1, 0, 0, 8).reason is RejectReason.NOT_RUNNING


def test_r13_blocked_end_fewer_cards_wins() -> None:
    game = position("2S 2H - -", "9S 9H 9D -", "6H", "6D")
    assert game.outcome is not None
    assert game.outcome.termination is Termination.BLOCKED
    assert game.outcome.winner == 0
    assert game.outcome.cards_left == (2, 3)


def test_r13_blocked_end_with_equal_cards_is_a_draw() -> None:
    game = position("2S 2H - -", "9S 9H - -", "6H", "6D")
    assert game.outcome is not None
    assert game.outcome.draw
    assert game.outcome.winner is None


def test_r13_blocked_end_is_reached_by_play() -> None:
    game = position("5S 2H - -", "9S 9H - -", "4H", "6D")
    assert game.outcome is None
    game.play(0, 0, 0, 3)  # 5S on 4H: nothing else fits, decks empty
    assert game.outcome is not None
    assert game.outcome.winner == 0
    assert game.outcome.cards_left == (1, 2)


def test_r14_all_104_cards_are_always_somewhere_exactly_once() -> None:
    game = Game.from_seed(11)
    game.start(0)
    t = 0
    while game.outcome is None:
        t += MS
        plays = game.legal_plays(0) or game.legal_plays(1)
        if plays:
            player = 0 if game.legal_plays(0) else 1
            game.play(player, *plays[0], t)
        else:
            assert game.spit_due_ns is not None
            t = game.spit_due_ns
            game.advance(t)
        counts = Counter(game.all_cards())
        assert len(game.all_cards()) == 104
        assert set(counts.values()) == {2}


def test_positions_must_be_reachable() -> None:
    with pytest.raises(PositionError, match="exactly twice"):
        Game.from_position(
            decks=[[], []],
            layouts=[cards("AS 2S 3S 4S"), cards("AS 2S 3S 4S")],
            piles=[cards("5S"), cards("6S")],
        )
    with pytest.raises(PositionError, match="R9"):
        position("5S - - -", "9S 9H 9D 9C", "4H", "JD", deck0="2C")


def test_events_come_out_in_order() -> None:
    game = Game((deck("2S 3S 4S 5S 6S 7S"), deck("9H 9D 9C 3H KH")))
    game.start(0)
    game.take_events()
    game.play(0, 3, 0, 5)  # 5S onto 6S, refill 7S
    events = game.take_events()
    assert [type(e) for e in events[:2]] == [Played, Refilled]
    assert events[0] == Played(5, 0, 3, 0, Card.parse("5S"))
    assert events[1] == Refilled(5, 0, 3, Card.parse("7S"))
