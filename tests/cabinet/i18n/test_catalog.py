"""The catalogs: complete in every language, same parameters, well-formed entries."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

from cabinet.i18n import (
    LANGUAGE_NAMES,
    LANGUAGES,
    PARAMETERS,
    CatalogError,
    UnknownLanguageError,
    catalog_problems,
    translate,
)
from cabinet.i18n.catalog import Catalog, fields, parse_catalog
from tests.cabinet.i18n.conftest import entry

# The keys the display and the flow call, with the parameters each takes.
REQUIRED: dict[str, set[str]] = {
    "attract.press_any_button": set(),
    "attract.howto.1": set(),
    "attract.howto.2": set(),
    "attract.howto.3": set(),
    "attract.howto.4": set(),
    "attract.demo": set(),
    "join.press_to_join": {"player"},
    "join.ready": {"player"},
    "join.cpu_in": {"seconds"},
    "join.waiting_for_opponent": set(),
    "play.player": {"player"},
    "play.cpu": set(),
    "play.ready": set(),
    "play.spit": set(),
    "play.stuck": set(),
    "play.deck": {"count"},
    "play.beaten_by": {"ms"},
    "play.tie": set(),
    "play.race_first": {"name", "ms"},
    "play.button_stuck": {"button"},
    "button.slot": {"n"},
    "button.pile": {"n"},
    "gameover.wins": {"player"},
    "gameover.cpu_wins": set(),
    "gameover.draw": set(),
    "gameover.cards_left": {"count"},
    "gameover.plays": {"count"},
    "gameover.fastest_play": {"ms"},
    "gameover.closest_race": {"ms"},
    "gameover.closest_race_lost": {"ms"},
    "gameover.closest_race_tie": set(),
    "gameover.pressed_at": {"value"},
    "gameover.no_races": set(),
    "gameover.match_score": {"score0", "score1"},
    "gameover.best_of": {"n"},
    "gameover.match_winner": {"player"},
    "gameover.cpu_match_winner": set(),
    "gameover.abandoned": set(),
    **{f"cpu.level.{level}": set() for level in range(1, 6)},
    "lights.board_missing": set(),
}

# Messages that may read the same as in English (words the languages borrowed).
SAME_AS_ENGLISH: dict[str, set[str]] = {
    "it": {"attract.demo", "play.cpu", "service.confirm.no"},
    "nl": {"attract.demo", "play.cpu", "cpu.level.1", "cpu.level.4"},
    "fi": {"attract.demo"},
    "pt": {"attract.demo", "play.cpu", "cpu.level.2"},
    "hu": set(),
}

SPIT_CALL = {
    "en": ("Ready…", "Spit!"),
    "it": ("Pronti…", "Sputa!"),
    "nl": ("Klaar…", "Spuug!"),
    "fi": ("Valmiina…", "Sylje!"),
    "pt": ("Pronto…", "Cuspa!"),
    "hu": ("Kész…", "Köpj!"),
}


def test_the_six_languages_in_order_with_their_own_names() -> None:
    assert LANGUAGES == ("en", "it", "nl", "fi", "pt", "hu")
    assert [LANGUAGE_NAMES[code] for code in LANGUAGES] == [
        "English",
        "Italiano",
        "Nederlands",
        "Suomi",
        "Português",
        "Magyar",
    ]


def test_every_key_in_every_language_with_the_same_parameters(
    catalogs: dict[str, Catalog],
) -> None:
    assert catalog_problems(catalogs) == []
    for language, catalog in catalogs.items():
        assert catalog.name == LANGUAGE_NAMES[language]
        for key, params in REQUIRED.items():
            assert key in catalog.messages, f"{language} lacks {key}"
            assert catalog.messages[key].params == params, (language, key)


def test_catalog_problems_finds_what_is_wrong(raw_catalogs: dict[str, polib.POFile]) -> None:
    raw_catalogs["it"].remove(entry(raw_catalogs["it"], "play.tie"))
    entry(raw_catalogs["fi"], "play.deck").msgstr_plural[1] = "{n} korttia"
    raw_catalogs["nl"].append(polib.POEntry(msgctxt="play.extra", msgid="Extra", msgstr="Extra"))
    entry(raw_catalogs["pt"], "play.cpu").msgstr = "CPU {colour}"
    raw_catalogs["hu"].metadata["X-Language-Name"] = "Hungarian"
    entry(raw_catalogs["it"], "play.stuck").msgid = "Stuck!"  # English changed since
    parsed = {
        language: parse_catalog(data, language, where=f"{language}.po")
        for language, data in raw_catalogs.items()
    }
    problems = catalog_problems(parsed)
    assert "it: missing 'play.tie'" in problems
    assert "fi: 'play.deck' takes ['count', 'n'], en takes ['count']" in problems
    assert "nl: 'play.extra' is not in the en catalog" in problems
    assert any(p.startswith("pt: 'play.cpu' takes 'colour'") for p in problems)
    assert "hu: name 'Hungarian', expected 'Magyar'" in problems
    assert "it: 'play.stuck' translates 'Stuck!', but the en text is now 'Stuck'" in problems
    assert len(problems) == 7  # pt's 'colour' also differs from English's parameters


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_translations_are_not_english_left_in_place(
    language: str, catalogs: dict[str, Catalog]
) -> None:
    english = catalogs["en"].messages
    same = {
        key
        for key, message in catalogs[language].messages.items()
        if (message.forms, message.exact) == (english[key].forms, english[key].exact)
    }
    assert same == SAME_AS_ENGLISH[language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_how_to_card_uses_the_same_call_as_the_game(language: str) -> None:
    ready, spit = SPIT_CALL[language]
    assert translate("play.ready", language) == ready
    assert translate("play.spit", language) == spit
    card = translate("attract.howto.4", language)
    assert f"{ready} {spit[0].lower()}{spit[1:]}" in card


@pytest.mark.parametrize("language", LANGUAGES)
def test_labels_fit_a_narrow_box(language: str) -> None:
    """Labels drawn beside cards stay short, so the display's layout holds in all six."""
    labels = ["play.cpu", "play.ready", "play.spit", "play.stuck", "play.tie"]
    labels += [f"cpu.level.{level}" for level in range(1, 6)]
    for key in labels:
        assert len(translate(key, language)) <= 12, (language, key)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("plain", set()), ("{count} of {n}", {"count", "n"}), ("{{count}}", set())],
)
def test_fields_reads_plain_names(text: str, expected: set[str]) -> None:
    assert fields(text, where="test") == expected


