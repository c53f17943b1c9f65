"""``spit-cabinet firmware flash`` on light configurations malformed at random
(hypothesis): each is refused with one line naming the key, and nothing is copied; a
well-formed one with any values the firmware accepts is copied."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware.config import (
    DEFAULTS,
    DRIVERS,
    MAX_CONFIG_BYTES,
    MAX_CONFIG_DEPTH,
    boot_config,
)
from tests.cabinet.test_firmware_flash import KEYS, NOT_COPIED, PROG, assert_refused, flash

# ---- malformed configurations, generated -----------------------------------------------------

leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
containers = st.lists(leaves, max_size=4) | st.dictionaries(st.text(max_size=6), leaves, max_size=3)
json_values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
text = st.text(max_size=12)
not_int = st.none() | st.booleans() | st.floats(allow_nan=False) | text | containers
not_bool = st.none() | st.integers() | st.floats(allow_nan=False) | text | containers
not_list = (
    st.none()
    | st.booleans()
    | st.integers()
    | text
    | containers.filter(lambda v: not isinstance(v, list))
)


@st.composite
def list_with_a_non_int(draw: st.DrawFn) -> list[object]:
    items: list[object] = list(draw(st.lists(st.integers(0, 29), max_size=4)))
    items.insert(draw(st.integers(0, len(items))), draw(not_int))
    return items


not_a_driver = (
    st.none() | st.booleans() | st.integers() | containers | text.filter(lambda t: t not in DRIVERS)
)
WRONG = {
    "driver": not_a_driver,
    "pins": not_list | list_with_a_non_int(),
    "link_lost_rgb": not_list | list_with_a_non_int(),
    "active_low": not_bool,
}


@st.composite
def wrong_type(draw: st.DrawFn) -> tuple[str, object]:
    """A key of the configuration, and a value of a type it does not take."""
    key = draw(st.sampled_from(sorted(DEFAULTS)))
    return key, draw(WRONG.get(key, not_int))


@pytest.fixture(scope="module")
def config_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One file the generated tests rewrite for each example (a session-scoped directory,
    since hypothesis runs many examples in one test)."""
    return tmp_path_factory.mktemp("flash") / "my-lights.json"


@settings(deadline=None)
@given(case=wrong_type(), driver=st.sampled_from([None, *DRIVERS]))
def test_a_wrong_type_is_named_with_its_key(
    config_file: Path, case: tuple[str, object], driver: str | None
) -> None:
    key, value = case
    if key == "driver" and driver is not None:
        key, driver = "pins", None  # --driver would replace the wrong one; try another key
        value = "GP2"
    config_file.write_text(json.dumps({key: value}), encoding="utf-8")
    result = flash(config_file, *([] if driver is None else ["--driver", driver]))
    assert result.status == 2 and result.calls == [] and result.out == ""
    assert result.err.startswith(f"{PROG}: error: {config_file}: {key}")
    assert result.err.endswith(NOT_COPIED) and result.err.count("\n") == 1
    assert "Traceback" not in result.err


@settings(deadline=None)
@given(
    key=st.text(max_size=20).filter(lambda k: k not in DEFAULTS),
    value=json_values,
    driver=st.sampled_from(DRIVERS),
)
def test_an_unknown_key_is_an_error(
    config_file: Path, key: str, value: object, driver: str
) -> None:
    config_file.write_text(json.dumps({"driver": driver, key: value}), encoding="utf-8")
    message = f"{config_file}: unknown configuration key {key!r}; the keys are {KEYS}"
    assert_refused(flash(config_file), message)


@settings(deadline=None)
@given(driver=not_a_driver)
def test_a_bad_driver_is_an_error(config_file: Path, driver: object) -> None:
    config_file.write_text(json.dumps({"driver": driver}), encoding="utf-8")
    message = f"{config_file}: driver must be one of plain, pwm, ws2812; got {driver!r}"
    assert_refused(flash(config_file), message)


