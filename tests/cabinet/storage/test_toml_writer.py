"""What the TOML writer writes, the standard library's reader reads back the same."""

from __future__ import annotations

import math
import tomllib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.storage.toml_writer import TomlWriteError, dumps, scalar

SCALARS = st.one_of(
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(),
)
KEYS = st.text(min_size=1, max_size=10)
TABLES = st.dictionaries(
    KEYS,
    st.dictionaries(KEYS, st.one_of(SCALARS, st.dictionaries(KEYS, SCALARS, max_size=3))),
    max_size=4,
)


@given(TABLES, st.text(max_size=40))
def test_round_trip_through_tomllib(tables: dict[str, dict[str, Any]], header: str) -> None:
    text = dumps(tables, header=header.replace("\r", ""))
    assert tomllib.loads(text) == tables


def test_special_floats_and_comments() -> None:
    text = dumps(
        {"t": {"a": math.inf, "b": -math.inf, "c": 1e-7}},
        comments={"t.a": "infinite"},
    )
    assert "# infinite\na = inf" in text
    back = tomllib.loads(text)["t"]
    assert back["a"] == math.inf and back["b"] == -math.inf and back["c"] == 1e-7
    assert math.isnan(tomllib.loads("x = " + scalar(math.nan))["x"])


def test_values_toml_cannot_hold_are_refused() -> None:
    with pytest.raises(TomlWriteError, match="NoneType"):
        scalar(None)
