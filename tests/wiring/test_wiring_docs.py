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
        if re.match(r"\| (slot|pile|ground|TEST|SERVICE|door)", line)
    ]
    assert rows == [list(r.cells()) for r in table_rows(DEFAULT_PIN_MAP)]


def test_the_docs_example_file_loads() -> None:
    blocks = re.findall(r"```toml\n(.*?)```", DOC, flags=re.S)
    assert len(blocks) == 1
    pin_map = parse_config(blocks[0])
    assert pin_map.bcm(Control(Function.SLOT1, 0)) == 4
    assert pin_map.bcm(Control(Function.PILE2, 1)) == 14
    assert pin_map.bcm(Control(Function.DOOR)) is None


@pytest.mark.parametrize(
    "text",
    [
        "[player1]\n\nslot1 = 18\n",
        "[player1]\nslot1 = 4\n\n[player2]\npile1 = 40\n",
        "[player1]\nslot1 = 14\n",
        "[player1]\nslot1 = '17'\n",
        "[operator]\ntest = 4\n\nallow_reserved = [14]\n",
        "[player1]\nslot1 = \n",
    ],
)
def test_the_docs_error_examples_are_real(text: str) -> None:
    with pytest.raises(WiringError) as caught:
        parse_config(text, "cabinet.toml")
    assert f"spit-cabinet wiring: error: {caught.value}\n" in DOC
