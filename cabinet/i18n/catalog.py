"""Message catalogs: one JSON file per language in ``cabinet/i18n/catalog/``, parsed and
checked when first used.

A catalog file holds::

    {
      "language": "fi",
      "name": "Suomi",
      "decimal_separator": ",",
      "messages": {
        "play.spit": "Sylje!",
        "play.deck": {"plural": "count", "one": "{count} kortti", "other": "{count} korttia"}
      }
    }

A message is a string, or a plural entry: ``"plural"`` names the whole-number parameter that
chooses the form, then one form per plural category of the language (see
:mod:`cabinet.i18n.plurals`) and optional exact forms such as ``"=3"``. Parameters are plain
``{name}`` fields; ``{{`` and ``}}`` write braces.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from cabinet.i18n.errors import CatalogError, UnknownLanguageError
from cabinet.i18n.parameters import PARAMETERS
from cabinet.i18n.plurals import PLURAL_CATEGORIES

LANGUAGES: tuple[str, ...] = ("en", "it", "nl", "fi", "pt", "hu")
"""The languages the cabinet speaks, as lower-case ISO 639-1 codes; English first."""

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "it": "Italiano",
    "nl": "Nederlands",
    "fi": "Suomi",
    "pt": "Português",
    "hu": "Magyar",
}
"""Each language's name in that language, as the service menu lists it."""

REFERENCE_LANGUAGE = "en"
"""The language whose catalog defines the keys and their parameters."""

_EXACT_FORM = re.compile(r"=(0|[1-9][0-9]*)")
_PARAMETER = re.compile(r"[a-z_][a-z0-9_]*")


@dataclass(frozen=True)
class Message:
    """One message of one language.

    ``forms`` maps a plural category or exact value (``"one"``, ``"other"``, ``"=3"``) to its
    text; a message without plural forms has the single form ``"other"`` and
    ``plural_by=None``. ``params`` is every parameter the message takes, across its forms."""

    key: str
    forms: Mapping[str, str]
    plural_by: str | None
    params: frozenset[str]


@dataclass(frozen=True)
class Catalog:
    """Every message of one language, with the conventions numbers are shown with."""

    language: str
    name: str
    decimal_separator: str
    messages: Mapping[str, Message]


def fields(text: str, *, where: str) -> frozenset[str]:
    """The ``{name}`` fields of a catalog text. Raises :class:`CatalogError` for anything
    but plain names (``{0}``, ``{}``, ``{a.b}``, ``{n:>3}``, ``{n!r}``) or unbalanced braces,
    so that every message formats the same way whatever is passed in."""
    names: set[str] = set()
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as error:
        raise CatalogError(f"{where}: {error} in {text!r} (write {{{{ for a brace)") from None
    for _literal, name, spec, conversion in parsed:
        if name is None:
            continue
        if not _PARAMETER.fullmatch(name) or spec or conversion:
            raise CatalogError(
                f"{where}: field {{{name}{'!' + conversion if conversion else ''}"
                f"{':' + spec if spec else ''}}} in {text!r}; only plain lower-case "
                "names like {count} are allowed"
            )
        names.add(name)
    return frozenset(names)


def parse_message(key: str, entry: object, language: str, *, where: str) -> Message:
    """One catalog entry (a string or a plural object) as a :class:`Message`."""
    here = f"{where}: message {key!r}"
    if isinstance(entry, str):
        return Message(key, {"other": entry}, None, fields(entry, where=here))
    if not isinstance(entry, dict):
        raise CatalogError(f"{here} is {type(entry).__name__}; expected a string or an object")
    plural_by = entry.get("plural")
    if not isinstance(plural_by, str) or not _PARAMETER.fullmatch(plural_by):
        raise CatalogError(
            f'{here}: a plural entry needs "plural": the name of the number parameter that '
            f'chooses the form (e.g. "count"); got {plural_by!r}'
        )
    categories = PLURAL_CATEGORIES[language]
    forms: dict[str, str] = {}
    params: set[str] = {plural_by}
    for form, text in entry.items():
        if form == "plural":
            continue
        if form not in categories and not _EXACT_FORM.fullmatch(form):
            raise CatalogError(
                f"{here}: form {form!r} is neither a plural category of {language!r} "
                f'({", ".join(sorted(categories))}) nor an exact value like "=3"'
            )
        if not isinstance(text, str):
            raise CatalogError(f"{here}: form {form!r} must be a string, not {text!r}")
        params |= fields(text, where=f"{here} form {form!r}")
        forms[form] = text
    missing = categories - forms.keys()
    if missing:
        raise CatalogError(
            f"{here}: plural entry lacks the form(s) {', '.join(sorted(missing))}; "
            f"{language!r} needs {', '.join(sorted(categories))}"
        )
    return Message(key, forms, plural_by, frozenset(params))


