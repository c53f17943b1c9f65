"""Plural rules: which form of a message a number takes, per language.

A message that shows a number may give several forms, keyed by *category*:
``"one"`` and ``"other"`` (the names the Unicode CLDR uses), and optionally exact values
``"=0"``, ``"=3"`` that win over the category. The categories each language uses, for the
whole numbers a cabinet shows (counts of cards, plays, seconds, games):

- English, Italian, Dutch, Finnish, Portuguese: ``one`` for exactly 1, ``other`` for
  everything else, 0 included ("0 cards", "0 carte", "0 korttia", "0 cartas"). Portuguese
  follows the European rule here; Brazilian usage also writes "0 cartas" on a scoreboard.
- Hungarian: ``other`` only. After a numeral the noun stays singular ("1 lap", "5 lap"
  maradt), so one form serves every count; exact values still help when the numeral itself
  takes a suffix that depends on how it is read ("3-ból" but "5-ből").
"""

from __future__ import annotations

from collections.abc import Callable

PluralRule = Callable[[int], str]


def _one_other(n: int) -> str:
    return "one" if n == 1 else "other"


def _other(n: int) -> str:
    return "other"


PLURAL_RULES: dict[str, PluralRule] = {
    "en": _one_other,
    "it": _one_other,
    "nl": _one_other,
    "fi": _one_other,
    "pt": _one_other,
    "hu": _other,
}
"""Language code → function from a whole number to its plural category."""

PLURAL_CATEGORIES: dict[str, frozenset[str]] = {
    "en": frozenset({"one", "other"}),
    "it": frozenset({"one", "other"}),
    "nl": frozenset({"one", "other"}),
    "fi": frozenset({"one", "other"}),
    "pt": frozenset({"one", "other"}),
    "hu": frozenset({"other"}),
}
"""Language code → every category its rule can return; a plural entry must give each."""


def plural_category(language: str, n: int) -> str:
    """The CLDR plural category (``"one"`` or ``"other"``) of the whole number ``n`` in
    ``language``. Raises ``KeyError`` for a language with no rule (callers check first)."""
    return PLURAL_RULES[language](n)


def choose_form(forms: dict[str, str], language: str, n: int) -> str:
    """The form of a plural entry for ``n``: an exact ``"=n"`` form if given, else the form of
    ``n``'s category in ``language``."""
    exact = forms.get(f"={n}")
    if exact is not None:
        return exact
    return forms[plural_category(language, n)]
