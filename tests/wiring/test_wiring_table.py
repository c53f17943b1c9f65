"""The installer's wiring table."""

from __future__ import annotations

from wiring.config import parse_config
from wiring.default import DEFAULT_PIN_MAP
from wiring.table import HEADINGS, Row, format_table, table_rows


def test_rows_follow_the_default_map_with_a_ground_per_harness() -> None:
    rows = table_rows(DEFAULT_PIN_MAP)
    assert len(rows) == 15 + 3
    assert rows[0] == Row("slot1", "1", "GPIO17", "11", "brown")
    assert rows[5] == Row("pile2", "1", "GPIO13", "33", "blue")
    assert rows[6] == Row("ground (COM)", "1", "GND", "25", "black")
    assert rows[7] == Row("slot1", "2", "GPIO18", "12", "brown")
    assert rows[13] == Row("ground (COM)", "2", "GND", "20", "black")
    assert rows[14:] == [
        Row("TEST", "operator", "GPIO19", "35", "violet"),
        Row("SERVICE", "operator", "GPIO26", "37", "grey"),
        Row("door switch", "operator", "GPIO20", "38", "white"),
        Row("ground (COM)", "operator", "GND", "39", "black"),
    ]


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
        line[column:].startswith(("GPIO", "GND")) for line in lines[heading + 1 : heading + 19]
    )
    assert "Free: GPIO4 (pin 7, keep for a coin input), GPIO21 (pin 40)" in lines
    assert "UART GPIO14, GPIO15" in text
    assert "No door switch." not in text


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
    assert "GPIO17 (pin 11)" in text  # freed by the move
