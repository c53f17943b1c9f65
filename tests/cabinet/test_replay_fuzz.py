"""``spit-cabinet replay`` on records malformed at random (hypothesis): a wrong value at
any place of a real record gives one line naming the field, never a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.record import MAX_NS
from tests.cabinet.test_game_commands import DATA
from tests.cabinet.test_replay_bad_input import RAW, replay_cli


def paths_in(value: object, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Every path to a value inside ``value`` (the root is ``()``)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(paths_in(item, (*path, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found.extend(paths_in(item, (*path, i)))
    return found


BASES = {name: json.loads((DATA / f"{name}.json").read_text()) for name in ("tie", "blocked-draw")}
BASE_PATHS = {name: paths_in(data) for name, data in BASES.items()}

json_leaves = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-MAX_NS - 10, max_value=MAX_NS + 10)
    | st.sampled_from([0, 1, -1, 0.0, 1.0, -1.0, MAX_NS, MAX_NS + 1, 10**100, -(10**100)])
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["slot1", "pile2", "press", "release", "AS", "10D", "spit-match"])
)
json_values = st.recursive(
    json_leaves,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
raw_texts = (
    st.integers(min_value=90, max_value=5000).map(lambda n: "9" * n)
    | st.integers(min_value=90, max_value=5000).map(lambda n: "-" + "1" * n)
    | st.integers(min_value=60, max_value=3000).map(lambda n: "[" * n + "]" * n)
    | st.integers(min_value=60, max_value=200).map(lambda n: '{"a":' * n + "1" + "}" * n)
    | st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-0", "1E400"])
)


def get(data: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


@st.composite
def malformed_records(draw: st.DrawFn) -> str:
    """The JSON text of a valid record after one to three random mutations."""
    name = draw(st.sampled_from(sorted(BASES)))
    data = json.loads(json.dumps(BASES[name]))
    raw: str | None = None
    for step in range(draw(st.integers(min_value=1, max_value=3))):
        paths = paths_in(data) if step else BASE_PATHS[name]
        path = draw(st.sampled_from(paths))
        how = draw(st.sampled_from(["replace", "raw", "delete", "add", "negate", "bump"]))
        if not path:  # the root itself
            if how == "replace":
                data = draw(json_values)
            continue
        parent = get(data, path[:-1])
        key = path[-1]
        if how == "replace":
            parent[key] = draw(json_values)
        elif how == "raw" and raw is None:
            parent[key] = RAW
            raw = draw(raw_texts)
        elif how == "delete":
            del parent[key]
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=12))] = draw(json_values)
        elif how in ("negate", "bump") and isinstance(parent[key], int | float):
            parent[key] = (
                -parent[key]
                if how == "negate"
                else parent[key] + draw(st.integers(min_value=-(10**12), max_value=10**12))
            )
    text = json.dumps(data)
    if raw is not None and text.count(json.dumps(RAW)) == 1:
        text = text.replace(json.dumps(RAW), raw)
    if draw(st.integers(min_value=0, max_value=9)) == 0:  # sometimes: cut the text short
        text = text[: draw(st.integers(min_value=0, max_value=len(text)))]
    return text


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=malformed_records(), as_json=st.booleans())
def test_malformed_records_never_give_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, as_json: bool
) -> None:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    status, out, err = replay_cli(capsys, *(["--json"] if as_json else []), str(path))
    assert status in (0, 1, 2)
    assert "Traceback" not in err
    if status == 2:
        assert out == ""
        assert err.count("\n") == 1 and err.endswith("\n"), err
        assert re.fullmatch(rf"replay: {re.escape(str(path))}: \S.*: \S.*\n", err), err
        # The reader named the field: the command's last line of defence was not needed.
        assert "cannot be replayed" not in err, err
    else:
        assert err == ""
        assert out.startswith("{" if as_json else "outcome       ")
