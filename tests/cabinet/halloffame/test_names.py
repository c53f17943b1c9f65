"""Initials: the alphabet, and the blocklist that shows rude words as ???."""

from __future__ import annotations

import pytest

from cabinet.halloffame.names import (
    ALPHABET,
    BLANK,
    BLOCKED,
    InitialsError,
    blocked,
    check_initials,
    shown_initials,
)


@pytest.mark.parametrize("word", sorted(BLOCKED))
def test_every_blocked_word_shows_as_question_marks(word: str) -> None:
    assert shown_initials(word) == "???"


@pytest.mark.parametrize(
    ("initials", "is_blocked"),
    [("A55", True), ("F K", False), ("K K", False), ("C M", False), ("KKK", True),
     ("ABC", False), ("JOE", False), ("SAM", False), ("A S", False), ("AS5", True), ("4SS", True)],
)  # fmt: skip
def test_look_alike_digits_and_spaces_do_not_get_round_it(initials: str, is_blocked: bool) -> None:
    assert blocked(initials) is is_blocked


def test_blank_initials_show_as_dashes() -> None:
    assert shown_initials(BLANK) == "---"
    assert shown_initials("AL ") == "AL "


def test_only_three_characters_of_the_alphabet() -> None:
    assert len(ALPHABET) == 37
    assert check_initials("A1 ") == "A1 "
    for bad in ("ab", "abc", "AB!", "ABCD", ""):
        with pytest.raises(InitialsError):
            check_initials(bad)
