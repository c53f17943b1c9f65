"""The installer's wiring table."""

from __future__ import annotations

from wiring.colours import WIRE_COLOURS
from wiring.config import parse_config
from wiring.default import DEFAULT_PIN_MAP
from wiring.pinmap import Function
from wiring.table import COIN_NOTE, HEADINGS, OUTPUT_NOTE, Row, format_table, table_rows

#: The coin 2 and lockout example of wiring.default and docs/wiring.md.
COIN_EXAMPLE = "allow_reserved = [7, 8]\n[operator]\ncoin2 = 7\nlockout = 8\n"


def test_rows_follow_the_default_map_with_a_ground_per_harness() -> None:
    rows = table_rows(DEFAULT_PIN_MAP)
    assert len(rows) == 17 + 3
    assert rows[0] == Row("slot1", "1", "GPIO17", "11", "brown")
    assert rows[5] == Row("pile2", "1", "GPIO13", "33", "blue")
    assert rows[6] == Row("ground (COM)", "1", "GND", "25", "black")
    assert rows[7] == Row("slot1", "2", "GPIO18", "12", "brown")
    assert rows[13] == Row("ground (COM)", "2", "GND", "20", "black")
    assert rows[14:] == [
        Row("TEST", "operator", "GPIO19", "35", "violet"),
        Row("SERVICE", "operator", "GPIO26", "37", "grey"),
        Row("door switch", "operator", "GPIO20", "38", "white"),
        Row("coin 1", "operator", "GPIO4", "7", "pink"),
        Row("coin meter", "operator", "GPIO21", "40", "tan"),
        Row("ground (COM)", "operator", "GND", "39", "black"),
    ]


def test_coin_2_and_the_lockout_join_the_operators_harness() -> None:
    rows = [r for r in table_rows(parse_config(COIN_EXAMPLE)) if r.player == "operator"]
    assert rows == [
        Row("TEST", "operator", "GPIO19", "35", "violet"),
        Row("SERVICE", "operator", "GPIO26", "37", "grey"),
        Row("door switch", "operator", "GPIO20", "38", "white"),
        Row("coin 1", "operator", "GPIO4", "7", "pink"),
        Row("coin 2", "operator", "GPIO7", "26", "turquoise"),
        Row("coin meter", "operator", "GPIO21", "40", "tan"),
        Row("coin lockout", "operator", "GPIO8", "24", "white/red"),
        Row("ground (COM)", "operator", "GND", "34", "black"),  # nearer pins 24 and 26
    ]


def test_every_function_has_its_own_wire_colour() -> None:
    assert set(WIRE_COLOURS) == set(Function)
    names = [c.name for c in WIRE_COLOURS.values()]
    assert len(set(names)) == len(names)
    assert "black" not in names  # ground's
    assert [WIRE_COLOURS[f].name for f in (Function.COIN1, Function.COIN2)] == [
        "pink",
        "turquoise",
    ]
    assert WIRE_COLOURS[Function.METER].name == "tan"
    lockout = WIRE_COLOURS[Function.LOCKOUT]
    assert (lockout.name, lockout.hex, lockout.stripe) == ("white/red", "#ffffff", "#d62728")
    assert all(c.stripe is None for f, c in WIRE_COLOURS.items() if f is not Function.LOCKOUT)


def test_each_player_harness_uses_the_resistor_colour_code() -> None:
    for player in ("1", "2"):
        colours = [r.wire for r in table_rows(DEFAULT_PIN_MAP) if r.player == player]
        assert colours == ["brown", "red", "orange", "yellow", "green", "blue", "black"]


def test_formatted_table_is_aligned_and_notes_free_and_reserved_pins() -> None:
    text = format_table(DEFAULT_PIN_MAP)
    lines = text.splitlines()
    heading = next(i for i, line in enumerate(lines) if line.startswith("function"))
    assert lines[heading].split() == list(HEADINGS)
    assert lines[heading + 1].split() == ["slot1", "1", "GPIO17", "11", "brown"]
    column = lines[heading].index("BCM")
    assert all(
        line[column:].startswith(("GPIO", "GND")) for line in lines[heading + 1 : heading + 21]
    )
    assert lines[heading + 21] == ""
    assert "Free: none" in lines
    assert "coin input" not in text.split("Free:")[0]  # no GPIO is kept back any more
    assert "UART GPIO14, GPIO15" in text
    assert "SPI0 GPIO7, GPIO8, GPIO9, GPIO10, GPIO11" in text
    assert "No door switch." not in text
    assert "Not wired: coin 2, coin lockout." in lines


def test_the_notes_say_how_to_wire_coin_inputs_and_outputs() -> None:
    text = format_table(DEFAULT_PIN_MAP)
    coin = " ".join(COIN_NOTE)
    output = " ".join(OUTPUT_NOTE)
    assert "\n".join(COIN_NOTE) in text and "\n".join(OUTPUT_NOTE) in text
    for words in (
        "wired like the buttons",
        "COIN signal to its GPIO",
        "ground to GND",
        "no resistors",
        "open-collector or opto",
        "12 V pull-up",
        "must not be wired straight",
        "docs/pricing.md",
    ):
        assert words in coin, words
    for words in ("outputs", "transistor", "never a coil directly", "docs/pricing.md"):
        assert words in output, words
    assert all(len(line) <= 90 for line in (*COIN_NOTE, *OUTPUT_NOTE))


def test_the_notes_follow_what_the_map_wires() -> None:
    no_coin = format_table(parse_config("[operator]\ncoin1 = false\nmeter = false\n"))
    assert COIN_NOTE[0] not in no_coin and OUTPUT_NOTE[0] not in no_coin
    assert "Not wired: coin 1, coin 2, coin meter, coin lockout." in no_coin.splitlines()
    assert "Free: GPIO4 (pin 7), GPIO21 (pin 40)" in no_coin.splitlines()
    meter_only = format_table(parse_config("[operator]\ncoin1 = false\n"))
    assert COIN_NOTE[0] not in meter_only and OUTPUT_NOTE[0] in meter_only
    coin_only = format_table(parse_config("[operator]\nmeter = false\n"))
    assert COIN_NOTE[0] in coin_only and OUTPUT_NOTE[0] not in coin_only
    everything = format_table(parse_config(COIN_EXAMPLE), "cabinet.toml")
    assert "Not wired" not in everything
    assert "Reserved GPIOs in use (allow_reserved): GPIO7, SPI0 CE1; GPIO8, SPI0 CE0" in everything
    assert "SPI0 GPIO9, GPIO10, GPIO11" in everything


def test_table_of_an_override_shows_what_changed() -> None:
    pin_map = parse_config(
        "allow_reserved = [14]\n[player1]\nslot1 = 14\n[operator]\ndoor = false\n"
    )
    text = format_table(pin_map, "cabinet.toml")
    assert text.startswith("Spit cabinet wiring: cabinet.toml\n")
    assert ["slot1", "1", "GPIO14", "8", "brown"] in [line.split() for line in text.splitlines()]
    assert "Reserved GPIOs in use (allow_reserved): GPIO14, UART TXD (serial console)" in text
    assert "UART GPIO15" in text
    assert not any(line.startswith("door switch") for line in text.splitlines())
    assert "No door switch." in text
    assert "Not wired: coin 2, coin lockout." in text.splitlines()  # the door said above
    assert "GPIO17 (pin 11)" in text  # freed by the move
