"""The initials a player enters: three characters from a small alphabet, and the
blocklist that keeps rude ones off the screen.

The alphabet is the letters A-Z, the digits 0-9 and a space; :data:`DELETE` is the entry
screen's "back one" character, never stored. :func:`shown_initials` is what the board
shows: the entered initials, or ``???`` when they spell a blocked word (checked with
spaces ignored and look-alike digits read as letters: ``A55`` is ``ASS``).

>>> shown_initials("ABC")
'ABC'
>>> shown_initials("A55")
'???'
"""

from __future__ import annotations

import string
from typing import Final

ALPHABET: Final = string.ascii_uppercase + string.digits + " "
"""What a player may enter, in the order the up button steps through it."""

BLANK: Final = "   "
"""Initials not entered (the time ran out before the first letter): shown as ``---``."""

BLOCKED: Final[frozenset[str]] = frozenset(
    {
        # English, and its common spellings
        "ASS", "CUM", "FAG", "FUK", "FUC", "FUQ", "FCK", "JIZ", "KKK", "NIG", "NGR",
        "SHT", "TIT", "VAG", "DIK", "DIC", "COK", "PIS", "KYS", "SUK", "CNT", "WTF",
        # Italian, Dutch, Finnish, Portuguese, Hungarian short forms
        "CAZ", "KUT", "KAK", "PIK", "FDP", "VTF", "KUK", "FAS", "BCT", "GEC",
    }
)  # fmt: skip
"""Three-letter words (and common spellings of them) that are shown as ``???``: English
ones, and a few of the Italian, Dutch, Finnish, Portuguese and Hungarian ones a player
might try. Kept small on purpose (docs/hall-of-fame.md): it stops the obvious, it does not
judge every name."""

_LOOK_ALIKES: Final = str.maketrans({"0": "O", "1": "I", "3": "E", "4": "A", "5": "S", "7": "T"})


class InitialsError(ValueError):
    """Not three characters of :data:`ALPHABET`."""


def check_initials(text: str) -> str:
    """``text`` as stored initials: three characters of the alphabet (upper case)."""
    if not isinstance(text, str) or len(text) != 3 or any(c not in ALPHABET for c in text):
        raise InitialsError(f"initials are three of A-Z, 0-9 and space; got {text!r}")
    return text


def blocked(initials: str) -> bool:
    """Whether the initials spell a blocked word (spaces and look-alike digits too)."""
    squeezed = initials.translate(_LOOK_ALIKES).replace(" ", "")
    return squeezed in BLOCKED or initials.translate(_LOOK_ALIKES) in BLOCKED


def shown_initials(initials: str) -> str:
    """What the board shows for stored initials: ``???`` for a blocked word, ``---`` for
    none entered, else the initials."""
    if initials == BLANK:
        return "---"
    return "???" if blocked(initials) else initials
