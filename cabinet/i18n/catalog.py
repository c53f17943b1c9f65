"""Message catalogs: one gettext catalog (``.po``) per language in
``cabinet/i18n/catalog/``, read, checked and compiled when first used, and looked up
through the standard library's :mod:`gettext`.

Each message's context (``msgctxt``) is its key; ``msgid`` is the English text, which
translators' tools (Poedit, Weblate) show beside the translation::

    #, python-brace-format
    msgctxt "play.spit"
    msgid "Spit!"
    msgstr "Sylje!"

A message that shows a number has plural forms, chosen by the ``Plural-Forms`` formula in
the catalog's header; an extracted comment names the whole-number parameter they count::

    #. plural: count
    #, python-brace-format
    msgctxt "play.deck"
    msgid "{count} card"
    msgid_plural "{count} cards"
    msgstr[0] "{count} kortti"
    msgstr[1] "{count} korttia"

Where a language's grammar wants its own words for one number, an *exact form* is a
message of its own keyed ``KEY=N`` (``gameover.best_of=3``); it wins over the plural
forms for that number. Parameters are plain ``{name}`` fields; ``{{`` and ``}}`` write
braces. The header also holds the language's own name (``X-Language-Name``) and its
decimal mark (``X-Decimal-Separator``).
"""

from __future__ import annotations

import gettext
import io
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

import polib

from cabinet.i18n.errors import CatalogError, UnknownLanguageError
from cabinet.i18n.parameters import PARAMETERS

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

_EXACT_KEY = re.compile(r"(?P<key>[^=]+)=(?P<n>0|[1-9][0-9]*)")
_PARAMETER = re.compile(r"[a-z_][a-z0-9_]*")
_PLURAL_BY = re.compile(r"^plural: (?P<name>\S+)$", re.MULTILINE)
_NPLURALS = re.compile(r"nplurals\s*=\s*(?P<n>[1-9])\s*;")
PLURAL_CHECKED = 1000
"""Every count below this is checked to choose a form the catalog has (the cabinet shows
counts of cards, plays, seconds and entries, all far below it)."""


@dataclass(frozen=True)
class Message:
    """One message of one language, as its catalog holds it.

    ``forms`` is its text (one) or its plural forms in the catalog's order; ``exact``
    the exact forms, by number (each ``(msgid, text)``). ``params`` is every parameter
    the message takes, across its forms; ``plural_by`` the one that chooses the form
    (``None``: a message without plural forms)."""

    key: str
    msgid: str
    msgid_plural: str | None
    forms: tuple[str, ...]
    exact: Mapping[int, tuple[str, str]]
    plural_by: str | None
    params: frozenset[str]


@dataclass(frozen=True)
class Catalog:
    """Every message of one language, with the conventions numbers are shown with, and
    the compiled catalog (:class:`gettext.GNUTranslations`) they are looked up in."""

    language: str
    name: str
    decimal_separator: str
    messages: Mapping[str, Message]
    translations: gettext.GNUTranslations

    def plural_index(self, n: int) -> int:
        """Which plural form the header's ``Plural-Forms`` formula gives ``n``."""
        return int(self.translations.plural(n))  # type: ignore[attr-defined]


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


def _header(po: polib.POFile, name: str, where: str) -> str:
    value = po.metadata.get(name, "").strip()
    if not value:
        raise CatalogError(f"{where}: the header lacks {name!r}")
    return value


def _plural_forms(po: polib.POFile, where: str) -> int:
    match = _NPLURALS.search(_header(po, "Plural-Forms", where))
    if match is None:
        raise CatalogError(f"{where}: 'Plural-Forms' gives no nplurals=N; (N from 1 to 9)")
    return int(match["n"])


def _forms(entry: polib.POEntry, nplurals: int, here: str) -> tuple[str, ...]:
    """A plural entry's forms, ``msgstr[0]`` to ``msgstr[nplurals - 1]``, each given."""
    given = entry.msgstr_plural
    beyond = sorted(int(i) for i in given if int(i) >= nplurals)
    if beyond:
        raise CatalogError(
            f"{here}: msgstr[{beyond[0]}] is beyond the header's nplurals={nplurals}"
        )
    missing = [i for i in range(nplurals) if not given.get(i)]
    if missing:
        raise CatalogError(
            f"{here}: plural entry lacks the form(s) "
            f"{', '.join(f'msgstr[{i}]' for i in missing)}; the header asks for {nplurals}"
        )
    return tuple(given[i] for i in range(nplurals))


