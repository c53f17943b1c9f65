"""Finding the line of each key in a TOML document."""

from __future__ import annotations

import tomllib

from hypothesis import given
from hypothesis import strategies as st

from wiring.tomllines import KeyPath, key_lines, line_of


def test_tables_keys_and_array_elements() -> None:
    text = (
        "# a comment with slot1 = 3 in it\n"  # 1
        "allow_reserved = [\n"  # 2
        "  14,  # first\n"  # 3
        "\n"  # 4
        "  15,\n"  # 5
        "]\n"  # 6
        "[player1]\n"  # 7
        "slot1 = 17\n"  # 8
        '"pile2" = 13 # quoted key\n'  # 9
        "\n"  # 10
        "[ 'operator' ]\n"  # 11
        "door = false\n"  # 12
    )
    lines = key_lines(text)
    assert lines[("allow_reserved",)] == 2
    assert lines[("allow_reserved", 0)] == 3
    assert lines[("allow_reserved", 1)] == 5
    assert lines[("player1",)] == 7
    assert lines[("player1", "slot1")] == 8
    assert lines[("player1", "pile2")] == 9
    assert lines[("operator",)] == 11
    assert lines[("operator", "door")] == 12
    assert ("slot1",) not in lines  # the comment is not a key


def test_dotted_keys_and_inline_tables() -> None:
    text = (
        "player1.slot1 = 17\n"  # 1
        'player2 = { slot1 = 18, "pile1" = 12 }\n'  # 2
        "operator . test = 19\n"  # 3
        "[player1]\n"  # 4 (invalid after the dotted key, but the scanner does not judge)
    )
    lines = key_lines(text)
    assert lines[("player1", "slot1")] == 1
    assert lines[("player2",)] == 2
    assert lines[("player2", "slot1")] == 2
    assert lines[("player2", "pile1")] == 2
    assert lines[("operator", "test")] == 3
    assert lines[("operator",)] == 3


def test_strings_that_look_like_keys_are_skipped() -> None:
    text = (
        'note = """\n'  # 1
        "slot1 = 4\n"  # 2
        '"""\n'  # 3
        "other = '''\n"  # 4
        "[player1]\n"  # 5
        "'''\n"  # 6
        'esc = "a \\" slot2 = 5"\n'  # 7
        "[player2]\n"  # 8
        "slot2 = 23\n"  # 9
    )
    tomllib.loads(text)  # the document is valid
    lines = key_lines(text)
    assert ("slot1",) not in lines
    assert ("player1",) not in lines
    assert lines[("esc",)] == 7
    assert lines[("player2", "slot2")] == 9


def test_array_of_tables_are_indexed() -> None:
    lines = key_lines("[[pin]]\nbcm = 4\n[[pin]]\nbcm = 21\n")
    assert lines[("pin", 0, "bcm")] == 2
    assert lines[("pin", 1, "bcm")] == 4


def test_a_broken_document_gives_what_came_before_the_fault() -> None:
    lines = key_lines("[player1]\nslot1 = 17\n[player2\nslot1 = 3\n")
    assert lines[("player1", "slot1")] == 2


def test_line_of_falls_back_to_the_enclosing_key() -> None:
    lines: dict[KeyPath, int] = {("allow_reserved",): 3, ("player1",): 5}
    assert line_of(lines, ("allow_reserved", 2)) == 3
    assert line_of(lines, ("player1", "slot1")) == 5
    assert line_of(lines, ("player2", "slot1")) is None
    assert line_of(lines, ()) is None


KEYS = st.sampled_from(["slot1", "slot2", "pile1", "test", "door", "a-b", "x_1"])
VALUES = st.sampled_from(["17", "false", '"s = 1"', "[1, 2]", "{ k = 1 }", "1.5", "'lit'"])


@given(
    st.dictionaries(
        st.sampled_from(["player1", "player2", "operator"]),
        st.dictionaries(KEYS, VALUES, min_size=1, max_size=5),
        min_size=1,
        max_size=3,
    ),
    st.lists(st.sampled_from(["", "# comment", "   "]), min_size=1, max_size=3),
    st.booleans(),
)
def test_every_key_is_found_on_the_line_it_was_written(
    tables: dict[str, dict[str, str]], fillers: list[str], dotted: bool
) -> None:
    out: list[str] = []
    expected: dict[KeyPath, int] = {}
    for n, (table, entries) in enumerate(tables.items()):
        if not dotted:
            out.append(f"[{table}]")
            expected[(table,)] = len(out)
        for key, value in entries.items():
            out.append(fillers[n % len(fillers)])
            prefix = f"{table}." if dotted else ""
            out.append(f"{prefix}{key} = {value}  # {key} = 0")
            expected[(table, key)] = len(out)
    text = "\n".join(out) + "\n"
    tomllib.loads(text)  # a valid document
    lines = key_lines(text)
    for path, line in expected.items():
        assert lines[path] == line, (path, text)
