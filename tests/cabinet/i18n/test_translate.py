"""translate() and Translator: plural forms, numbers, and precise errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.i18n import (
    LANGUAGES,
    MissingParameterError,
    ParameterTypeError,
    TranslationError,
    Translator,
    UnexpectedParameterError,
    UnknownLanguageError,
    UnknownMessageError,
    format_decimal,
    load_catalog,
    message_keys,
    translate,
)


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [
        ("en", 0, "0 cards left"),
        ("en", 1, "1 card left"),
        ("en", 2, "2 cards left"),
        ("it", 1, "1 carta rimasta"),
        ("it", 3, "3 carte rimaste"),
        ("nl", 1, "1 kaart over"),
        ("nl", 12, "12 kaarten over"),
        ("fi", 1, "1 kortti jäljellä"),
        ("fi", 0, "0 korttia jäljellä"),
        ("fi", 7, "7 korttia jäljellä"),
        ("pt", 1, "1 carta restante"),
        ("pt", 4, "4 cartas restantes"),
        # Hungarian keeps the singular noun after a number.
        ("hu", 1, "1 lap maradt"),
        ("hu", 5, "5 lap maradt"),
    ],
)
def test_cards_left_takes_the_plural_form_of_its_language(
    language: str, count: int, expected: str
) -> None:
    assert translate("gameover.cards_left", language, count=count) == expected


@pytest.mark.parametrize(
    ("language", "n", "expected"),
    [
        ("en", 1, "Single game"),
        ("en", 3, "Best of 3"),
        ("fi", 3, "Paras kolmesta"),
        ("fi", 5, "Paras viidestä"),
        ("fi", 7, "Paras 7 pelistä"),
        ("hu", 1, "Egyetlen játszma"),
        ("hu", 3, "Két nyert játszmáig"),
        ("hu", 5, "Három nyert játszmáig"),
        ("hu", 7, "7 játszmás mérkőzés"),
    ],
)
def test_exact_forms_win_over_the_category(language: str, n: int, expected: str) -> None:
    assert translate("gameover.best_of", language, n=n) == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_forms_come_from_the_catalog_header(language: str) -> None:
    """Hungarian has one form for every count; the others one for 1 and one for the rest
    (0 included), as each catalog's Plural-Forms says."""
    catalog = load_catalog(language)
    many = {catalog.plural_index(n) for n in (0, 2, 5, 11, 21, 101)}
    assert (catalog.plural_index(1), many) == ((0, {0}) if language == "hu" else (0, {1}))


@given(count=st.integers(min_value=0, max_value=10_000), language=st.sampled_from(LANGUAGES))
def test_every_count_is_shown_and_only_one_reads_as_singular(count: int, language: str) -> None:
    text = translate("play.deck", language, count=count)
    assert text.split()[0] == str(count)
    singular = translate("play.deck", language, count=1).split()[1:]
    assert (text.split()[1:] == singular) == (count == 1 or language == "hu")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Beaten by 12.3 ms"),
        ("it", "Battuto sul tempo di 12,3 ms"),
        ("fi", "12,3 ms liian myöhään"),
        ("hu", "12,3 ms-mal lekésted"),
    ],
)
def test_milliseconds_use_the_language_decimal_mark(language: str, expected: str) -> None:
    assert translate("play.beaten_by", language, ms=12.34) == expected


def test_milliseconds_given_as_text_are_shown_as_given() -> None:
    assert translate("play.beaten_by", "it", ms="12.3") == "Battuto sul tempo di 12.3 ms"


def test_format_decimal() -> None:
    assert format_decimal(0.25, "en", 2) == "0.25"
    assert format_decimal(1234.56, "pt") == "1234,6"
    assert format_decimal(3, "nl") == "3,0"


def test_messages_compose() -> None:
    it = Translator("it")
    assert it.t("play.button_stuck", button=it.t("button.pile", n=2)) == (
        "Pulsante incastrato: Pila 2"
    )
    assert Translator("hu").t("play.player", player=2) == "2. játékos"


def test_unknown_language_is_a_value_error_that_lists_the_languages() -> None:
    for language in ("de", "EN", "english", ""):
        with pytest.raises(UnknownLanguageError) as caught:
            translate("play.spit", language)
        assert isinstance(caught.value, ValueError)
        assert isinstance(caught.value, TranslationError)
        assert "en, it, nl, fi, pt, hu" in str(caught.value)
    with pytest.raises(UnknownLanguageError):
        Translator("xx")


def test_unknown_key_is_a_key_error_that_suggests_the_right_one() -> None:
    with pytest.raises(UnknownMessageError) as caught:
        translate("play.spitt", "fi")
    assert isinstance(caught.value, KeyError)
    assert str(caught.value) == (
        "no message 'play.spitt' in the catalogs; did you mean play.spit? "
        "(docs/languages.md lists them)"
    )
    with pytest.raises(KeyError):
        translate("nothing.like.this", "en")


def test_missing_parameter() -> None:
    with pytest.raises(MissingParameterError) as caught:
        translate("gameover.match_score", "nl", score0=1)
    assert isinstance(caught.value, ValueError)
    assert caught.value.missing == ("score1",)
    assert "needs the parameter(s) score1; it takes exactly: score0, score1" in str(caught.value)


def test_unexpected_parameter() -> None:
    with pytest.raises(UnexpectedParameterError, match=r"does not take the parameter\(s\) cuont"):
        translate("play.deck", "en", count=1, cuont=1)
    with pytest.raises(UnexpectedParameterError):
        translate("play.spit", "en", player=1)


@pytest.mark.parametrize(
    ("key", "params"),
    [
        ("play.deck", {"count": "3"}),
        ("play.deck", {"count": 2.0}),
        ("play.deck", {"count": True}),
        ("play.player", {"player": "one"}),
        ("play.beaten_by", {"ms": None}),
        ("play.button_stuck", {"button": 3}),
    ],
)
def test_parameters_of_the_wrong_type(key: str, params: dict[str, object]) -> None:
    # Hungarian's plain string and English's plural entry must both refuse them.
    for language in ("en", "hu"):
        with pytest.raises(ParameterTypeError):
            translate(key, language, **params)


def test_translator_holds_a_language() -> None:
    fi = Translator("fi")
    assert fi.language == "fi"
    assert fi.name == "Suomi"
    assert fi.t("play.stuck") == "Jumissa"
    assert fi.decimal(2.25, 2) == "2,25"
    assert repr(fi) == "Translator('fi')"
    assert fi == Translator("fi")
    assert fi != Translator("hu")
    assert len({fi, Translator("fi")}) == 1


def test_message_keys_starts_with_the_attract_screen() -> None:
    keys = message_keys()
    assert keys[0] == "attract.press_any_button"
    assert len(keys) == len(set(keys))
    assert len([k for k in keys if not k.startswith("service.")]) == 67
    assert keys.index("service.title") == 45  # the service menu's come after the game's
