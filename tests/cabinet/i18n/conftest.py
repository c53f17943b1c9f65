"""Shared fixtures for the language tests: the shipped catalogs as read (polib) and parsed."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest

from cabinet.i18n import LANGUAGES, load_catalog
from cabinet.i18n.catalog import Catalog

CATALOG_DIR = Path(__file__).resolve().parents[3] / "cabinet" / "i18n" / "catalog"

SAMPLE_PARAMS: dict[str, list[object]] = {
    "player": [1, 2],
    "count": [0, 1, 2, 5, 21, 52],
    "seconds": [1, 2, 10],
    "ms": [0.4, 12.3, 250.0],
    "score0": [0, 2],
    "score1": [1, 3],
    "n": [1, 2, 3, 4, 5],
    "button": ["Slot 4"],
    "name": ["Player 1 · Slot 4"],
    "value": ["2025-03-01 12:00"],
    "us": [100, 5000],
    "percent": [99.9, 100.0],
}
"""Values every message is rendered with: every plural category and exact form is reached."""


@pytest.fixture
def raw_catalogs() -> dict[str, polib.POFile]:
    """Each language's catalog file, read afresh, for a test to change."""
    return {language: polib.pofile(str(CATALOG_DIR / f"{language}.po")) for language in LANGUAGES}


def entry(po: polib.POFile, key: str) -> polib.POEntry:
    """The entry of message ``key``."""
    (found,) = [e for e in po if e.msgctxt == key]
    return found


@pytest.fixture(scope="session")
def catalogs() -> dict[str, Catalog]:
    """The shipped catalogs, parsed."""
    return {language: load_catalog(language) for language in LANGUAGES}


def param_combinations(params: frozenset[str]) -> list[dict[str, object]]:
    """For a message's parameters, one dict per sample value of each (not the full product:
    the other parameters keep their first sample), so every sample is shown once."""
    names = sorted(params)
    base = {name: SAMPLE_PARAMS[name][0] for name in names}
    combos = [dict(base)]
    for name in names:
        for value in SAMPLE_PARAMS[name][1:]:
            combos.append({**base, name: value})
    return combos
