"""Turning a message key and its parameters into text in one of the cabinet's languages."""

from __future__ import annotations

import difflib

from cabinet.i18n.catalog import LANGUAGE_NAMES, REFERENCE_LANGUAGE, load_catalog
from cabinet.i18n.errors import (
    MissingParameterError,
    ParameterTypeError,
    UnexpectedParameterError,
    UnknownMessageError,
)
from cabinet.i18n.parameters import PARAMETERS
from game.values import is_int


def format_decimal(value: float, language: str, places: int = 1) -> str:
    """``value`` with ``places`` decimals in ``language``'s style: ``12.3`` in English,
    ``12,3`` in the other five (their decimal mark is a comma)."""
    separator = load_catalog(language).decimal_separator
    return f"{value:.{places}f}".replace(".", separator)


def _shown(key: str, name: str, value: object, language: str) -> str:
    parameter = PARAMETERS.get(name)
    kind = parameter.kind if parameter is not None else "text"
    if kind == "whole":
        if not is_int(value):
            raise ParameterTypeError(key, name, value, "a whole number (int)")
        return str(value)
    if kind == "decimal":
        if isinstance(value, str):
            return value
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise ParameterTypeError(key, name, value, "a number of milliseconds (float)")
        return format_decimal(value, language)
    if not isinstance(value, str):
        raise ParameterTypeError(key, name, value, "text (str)")
    return value


def translate(key: str, language: str, **params: object) -> str:
    """The message ``key`` in ``language``, with ``params`` filled in.

    >>> translate("gameover.cards_left", "fi", count=2)
    '2 korttia jäljellä'

    Raises :class:`~cabinet.i18n.errors.UnknownLanguageError` (a ``ValueError``) for a
    language the cabinet does not speak, :class:`~cabinet.i18n.errors.UnknownMessageError`
    (a ``KeyError``) for a key that no catalog has, and a
    :class:`~cabinet.i18n.errors.MessageParameterError` (a ``ValueError``) when ``params``
    lack one the message needs, have one it does not take, or have the wrong type."""
    catalog = load_catalog(language)
    message = catalog.messages.get(key)
    if message is None:
        known = load_catalog(REFERENCE_LANGUAGE).messages.keys()
        raise UnknownMessageError(key, difflib.get_close_matches(key, known, n=3, cutoff=0.8))
    missing = message.params - params.keys()
    if missing:
        raise MissingParameterError(key, missing, message.params)
    unexpected = params.keys() - message.params
    if unexpected:
        raise UnexpectedParameterError(key, unexpected, message.params)
    shown = {name: _shown(key, name, value, language) for name, value in params.items()}
    found = catalog.translations
    if message.plural_by is None or message.msgid_plural is None:
        text = found.pgettext(key, message.msgid)
    else:
        number = params[message.plural_by]
        if not is_int(number):
            raise ParameterTypeError(key, message.plural_by, number, "a whole number (int)")
        exact = message.exact.get(number)
        if exact is not None:
            text = found.pgettext(f"{key}={number}", exact[0])
        else:
            text = found.npgettext(key, message.msgid, message.msgid_plural, number)
    return text.format(**shown)


def message_keys() -> tuple[str, ...]:
    """Every message key, in the reference catalog's order."""
    return tuple(load_catalog(REFERENCE_LANGUAGE).messages)


class Translator:
    """The messages of one language, for a screen to hold: ``Translator("it").t("play.spit")``.
    Switching language means making a new one (cheap: catalogs are read once per process).
    Raises :class:`~cabinet.i18n.errors.UnknownLanguageError` for an unknown language."""

    def __init__(self, language: str) -> None:
        load_catalog(language)
        self.language = language

    @property
    def name(self) -> str:
        """The language's own name ("Suomi")."""
        return LANGUAGE_NAMES[self.language]

    def t(self, key: str, **params: object) -> str:
        """The message ``key`` with ``params``; see :func:`translate`."""
        return translate(key, self.language, **params)

    def decimal(self, value: float, places: int = 1) -> str:
        """``value`` with ``places`` decimals in this language's style."""
        return format_decimal(value, self.language, places)

    def __repr__(self) -> str:
        return f"Translator({self.language!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Translator) and other.language == self.language

    def __hash__(self) -> int:
        return hash(self.language)
