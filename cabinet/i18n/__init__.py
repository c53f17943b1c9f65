"""The cabinet's six languages: gettext message catalogs (``.po``, plural forms from each
catalog's header) and the bundled font.

>>> from cabinet.i18n import Translator, translate
>>> translate("play.spit", "it")
'Sputa!'
>>> Translator("hu").t("gameover.cards_left", count=3)
'3 lap maradt'

Every key and parameter is listed in docs/languages.md.
"""

from __future__ import annotations

from cabinet.i18n.catalog import LANGUAGE_NAMES, LANGUAGES, catalog_problems, load_catalog
from cabinet.i18n.errors import (
    CatalogError,
    MessageParameterError,
    MissingParameterError,
    ParameterTypeError,
    TranslationError,
    UnexpectedParameterError,
    UnknownLanguageError,
    UnknownMessageError,
)
from cabinet.i18n.font import font_path, missing_glyphs
from cabinet.i18n.parameters import PARAMETERS
from cabinet.i18n.translate import Translator, format_decimal, message_keys, translate

__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "PARAMETERS",
    "CatalogError",
    "MessageParameterError",
    "MissingParameterError",
    "ParameterTypeError",
    "TranslationError",
    "Translator",
    "UnexpectedParameterError",
    "UnknownLanguageError",
    "UnknownMessageError",
    "catalog_problems",
    "font_path",
    "format_decimal",
    "load_catalog",
    "message_keys",
    "missing_glyphs",
    "translate",
]
