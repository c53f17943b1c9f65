"""Cards, ranks and suits in R2's notation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.cards import (
    ALL_CARDS,
    Card,
    DeckError,
    NotationError,
    RankError,
    Suit,
    SuitError,
    derived_rng,
    ranks_adjacent,
    shuffled_deck,
    validate_deck,
)


@given(st.sampled_from(ALL_CARDS))
def test_notation_round_trips(card: Card) -> None:
    assert Card.parse(card.notation()) is card
    assert eval(repr(card)) == card  # repr rebuilds the object


def test_ten_is_accepted_as_10_and_t() -> None:
    assert Card.parse("10D") is Card.parse("TD")
    assert Card.parse("td").notation() == "TD"
    assert str(Card.parse(" kh ")) == "KH"


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("1S", RankError, "rank '1'"),
        ("XS", RankError, "rank 'X'"),
        ("AX", SuitError, "suit 'X'"),
        ("A", NotationError, "too short"),
        ("", NotationError, "too short"),
        ("11H", RankError, "rank '11'"),
    ],
)
def test_bad_notation_raises_a_precise_error(text: str, error: type, fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        Card.parse(text)
    assert issubclass(error, ValueError)


def test_a_card_checks_its_own_rank() -> None:
    with pytest.raises(RankError):
        Card(14, Suit.SPADES)
    assert Card(1, Suit.SPADES) == Card.parse("AS")


def test_r2_ranks_form_a_circle() -> None:
    assert ranks_adjacent(13, 1)
    assert ranks_adjacent(1, 2)
    assert not ranks_adjacent(1, 1)
    assert not ranks_adjacent(13, 1, ace_wraps=False)
    assert not ranks_adjacent(2, 4)


def test_deck_validation_names_the_problem() -> None:
    assert validate_deck(ALL_CARDS) == ALL_CARDS
    with pytest.raises(DeckError, match="duplicate cards: AS"):
        validate_deck([*ALL_CARDS[:-1], ALL_CARDS[0]])
    with pytest.raises(DeckError, match="51 cards, not 52; missing KC"):
        validate_deck(ALL_CARDS[:51])
    with pytest.raises(DeckError, match="not a Card"):
        validate_deck(["AS"] * 52)  # type: ignore[list-item]


def test_decks_from_a_seed_are_pinned() -> None:
    """The same seed deals the same cards on every platform: pinned here exactly."""
    assert [c.notation() for c in shuffled_deck(42, 0)[:6]] == GOLDEN_SEED_42_P0
    assert [c.notation() for c in shuffled_deck(42, 1)[:6]] == GOLDEN_SEED_42_P1
    assert sorted(shuffled_deck(42, 0), key=ALL_CARDS.index) == list(ALL_CARDS)
    assert derived_rng(1, "a").random() != derived_rng(1, "b").random()


GOLDEN_SEED_42_P0 = ["6D", "8C", "KD", "AD", "JC", "6H"]
GOLDEN_SEED_42_P1 = ["8C", "2C", "JD", "6S", "4S", "9C"]
