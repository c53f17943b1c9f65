"""docs/wiring.md stays true: its table, its example file and its error messages are what the
code gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wiring.config import parse_config
from wiring.default import DEFAULT_PIN_MAP
from wiring.errors import WiringError
from wiring.pinmap import Control, Function
from wiring.table import table_rows

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "wiring.md").read_text(encoding="utf-8")


def test_the_doc_shows_the_committed_diagram() -> None:
    assert "](wiring.svg)" in DOC
    assert (ROOT / "docs" / "wiring.svg").is_file()


def test_the_docs_table_is_the_default_maps_table() -> None:
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in DOC.splitlines()
        if re.match(r"\| (slot|pile|ground|TEST|SERVICE|door|coin)", line)
    ]
    assert rows == [list(r.cells()) for r in table_rows(DEFAULT_PIN_MAP)]
    assert "Free: none." in DOC
    assert "kept for a coin input" not in DOC


def test_the_docs_example_files_load() -> None:
    blocks = re.findall(r"```toml\n(.*?)```", DOC, flags=re.S)
    assert len(blocks) == 2
    coin, example = sorted(blocks, key=lambda b: "[player1]" in b)
    pin_map = parse_config(example)
    assert pin_map.bcm(Control(Function.SLOT1, 0)) == 4
    assert pin_map.bcm(Control(Function.PILE2, 1)) == 14
    assert pin_map.bcm(Control(Function.DOOR)) is None
    assert pin_map.bcm(Control(Function.COIN1)) is None
    # Coin 2 and the lockout on SPI0, allowed: the section on coin mechanisms.
    pin_map = parse_config(coin)
    assert pin_map.allow_reserved == frozenset({7, 8})
    assert pin_map.bcm(Control(Function.COIN2)) == 7
    assert pin_map.bcm(Control(Function.LOCKOUT)) == 8
    assert pin_map.pins() == DEFAULT_PIN_MAP.pins() | {
        Control(Function.COIN2): 7,
        Control(Function.LOCKOUT): 8,
    }


def test_the_doc_explains_the_coin_lines_and_links_pricing() -> None:
    assert "## Coin mechanisms, meter and lockout" in DOC
    assert "(#coin-mechanisms-meter-and-lockout)" in DOC
    assert "](pricing.md)" in DOC
    for key in ("`coin1`, `coin2`", "`meter`, `lockout`"):
        assert f"| {key} | `[operator]` |" in DOC


@pytest.mark.parametrize(
    "text",
    [
        "[player1]\n\nslot1 = 18\n",
        "[player1]\nslot1 = 4\n\n[player2]\npile1 = 40\n",
        "[player1]\nslot1 = 14\n",
        "[player1]\nslot1 = '17'\n",
        "[operator]\ntest = 4\n\nallow_reserved = [14]\n",
        "[player1]\nslot1 = \n",
        "[operator]\nlockout = true\n",
    ],
)
def test_the_docs_error_examples_are_real(text: str) -> None:
    with pytest.raises(WiringError) as caught:
        parse_config(text, "cabinet.toml")
    assert f"spit-cabinet wiring: error: {caught.value}\n" in DOC
