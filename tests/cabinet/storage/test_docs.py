"""docs/storage.md's settings table is the one the code declares."""

from __future__ import annotations

from pathlib import Path

from cabinet.storage.setting_table import SETTINGS, reference_table

DOC = Path(__file__).resolve().parents[3] / "docs" / "storage.md"


def test_the_docs_settings_table_matches_the_declarations() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = reference_table()
    assert table in text, (
        "docs/storage.md's settings table is out of date; paste the output of "
        "python -c 'from cabinet.storage.setting_table import reference_table as r; "
        "print(r())'"
    )
    assert table.count("\n") == len(SETTINGS) + 2
