"""Shared helpers for the game tests: decks and positions written in card notation."""

from __future__ import annotations

from collections import Counter

from game.cards import ALL_CARDS, Card, parse_cards
from game.engine import Game
from game.rules import Rules


def cards(text: str) -> list[Card]:
    """``cards("AS 2H TD")``: a list of cards from space-separated notation."""
    return parse_cards(text.split())


def deck(top: str = "") -> list[Card]:
    """A full 52-card deck whose top cards are ``top`` (first is top), then the rest
    in ``ALL_CARDS`` order."""
    first = cards(top)
    return first + [c for c in ALL_CARDS if c not in first]


def position(
    layout0: str,
    layout1: str,
    top0: str,
    top1: str,
    deck0: str = "",
    deck1: str = "",
    rules: Rules | None = None,
    t_ns: int = 0,
) -> Game:
    """A running game with the given layouts (``-`` for an empty slot), pile tops and
    decks (top first); every other card of the 104 lies under pile 1's top."""
    layouts = [
        [None if w == "-" else Card.parse(w) for w in lay.split()] for lay in (layout0, layout1)
    ]
    decks = [cards(deck0), cards(deck1)]
    tops = [Card.parse(top0), Card.parse(top1)]
    used = Counter(c for lay in layouts for c in lay if c is not None)
    used.update(decks[0] + decks[1] + tops)
    under = [c for c in ALL_CARDS for _ in range(2 - used[c])]
    return Game.from_position(
        decks=decks,
        layouts=layouts,
        piles=[[*under, tops[0]], [tops[1]]],
        rules=rules,
        t_ns=t_ns,
    )