@settings(deadline=None)
@given(
    document=st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40)
    | st.lists(json_values, max_size=5),
    driver=st.sampled_from([None, *DRIVERS]),
)
def test_a_document_that_is_no_object_is_an_error(
    config_file: Path, document: object, driver: str | None
) -> None:
    config_file.write_text(json.dumps(document), encoding="utf-8")
    result = flash(config_file, *([] if driver is None else ["--driver", driver]))
    assert result.status == 2 and result.calls == []
    assert result.err.startswith(f"{PROG}: error: {config_file} must hold a JSON object, not ")
    assert result.err.endswith(NOT_COPIED) and result.err.count("\n") == 1


@settings(deadline=None)
@given(
    depth=st.integers(MAX_CONFIG_DEPTH + 1, 6000),
    opener=st.sampled_from(["[", "{", '{"a": ', '{"pins": [']),
    under_a_key=st.booleans(),
    closed=st.booleans(),
    driver=st.sampled_from([None, *DRIVERS]),
)
def test_deep_nesting_is_an_error(
    config_file: Path,
    depth: int,
    opener: str,
    under_a_key: bool,
    closed: bool,
    driver: str | None,
) -> None:
    closer = {"[": "]", "{": "}", '{"a": ': "}", '{"pins": [': "]}"}[opener]
    # Each opener adds one level, except '{"pins": [' (two).
    count = depth if opener != '{"pins": [' else (depth + 1) // 2
    inner = opener * count + (closer * count if closed else "")
    text = '{"pins": ' + inner + "}" if under_a_key else inner
    data = text.encode()
    config_file.write_bytes(data)
    result = flash(config_file, *([] if driver is None else ["--driver", driver]))
    if len(data) > MAX_CONFIG_BYTES:
        assert_refused(result, f"{config_file} is larger than {MAX_CONFIG_BYTES} bytes")
    else:
        assert_refused(result, f"{config_file} nests deeper than {MAX_CONFIG_DEPTH} levels")


def value_for(key: str) -> st.SearchStrategy[object]:
    """Mostly the default, sometimes near it, sometimes anything."""
    default = DEFAULTS[key]
    near: st.SearchStrategy[object]
    if key == "driver":
        near = st.sampled_from([*DRIVERS, "rgb", "PWM"])
    elif isinstance(default, bool):
        near = st.booleans()
    elif isinstance(default, int):
        near = st.integers(-10, 100_000)
    else:
        near = st.lists(st.integers(-1, 300), max_size=17)
    return st.just(default) | near | json_values


configs = st.dictionaries(
    st.sampled_from(sorted(DEFAULTS)) | st.text(max_size=8), st.none(), max_size=5
).flatmap(
    lambda keys: st.fixed_dictionaries(
        {k: (value_for(k) if k in DEFAULTS else json_values) for k in keys}
    )
)


@settings(deadline=None, max_examples=300)
@given(document=configs | json_values, indent=st.sampled_from([None, 2]))
def test_the_command_copies_exactly_what_the_board_would_use(
    config_file: Path, tmp_path_factory: pytest.TempPathFactory, document: object, indent: int
) -> None:
    """Whatever the file holds, flash copies it if and only if the board, booting from that
    file, would use it (not fall back); and what it copies boots to the same settings."""
    config_file.write_text(json.dumps(document, indent=indent), encoding="utf-8")
    on_board, board_error = boot_config(str(config_file))
    result = flash(config_file)
    assert "Traceback" not in result.err
    if board_error is not None:
        assert result.status == 2 and result.calls == []
        assert result.err.startswith(f"{PROG}: error: {config_file}")
        assert result.err.endswith(NOT_COPIED) and result.err.count("\n") == 1
        return
    assert (result.status, result.err, len(result.calls)) == (0, "", 1)
    copied = config_file.with_name("copied-lights.json")
    copied.write_text(result.staged[0], encoding="utf-8")
    after, error = boot_config(str(copied))
    assert error is None
    assert vars(after) == vars(on_board)
