"""Cards, ranks and suits in the notation of docs/rules.md (R2).

A card is written rank then suit: ``AS``, ``TD`` (``10D`` is accepted on input), ``KH``.
Ranks are the integers 1 (ace) to 13 (king); suits never matter to the rules (R1) but
are kept so the display can draw them and records can name every card exactly.

The 52 cards are interned: ``Card.parse("AS") is Card.parse("AS")``, so the engine can
compare and hash them cheaply.
"""

from __future__ import annotations

import enum
import hashlib
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

RANK_SYMBOLS = "A23456789TJQK"
"""Rank symbols in rank order; ``RANK_SYMBOLS[rank - 1]`` is the symbol of ``rank``."""

ACE = 1
KING = 13
DECK_SIZE = 52


class NotationError(ValueError):
    """A card could not be read from its notation."""


class RankError(NotationError):
    """The rank part of a card's notation is not one of ``A 2-9 T 10 J Q K``."""


class SuitError(NotationError):
    """The suit part of a card's notation is not one of ``S H D C``."""


class DeckError(ValueError):
    """A deck is not exactly the 52 distinct cards of a standard deck."""


class Suit(enum.Enum):
    """The four suits, by their notation letter."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    # Members are singletons: identity hashing is correct, and C-fast (Enum's own
    # __hash__ is Python code, which made hashing a card the cost of dealing a game).
    __hash__ = object.__hash__


_SUITS_BY_LETTER = {s.value: s for s in Suit}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``rank`` is 1 (ace) … 13 (king)."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not ACE <= self.rank <= KING:
            raise RankError(f"rank must be 1..13, got {self.rank!r}")
        if not isinstance(self.suit, Suit):
            raise SuitError(f"suit must be a Suit, got {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its notation (``"AS"``, ``"td"``, ``"10D"``)."""
        if not isinstance(text, str):
            raise NotationError(f"card notation must be a string, got {text!r}")
        card = _BY_NOTATION.get(text.strip().upper())
        if card is not None:
            return card
        raise _notation_error(text)

    def notation(self) -> str:
        """The card's notation, e.g. ``"TD"``; :meth:`parse` reads it back."""
        return RANK_SYMBOLS[self.rank - 1] + self.suit.value

    @property
    def rank_symbol(self) -> str:
        return RANK_SYMBOLS[self.rank - 1]

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Card.parse({self.notation()!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        """Unpickled cards are the interned ones (cards cross between processes)."""
        return (Card.parse, (self.notation(),))


def _notation_error(text: str) -> NotationError:
    cleaned = text.strip().upper()
    if len(cleaned) < 2:
        return NotationError(f"card {text!r} is too short: write rank then suit, e.g. 'AS'")
    rank_part, suit_part = cleaned[:-1], cleaned[-1]
    if suit_part not in _SUITS_BY_LETTER:
        return SuitError(f"card {text!r}: suit {suit_part!r} is not one of S H D C")
    return RankError(f"card {text!r}: rank {rank_part!r} is not one of A 2-9 T (or 10) J Q K")


ALL_CARDS: tuple[Card, ...] = tuple(
    Card(rank, suit) for suit in Suit for rank in range(ACE, KING + 1)
)
"""The 52 interned cards, suit by suit (S, H, D, C), ace to king."""

_BY_NOTATION: dict[str, Card] = {c.notation(): c for c in ALL_CARDS}
_BY_NOTATION.update({"10" + c.suit.value: c for c in ALL_CARDS if c.rank == 10})


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Parse a sequence of card notations."""
    return [Card.parse(t) for t in texts]


def validate_deck(cards: Sequence[Card], *, name: str = "deck") -> tuple[Card, ...]:
    """Check that ``cards`` is exactly the 52 distinct cards; return them as a tuple.

    The error names the problem: wrong size, a duplicate, or the cards missing.
    """
    deck = tuple(cards)
    bad = next((c for c in deck if not isinstance(c, Card)), None)
    if bad is not None:
        raise DeckError(f"{name} holds {bad!r}, which is not a Card")
    if len(deck) == DECK_SIZE and len(set(deck)) == DECK_SIZE:
        return deck  # 52 distinct valid cards: exactly the standard deck
    counts = Counter(deck)
    duplicates = [c for c, n in counts.items() if n > 1]
    if duplicates:
        dup = ", ".join(c.notation() for c in duplicates[:4])
        raise DeckError(f"{name} has duplicate cards: {dup}")
    if len(deck) != DECK_SIZE:
        missing = [c.notation() for c in ALL_CARDS if c not in counts]
        detail = f"; missing {', '.join(missing[:6])}" + ("…" if len(missing) > 6 else "")
        raise DeckError(f"{name} has {len(deck)} cards, not {DECK_SIZE}{detail}")
    return deck


def derived_rng(seed: int, stream: str) -> random.Random:
    """A ``random.Random`` for one named stream of a match, derived from its seed.

    The derivation hashes ``seed`` and ``stream`` with SHA-256 and seeds with the
    integer, so the same seed gives the same sequence on every platform and on every
    Python ≥ 3.11 (``random.Random`` with an int seed is stable across versions).
    """
    digest = hashlib.sha256(f"spit:{seed}:{stream}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def shuffled_deck(seed: int, player: int) -> tuple[Card, ...]:
    """Player ``player``'s deck for ``seed``, top card first (R1, R3)."""
    deck = list(ALL_CARDS)
    derived_rng(seed, f"deck{player}").shuffle(deck)
    return tuple(deck)


def ranks_adjacent(a: int, b: int, *, ace_wraps: bool = True) -> bool:
    """Whether ranks ``a`` and ``b`` are one apart (R7), on R2's circle when ``ace_wraps``."""
    diff = abs(a - b)
    return diff == 1 or (ace_wraps and diff == KING - ACE)
