"""Pricing: what a match costs, how credits and money are shown."""

from __future__ import annotations

import pytest

from cabinet.money.pricing import PricePer, Pricing, PricingError, credits_text, money_text


@pytest.mark.parametrize(
    ("pricing", "humans", "cpu", "cost"),
    [
        (Pricing(), 2, False, 0),  # free play, the default
        (Pricing(free_play=False), 1, True, 1),
        (Pricing(free_play=False), 2, False, 2),
        (Pricing(free_play=False, credits_per_game=3), 2, False, 6),
        (Pricing(free_play=False, price_per=PricePer.MATCH, credits_per_game=3), 2, False, 3),
        (Pricing(free_play=False, price_per=PricePer.MATCH, credits_per_game=3), 1, True, 3),
        (Pricing(free_play=False, cpu_game_costs=False), 1, True, 0),
        (Pricing(free_play=False, cpu_game_costs=False), 2, False, 2),
    ],
)
def test_what_a_match_costs(pricing: Pricing, humans: int, cpu: bool, cost: int) -> None:
    assert pricing.cost(humans=humans, cpu=cpu) == cost


def test_coins_are_taken_only_when_paid_for_and_below_the_maximum() -> None:
    assert not Pricing().accepts_coins(0)  # free play locks the mechanisms out
    paid = Pricing(free_play=False, max_credits=3)
    assert paid.accepts_coins(2)
    assert not paid.accepts_coins(3)


@pytest.mark.parametrize(
    ("credits", "held", "per_credit", "text"),
    [
        (3, 0, 1, "3"),
        (0, 1, 2, "1/2"),
        (3, 1, 2, "3 1/2"),
        (1, 2, 4, "1 1/2"),  # in lowest terms
        (0, 2, 3, "2/3"),
        (0, 0, 5, "0"),
    ],
)
def test_credits_text_shows_the_part_credit(
    credits: int, held: int, per_credit: int, text: str
) -> None:
    assert credits_text(credits, held, per_credit) == text


def test_money_text_is_exact() -> None:
    assert money_text(1250, "EUR") == "EUR 12.50"
    assert money_text(5, "USD") == "USD 0.05"
    assert money_text(120000, "HUF") == "HUF 1200"
    assert money_text(0, "GBP") == "GBP 0.00"


@pytest.mark.parametrize(
    "bad",
    [
        {"units_per_credit": 0},
        {"coin_units": (1, 0)},
        {"coin_cents": (-1, 5)},
        {"max_credits": 0},
        {"credits_per_game": True},
    ],
)
def test_bad_figures_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(PricingError):
        Pricing(**bad)  # type: ignore[arg-type]


def test_a_match_has_one_or_two_people() -> None:
    with pytest.raises(PricingError, match="1 or 2 people"):
        Pricing().cost(humans=3, cpu=False)