@pytest.mark.parametrize("text", ["{0}", "{}", "{a.b}", "{n:>3}", "{n!r}", "{count", "x}", "{N}"])
def test_fields_refuses_anything_but_plain_names(text: str) -> None:
    with pytest.raises(CatalogError):
        fields(text, where="test")


def plural(po: polib.POFile, **change: object) -> polib.POFile:
    """``po`` with its play.deck entry changed (``comment``, ``msgstr_plural``...)."""
    deck = entry(po, "play.deck")
    for name, value in change.items():
        setattr(deck, name, value)
    return po


@pytest.mark.parametrize(
    ("language", "change", "complaint"),
    [
        ("fi", {"msgstr_plural": {1: "{count} korttia"}}, "lacks the form(s) msgstr[0]"),
        ("en", {"msgstr_plural": {0: "a", 1: "b", 2: "c"}}, "msgstr[2] is beyond"),
        ("hu", {"msgstr_plural": {0: "a", 1: "b"}}, "msgstr[1] is beyond the header's nplurals=1"),
        ("en", {"comment": ""}, 'needs the comment "#. plural: NAME"'),
        ("en", {"comment": "plural: Count"}, 'needs the comment "#. plural: NAME"'),
        ("en", {"flags": ["fuzzy"]}, "is marked fuzzy"),
        ("en", {"msgctxt": "play.deck=03"}, "neither a key nor an exact form"),
    ],
)
def test_malformed_plural_entries_are_refused(
    language: str,
    change: dict[str, object],
    complaint: str,
    raw_catalogs: dict[str, polib.POFile],
) -> None:
    po = plural(raw_catalogs[language], **change)
    with pytest.raises(CatalogError, match=r"'play\.deck") as caught:
        parse_catalog(po, language, where="x.po")
    assert complaint in str(caught.value)


def test_an_exact_form_needs_its_plural_message(raw_catalogs: dict[str, polib.POFile]) -> None:
    po = raw_catalogs["fi"]
    po.append(polib.POEntry(msgctxt="play.missing=3", msgid="x", msgstr="y"))
    with pytest.raises(CatalogError, match=r"exact forms of 'play\.missing', which the catalog"):
        parse_catalog(po, "fi", where="fi.po")
    po = raw_catalogs["hu"]
    po.append(polib.POEntry(msgctxt="play.spit=3", msgid="x", msgstr="y"))
    with pytest.raises(CatalogError, match=r"'play\.spit' has exact forms but no plural forms"):
        parse_catalog(po, "hu", where="hu.po")


def test_a_fuzzy_exact_form_is_refused_not_shown_in_english(
    raw_catalogs: dict[str, polib.POFile],
) -> None:
    """gettext leaves fuzzy entries out, so a fuzzy exact form would read as English."""
    po = raw_catalogs["fi"]
    entry(po, "gameover.best_of=3").flags.append("fuzzy")
    with pytest.raises(CatalogError, match=r"'gameover\.best_of=3' is marked fuzzy"):
        parse_catalog(po, "fi", where="fi.po")


def test_a_plural_formula_beyond_its_forms_is_refused(
    raw_catalogs: dict[str, polib.POFile],
) -> None:
    """``plural=n`` gives form 5 for 5 cards: gettext would miss it and show English."""
    po = raw_catalogs["fi"]
    po.metadata["Plural-Forms"] = "nplurals=2; plural=n;"
    with pytest.raises(CatalogError, match="gives 2 form 2, beyond its nplurals=2"):
        parse_catalog(po, "fi", where="fi.po")


def test_a_catalog_for_another_language_is_refused(
    raw_catalogs: dict[str, polib.POFile],
) -> None:
    with pytest.raises(CatalogError, match="the header's 'Language' is 'it', not 'en'"):
        parse_catalog(raw_catalogs["it"], "en", where="en.po")
    with pytest.raises(UnknownLanguageError):
        parse_catalog(raw_catalogs["it"], "de", where="de.po")
    del raw_catalogs["fi"].metadata["Plural-Forms"]
    with pytest.raises(CatalogError, match="the header lacks 'Plural-Forms'"):
        parse_catalog(raw_catalogs["fi"], "fi", where="fi.po")


def test_the_languages_page_lists_every_key_and_parameter(catalogs: dict[str, Catalog]) -> None:
    page = (Path(__file__).resolve().parents[3] / "docs" / "languages.md").read_text(
        encoding="utf-8"
    )
    for key in catalogs["en"].messages:
        assert f"`{key}`" in page, key
    for name in PARAMETERS:
        assert f"`{name}`" in page, name