def parse_message(
    entry: polib.POEntry, nplurals: int, exact: Mapping[int, tuple[str, str]], *, where: str
) -> Message:
    """One catalog entry (with the exact forms given for its key) as a :class:`Message`."""
    key = entry.msgctxt or ""
    here = f"{where}: message {key!r}"
    if not entry.msgid_plural:
        if not entry.msgstr:
            raise CatalogError(f"{here} is not translated (an empty msgstr)")
        if exact:
            raise CatalogError(f"{here} has exact forms but no plural forms")
        return Message(
            key, entry.msgid, None, (entry.msgstr,), {}, None, fields(entry.msgstr, where=here)
        )
    plural_by = _PLURAL_BY.search(entry.comment or "")
    if plural_by is None or not _PARAMETER.fullmatch(plural_by["name"]):
        raise CatalogError(
            f'{here}: a plural entry needs the comment "#. plural: NAME", naming the number '
            'parameter that chooses the form (e.g. "#. plural: count")'
        )
    forms = _forms(entry, nplurals, here)
    params: set[str] = {plural_by["name"]}
    for k, text in enumerate(forms):
        params |= fields(text, where=f"{here} form msgstr[{k}]")
    for n, (_source, text) in exact.items():
        params |= fields(text, where=f"{here} exact form ={n}")
    return Message(
        key, entry.msgid, entry.msgid_plural, forms, exact, plural_by["name"], frozenset(params)
    )


def parse_catalog(po: polib.POFile, language: str, *, where: str) -> Catalog:
    """A read catalog as a :class:`Catalog`; ``where`` names it in error messages.
    Raises :class:`CatalogError` for any structural problem."""
    if language not in LANGUAGES:
        raise UnknownLanguageError(language, LANGUAGES)
    stated = po.metadata.get("Language")
    if stated != language:
        raise CatalogError(f"{where}: the header's 'Language' is {stated!r}, not {language!r}")
    name = _header(po, "X-Language-Name", where)
    separator = _header(po, "X-Decimal-Separator", where)
    if separator not in (".", ","):
        raise CatalogError(f"{where}: 'X-Decimal-Separator' must be '.' or ','")
    nplurals = _plural_forms(po, where)
    entries = [e for e in po if not e.obsolete]
    exact: dict[str, dict[int, tuple[str, str]]] = {}
    plain: list[polib.POEntry] = []
    for entry in entries:
        key = entry.msgctxt
        if not key:
            raise CatalogError(f"{where}: message {entry.msgid[:40]!r} has no msgctxt (its key)")
        if "fuzzy" in entry.flags:
            raise CatalogError(
                f"{where}: message {key!r} is marked fuzzy: check the translation, then unmark it"
            )
        if "=" in key:
            match = _EXACT_KEY.fullmatch(key)
            if match is None or not entry.msgstr:
                raise CatalogError(
                    f"{where}: message {key!r} is neither a key nor an exact form like 'KEY=3'"
                )
            exact.setdefault(match["key"], {})[int(match["n"])] = (entry.msgid, entry.msgstr)
        else:
            plain.append(entry)
    messages = {
        e.msgctxt: parse_message(e, nplurals, exact.get(e.msgctxt, {}), where=where) for e in plain
    }
    orphans = sorted(exact.keys() - messages.keys())
    if orphans:
        raise CatalogError(f"{where}: exact forms of {orphans[0]!r}, which the catalog lacks")
    try:
        translations = gettext.GNUTranslations(io.BytesIO(po.to_binary()))
    except (OSError, ValueError, SyntaxError) as error:  # a Plural-Forms formula it refuses
        raise CatalogError(f"{where}: gettext cannot read it: {error}") from None
    catalog = Catalog(language, name, separator, messages, translations)
    beyond = next((n for n in range(PLURAL_CHECKED) if catalog.plural_index(n) >= nplurals), None)
    if beyond is not None:  # gettext would miss the form and show the English text
        raise CatalogError(
            f"{where}: 'Plural-Forms' gives {beyond} form {catalog.plural_index(beyond)}, "
            f"beyond its nplurals={nplurals}"
        )
    return catalog


@cache
def load_catalog(language: str) -> Catalog:
    """The shipped catalog of ``language``, read and checked once per process.
    Raises :class:`UnknownLanguageError` for a language the cabinet does not speak."""
    if language not in LANGUAGES:
        raise UnknownLanguageError(language, LANGUAGES)
    resource = resources.files("cabinet.i18n").joinpath("catalog", f"{language}.po")
    where = f"cabinet/i18n/catalog/{language}.po"
    try:
        po = polib.pofile(resource.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CatalogError(f"{where}: not a gettext catalog: {error}") from None
    return parse_catalog(po, language, where=where)


def catalog_problems(catalogs: Mapping[str, Catalog]) -> list[str]:
    """Every disagreement between the catalogs and the reference (English) one: keys missing
    or extra, parameters that differ or are not in
    :data:`~cabinet.i18n.parameters.PARAMETERS`, a name other than :data:`LANGUAGE_NAMES`'s,
    a translation of an English text that has changed since. An empty list means every
    message can be shown in every language."""
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
            want, got = reference[key], catalog.messages[key]
            if want.params != got.params:
                problems.append(
                    f"{language}: {key!r} takes {sorted(got.params)}, {REFERENCE_LANGUAGE} "
                    f"takes {sorted(want.params)}"
                )
            if (want.msgid, want.msgid_plural) != (got.msgid, got.msgid_plural):
                problems.append(
                    f"{language}: {key!r} translates {got.msgid!r:.60}, but the "
                    f"{REFERENCE_LANGUAGE} text is now {want.msgid!r:.60}"
                )
    return problems
