"""The operator's TOML override: good files, and bad ones with the right line and reason."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from wiring.config import load_config, parse_config
from wiring.default import DEFAULT_PIN_MAP
from wiring.errors import (
    ConfigError,
    NotAHeaderGpioError,
    NotAReservedPinError,
    PinUsedTwiceError,
    ReservedPinError,
    WiringError,
)
from wiring.pinmap import OPTIONAL, Control, Function

P1_SLOT1 = Control(Function.SLOT1, 0)
P2_SLOT1 = Control(Function.SLOT1, 1)
DOOR = Control(Function.DOOR)
COIN1 = Control(Function.COIN1)
COIN2 = Control(Function.COIN2)
METER = Control(Function.METER)
LOCKOUT = Control(Function.LOCKOUT)

# -- good files ---------------------------------------------------------------------------


def test_an_empty_file_is_the_default_map() -> None:
    assert parse_config("") == DEFAULT_PIN_MAP
    assert parse_config("# nothing to change\n") == DEFAULT_PIN_MAP


def test_only_the_named_buttons_move() -> None:
    # The default map leaves no GPIO free: the moved buttons go to the UART's.
    pin_map = parse_config(
        "allow_reserved = [14, 15]\n[player1]\nslot1 = 14\n[player2]\npile2 = 15\n"
    )
    expected = DEFAULT_PIN_MAP.pins() | {P1_SLOT1: 14, Control(Function.PILE2, 1): 15}
    assert pin_map.pins() == expected


def test_two_buttons_can_swap_gpios() -> None:
    pin_map = parse_config("[player1]\nslot1 = 18\n[player2]\nslot1 = 17\n")
    assert (pin_map.bcm(P1_SLOT1), pin_map.bcm(P2_SLOT1)) == (18, 17)


def test_door_false_removes_the_door_switch_and_a_number_moves_it() -> None:
    assert parse_config("[operator]\ndoor = false\n").bcm(DOOR) is None
    assert parse_config("[operator]\nmeter = false\ndoor = 21\n").bcm(DOOR) == 21


@pytest.mark.parametrize("control", [DOOR, COIN1, COIN2, METER, LOCKOUT], ids=str)
def test_false_removes_any_optional_line(control: Control) -> None:
    key = control.function.value
    pin_map = parse_config(f"[operator]\n{key} = false\n")
    assert pin_map.bcm(control) is None
    assert pin_map.pins() == {c: b for c, b in DEFAULT_PIN_MAP.pins().items() if c != control}


def test_every_optional_line_can_go_at_once() -> None:
    text = "[operator]\n" + "".join(f"{f.value} = false\n" for f in sorted(OPTIONAL, key=str))
    pin_map = parse_config(text)
    assert len(pin_map) == 14
    assert pin_map.free_gpios() == (4, 20, 21)


def test_the_coin_lines_take_gpio_numbers() -> None:
    text = "[operator]\ndoor = false\ncoin1 = 20\ncoin2 = 4\n"
    pin_map = parse_config(text)
    assert (pin_map.bcm(COIN1), pin_map.bcm(COIN2), pin_map.bcm(DOOR)) == (20, 4, None)
    pin_map = parse_config("[operator]\ncoin1 = false\nlockout = 4\nmeter = 21\n")
    assert (pin_map.bcm(COIN1), pin_map.bcm(LOCKOUT), pin_map.bcm(METER)) == (None, 4, 21)


def test_coin_2_and_the_lockout_on_spi0_as_documented() -> None:
    """The example of wiring.default's docstring: coin 2 and the lockout on SPI0's CE1 and
    CE0, allowed; it is a working file, and the same lines without allowing are refused."""
    import wiring.default

    doc = wiring.default.__doc__
    assert doc is not None
    example = documented_example(doc)
    assert "allow_reserved = [7, 8]" in example
    pin_map = parse_config(example)
    assert pin_map == parse_config("allow_reserved = [7, 8]\n[operator]\ncoin2 = 7\nlockout = 8\n")
    assert (pin_map.bcm(COIN2), pin_map.bcm(LOCKOUT)) == (7, 8)
    assert pin_map.allow_reserved == frozenset({7, 8})
    assert pin_map.pins() == DEFAULT_PIN_MAP.pins() | {COIN2: 7, LOCKOUT: 8}
    error = fails("[operator]\ncoin2 = 7\nlockout = 8\n")
    assert isinstance(error, ReservedPinError)
    assert error.line == 2
    assert "GPIO7 for coin 2 is reserved for SPI0 CE1" in str(error)


def test_allow_reserved_lets_the_map_use_a_bus_pin() -> None:
    pin_map = parse_config("allow_reserved = [14, 15]\n[operator]\ntest = 14\nservice = 15\n")
    assert pin_map.allow_reserved == frozenset({14, 15})
    assert pin_map.bcm(Control(Function.TEST)) == 14


def test_dotted_keys_and_inline_tables_work_too() -> None:
    pin_map = parse_config(
        "player1.slot1 = 4\nplayer2 = { slot1 = 21 }\noperator = { coin1 = false, meter = false }\n"
    )
    assert (pin_map.bcm(P1_SLOT1), pin_map.bcm(P2_SLOT1)) == (4, 21)
    assert (pin_map.bcm(COIN1), pin_map.bcm(METER)) == (None, None)


def test_load_config_reads_a_file(write_config: Callable[[str | bytes], Path]) -> None:
    path = write_config("[player1]\nslot1 = 4\n[operator]\ncoin1 = false\n")
    assert load_config(path).bcm(P1_SLOT1) == 4


# -- bad files: the class, the line and the reason ----------------------------------------


def fails(text: str) -> WiringError:
    with pytest.raises(WiringError) as caught:
        parse_config(text, "cabinet.toml")
    return caught.value


def test_a_gpio_used_twice_names_both_and_where_each_comes_from() -> None:
    error = fails("[player1]\n\nslot1 = 18\n")
    assert isinstance(error, PinUsedTwiceError)
    assert error.line == 3
    assert str(error) == (
        "cabinet.toml line 3: GPIO18 is used twice: for player 2 slot1 (default map) and for "
        "player 1 slot1 (line 3); each needs a GPIO of its own (free: GPIO17)"
    )


def test_two_lines_with_the_same_gpio_point_at_the_later_one() -> None:
    error = fails("[operator]\ncoin1 = false\n[player2]\nslot1 = 4\n[player1]\nslot1 = 4\n")
    assert isinstance(error, PinUsedTwiceError)
    assert error.line == 6
    assert "for player 2 slot1 (line 4) and for player 1 slot1 (line 6)" in str(error)


def test_a_button_moved_onto_a_coin_line_names_it() -> None:
    error = fails("[player1]\nslot1 = 4\n")
    assert isinstance(error, PinUsedTwiceError)
    assert error.line == 2
    assert str(error) == (
        "cabinet.toml line 2: GPIO4 is used twice: for coin 1 (default map) and for "
        "player 1 slot1 (line 2); each needs a GPIO of its own (free: GPIO17)"
    )
    error = fails("[operator]\nlockout = 21\n")
    assert isinstance(error, PinUsedTwiceError)
    assert "GPIO21 is used twice: for coin meter (default map) and for coin lockout" in str(error)


def test_a_number_off_the_header() -> None:
    error = fails("[player1]\nslot1 = 4\nslot2 = 40\n")
    assert isinstance(error, NotAHeaderGpioError)
    assert error.line == 3
    assert str(error).startswith("cabinet.toml line 3: 40 for player 1 slot2 is not a GPIO")
    assert "that is GPIO21" in str(error)


def test_a_reserved_pin_without_allow_reserved() -> None:
    error = fails("[operator]\ntest = 4\nservice = 14\n")
    assert isinstance(error, ReservedPinError)
    assert error.line == 3
    assert "GPIO14 for SERVICE is reserved for UART TXD" in str(error)


def test_allow_reserved_with_a_pin_that_is_not_reserved_points_at_its_element() -> None:
    error = fails("allow_reserved = [\n  14,\n  17,\n]\n")
    assert isinstance(error, NotAReservedPinError)
    assert error.line == 3


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("[player1]\nslot1 = '17'\n", 2, "player1.slot1 must be a BCM GPIO number such as 17 (no "
         "quotes), got the string '17'"),
        ("[player1]\nslot1 = 17.0\n", 2, "got the decimal number 17.0"),
        ("[player1]\nslot1 = true\n", 2, "got the boolean true"),
        ("x = 1\n[player1]\nslot5 = 17\n", 1, "unknown key 'x': the file may hold allow_reserved"),
        ("\n[player1]\nslot5 = 17\n", 3, "unknown key 'slot5' in [player1]: it may hold slot1, "
         "slot2, slot3, slot4, pile1, pile2"),
        ("[operator]\nslot1 = 17\n", 2, "unknown key 'slot1' in [operator]: it may hold test, "
         "service, door, coin1, coin2, meter, lockout"),
        ("[operator]\ncoin3 = 17\n", 2, "unknown key 'coin3' in [operator]"),
        ("[player1]\ncoin1 = 4\n", 2, "unknown key 'coin1' in [player1]"),
        ("player3 = { slot1 = 4 }\n", 1, "unknown key 'player3'"),
        ("player1 = 4\n", 1, "player1 must be a table of buttons"),
        ("[[player1]]\nslot1 = 4\n", 1, "player1 must be a table of buttons, written as "
         "'[player1]\\nslot1 = 17'; got a list"),
        ("allow_reserved = 14\n", 1, "allow_reserved must be a list of GPIO numbers, like [14, "),
        ("[operator]\n\ndoor = true\n", 3, "door = true does not say which GPIO: give the "
         "door switch's BCM GPIO number, or door = false when there is no door switch"),
        ("[operator]\ncoin1 = true\n", 2, "coin1 = true does not say which GPIO: give coin "
         "mechanism 1's BCM GPIO number, or coin1 = false when there is no first coin "
         "mechanism"),
        ("[operator]\ntest = 19\ncoin2 = true\n", 3, "coin2 = true does not say which GPIO: "
         "give coin mechanism 2's BCM GPIO number, or coin2 = false when there is no second "
         "coin mechanism"),
        ("[operator]\nmeter = true\n", 2, "meter = true does not say which GPIO: give the coin "
         "meter driver's BCM GPIO number, or meter = false when there is no coin meter"),
        ("[operator]\nlockout = true\n", 2, "lockout = true does not say which GPIO: give the "
         "lockout driver's BCM GPIO number, or lockout = false when there is no lockout coil"),
        ("[operator]\ntest = false\n", 2, "operator.test must be a BCM GPIO number such as 17 "
         "(no quotes), got the boolean false"),
        ("[operator]\ncoin1 = '4'\n", 2, "operator.coin1 must be a BCM GPIO number such as 17 "
         "(no quotes), got the string '4'"),
        ("[player1]\nslot1 = 4\nslot1 = 5\n", 3, "not valid TOML: Cannot overwrite a value"),
        ("[player1\nslot1 = 4\n", 1, "not valid TOML: Expected ']' at the end of a table"),
        ("[player1]\nslot1 = \n", 2, "not valid TOML: Invalid value"),
        ("[player1]\nnote = \"open\n", 2, "not valid TOML: Illegal character"),
        ("allow_reserved = [14,\n\n", 1, "not valid TOML: Invalid value at the end of the file"),
        ("[operator]\ntest = 4\nallow_reserved = [14]\n", 3, "allow_reserved is a top-level key, "
         "but here it is inside [operator]: move it above the first [table] of the file"),
    ],
)  # fmt: skip
def test_config_errors_give_line_and_reason(text: str, line: int, reason: str) -> None:
    error = fails(text)
    assert isinstance(error, ConfigError)
    assert error.line == line
    assert error.reason.startswith(reason) or reason in error.reason, error.reason
    assert str(error).startswith(f"cabinet.toml line {line}: ")


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    path = tmp_path / "missing.toml"
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.line is None
    assert str(caught.value) == f"{path}: cannot read the file: No such file or directory"


def test_a_file_that_is_not_utf8_says_which_line(
    write_config: Callable[[str | bytes], Path],
) -> None:
    path = write_config(b"[player1]\n# caf\xe9\nslot1 = 4\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.line == 2
    assert str(caught.value) == f"{path} line 2: not UTF-8 text; save the file as UTF-8"


def documented_example(doc: str) -> str:
    """The first literal block (after ``::``) of a docstring, unindented."""
    block = doc.split("::\n", 1)[1].splitlines()
    example = []
    for line in block:
        if line and not line.startswith("    "):
            break
        example.append(line[4:])
    return "\n".join(example)


def test_the_documented_example_loads() -> None:
    """The example in wiring.config's docstring (also in docs/wiring.md) is a working file."""
    import wiring.config

    doc = wiring.config.__doc__
    assert doc is not None
    text = documented_example(doc)
    assert "[player1]" in text
    pin_map = parse_config(text)
    assert pin_map.bcm(P1_SLOT1) == 4
    assert pin_map.bcm(Control(Function.PILE2, 1)) == 14
    assert pin_map.bcm(DOOR) is None
    assert pin_map.bcm(COIN1) is None
    assert pin_map.allow_reserved == frozenset({14})


def test_an_override_file_over_the_limit_is_refused_unread(tmp_path: Path) -> None:
    """A pin map is a few kilobytes; a file (or a device) longer than the bytes its
    character limit can take is refused after reading at most one byte past that."""
    from wiring.config import MAX_CONFIG_BYTES, MAX_CONFIG_CHARS

    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"#" * (MAX_CONFIG_BYTES + 1))
    for source in (huge, Path("/dev/zero")):
        with pytest.raises(ConfigError, match=f"larger than the limit of {MAX_CONFIG_BYTES}"):
            load_config(source)
    fits = tmp_path / "fits.toml"  # as long as the character limit allows
    fits.write_bytes(b"#" * MAX_CONFIG_CHARS)
    assert load_config(fits) == DEFAULT_PIN_MAP
