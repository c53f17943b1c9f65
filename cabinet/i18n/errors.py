"""The errors the translation layer raises: each names what was wrong and what would be right."""

from __future__ import annotations

from collections.abc import Iterable


class TranslationError(Exception):
    """Base of every error raised by :mod:`cabinet.i18n`, so a screen can catch them all."""


class UnknownLanguageError(TranslationError, ValueError):
    """A language code the cabinet has no catalog for (``"de"``, ``"EN"``, ``"english"``)."""

    def __init__(self, language: object, known: Iterable[str]) -> None:
        self.language = language
        self.known = tuple(known)
        super().__init__(
            f"unknown language {language!r}; the cabinet speaks {', '.join(self.known)} "
            "(lower-case ISO 639-1 codes)"
        )


class UnknownMessageError(TranslationError, KeyError):
    """A message key that is not in the catalogs (a typo, or a key not yet added)."""

    def __init__(self, key: object, suggestions: Iterable[str] = ()) -> None:
        self.key = key
        self.suggestions = tuple(suggestions)
        hint = ""
        if len(self.suggestions) == 1:
            hint = f"; did you mean {self.suggestions[0]}?"
        elif self.suggestions:
            hint = f"; did you mean one of {', '.join(self.suggestions)}?"
        self.message = f"no message {key!r} in the catalogs{hint} (docs/languages.md lists them)"
        super().__init__(self.message)

    def __str__(self) -> str:
        # KeyError's own __str__ shows the repr of its argument, quotes and all.
        return self.message


class MessageParameterError(TranslationError, ValueError):
    """The parameters given to a message do not match the ones it takes."""


class MissingParameterError(MessageParameterError):
    """A message was formatted without a parameter it needs (``play.deck`` without ``count``)."""

    def __init__(self, key: str, missing: Iterable[str], expected: Iterable[str]) -> None:
        self.key = key
        self.missing = tuple(sorted(missing))
        self.expected = tuple(sorted(expected))
        super().__init__(
            f"message {key!r} needs the parameter(s) {', '.join(self.missing)}; "
            f"it takes exactly: {', '.join(self.expected) or 'none'}"
        )


class UnexpectedParameterError(MessageParameterError):
    """A message was given a parameter it does not use (usually a misspelt name)."""

    def __init__(self, key: str, unexpected: Iterable[str], expected: Iterable[str]) -> None:
        self.key = key
        self.unexpected = tuple(sorted(unexpected))
        self.expected = tuple(sorted(expected))
        super().__init__(
            f"message {key!r} does not take the parameter(s) {', '.join(self.unexpected)}; "
            f"it takes exactly: {', '.join(self.expected) or 'none'}"
        )


class ParameterTypeError(MessageParameterError):
    """A parameter of the wrong type: ``count=2.5`` or ``count="2"`` where a whole number
    chooses the plural form, ``player="one"`` where the player's number is shown."""

    def __init__(self, key: str, name: str, value: object, expected: str) -> None:
        self.key = key
        self.name = name
        self.value = value
        self.expected = expected
        super().__init__(
            f"message {key!r}: parameter {name!r} must be {expected}; "
            f"got {value!r} ({type(value).__name__})"
        )


class CatalogError(TranslationError, ValueError):
    """A catalog file that is malformed: bad JSON, a bad plural entry, a bad ``{field}``."""