def parse_catalog(data: object, language: str, *, where: str) -> Catalog:
    """A decoded catalog file as a :class:`Catalog`; ``where`` names it in error messages.
    Raises :class:`CatalogError` for any structural problem."""
    if language not in PLURAL_CATEGORIES:
        raise UnknownLanguageError(language, LANGUAGES)
    if not isinstance(data, dict):
        raise CatalogError(f"{where}: expected a JSON object at the top")
    if data.get("language") != language:
        raise CatalogError(f'{where}: "language" is {data.get("language")!r}, not {language!r}')
    name = data.get("name")
    separator = data.get("decimal_separator")
    messages = data.get("messages")
    if not isinstance(name, str) or not name:
        raise CatalogError(f'{where}: "name" must be the language\'s own name')
    if separator not in (".", ","):
        raise CatalogError(f'{where}: "decimal_separator" must be "." or ","')
    if not isinstance(messages, dict):
        raise CatalogError(f'{where}: "messages" must be an object of key → message')
    parsed = {
        key: parse_message(key, entry, language, where=where) for key, entry in messages.items()
    }
    return Catalog(language, name, separator, parsed)


@cache
def load_catalog(language: str) -> Catalog:
    """The shipped catalog of ``language``, read and checked once per process.
    Raises :class:`UnknownLanguageError` for a language the cabinet does not speak."""
    if language not in LANGUAGES:
        raise UnknownLanguageError(language, LANGUAGES)
    resource = resources.files("cabinet.i18n").joinpath("catalog", f"{language}.json")
    where = f"cabinet/i18n/catalog/{language}.json"
    try:
        data = json.loads(resource.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise CatalogError(f"{where}: not valid JSON: {error}") from None
    return parse_catalog(data, language, where=where)


def catalog_problems(catalogs: Mapping[str, Catalog]) -> list[str]:
    """Every disagreement between the catalogs and the reference (English) one: keys missing
    or extra, parameters that differ or are not in
    :data:`~cabinet.i18n.parameters.PARAMETERS`, a name other than :data:`LANGUAGE_NAMES`'s.
    An empty list means every message can be shown in every language."""
    problems: list[str] = []
    reference = catalogs[REFERENCE_LANGUAGE].messages
    for language, catalog in catalogs.items():
        if catalog.name != LANGUAGE_NAMES.get(language):
            problems.append(
                f"{language}: name {catalog.name!r}, expected {LANGUAGE_NAMES.get(language)!r}"
            )
        for key in sorted(reference.keys() - catalog.messages.keys()):
            problems.append(f"{language}: missing {key!r}")
        for key in sorted(catalog.messages.keys() - reference.keys()):
            problems.append(f"{language}: {key!r} is not in the {REFERENCE_LANGUAGE} catalog")
        for key, message in sorted(catalog.messages.items()):
            for name in sorted(message.params - PARAMETERS.keys()):
                problems.append(
                    f"{language}: {key!r} takes {name!r}, which is not in "
                    "cabinet.i18n.parameters.PARAMETERS"
                )
        for key in sorted(reference.keys() & catalog.messages.keys()):
            want, got = reference[key].params, catalog.messages[key].params
            if want != got:
                problems.append(
                    f"{language}: {key!r} takes {sorted(got)}, {REFERENCE_LANGUAGE} "
                    f"takes {sorted(want)}"
                )
    return problems
