"""Every setting is checked on the way in, survives a reboot, and falls back to its
default (with a warning naming it) when the stored value is bad."""

from __future__ import annotations

import contextlib
import json
import math
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.storage.paths import database_path
from cabinet.storage.problems import ProblemKind
from cabinet.storage.setting_table import (
    BY_NAME,
    CPU_LEVEL,
    CPU_OPPONENT,
    KEYBOARD_MAP,
    LANGUAGE,
    OPERATOR_PIN,
    RACE_WINDOW_MS,
    RESOLUTION,
    SETTINGS,
    SPIT_DELAY_MS,
    VOLUME,
    in_group,
)
from cabinet.storage.setting_types import (
    Choice,
    Decimal,
    KeyMapOverrides,
    Pin,
    Resolution,
    SerialPort,
    Setting,
    SettingGroup,
    SettingValueError,
    Switch,
    UnknownSettingError,
    WholeNumber,
)
from cabinet.storage.settings import Settings
from cabinet.storage.store import CabinetStore
from game.rules import Rules, RulesError, TieRule

from .conftest import cpu_game

# -- the table -----------------------------------------------------------------------


def test_the_table_has_every_item_of_the_game_and_cabinet_menus() -> None:
    assert [s.name for s in in_group(SettingGroup.GAME)] == [
        "spit_delay_ms",
        "race_window_ms",
        "beaten_window_ms",
        "tie_rule",
        "ace_wraps",
        "best_of",
        "button_hints",
        "cpu_opponent",
        "cpu_level",
        "join_cpu_wait_s",
        "idle_timeout_s",
        "attract_sound",
        "language",
    ]
    assert [s.name for s in in_group(SettingGroup.CABINET)] == [
        "orientation",
        "resolution",
        "volume",
        "light_brightness",
        "led_port",
        "led_type",
        "input_backend",
        "display_backend",
        "keyboard_map",
    ]
    assert [s.name for s in in_group(SettingGroup.OPERATOR)] == [
        "operator_pin",
        "records_kept",
        "missing_switch_games",
        "remote_settings",
        "unsigned_updates",
        "hall_of_fame",
        "hall_of_fame_size",
    ]
    assert [s.name for s in in_group(SettingGroup.PRICING)] == [
        "free_play",
        "units_per_credit",
        "credits_per_game",
        "price_per",
        "cpu_game_costs",
        "bonus_units",
        "bonus_credits",
        "max_credits",
        "coin1_units",
        "coin2_units",
        "currency",
        "coin1_cents",
        "coin2_cents",
        "coin_pulse_min_ms",
        "coin_pulse_max_ms",
        "meter_on_ms",
        "meter_off_ms",
    ]
    assert len(BY_NAME) == len(SETTINGS)


def test_the_defaults_are_the_rules_defaults() -> None:
    assert Settings().rules() == Rules()


# -- checking each kind of value (hypothesis) --------------------------------------------

ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=2),
)


def _allowed(setting: Setting[Any], value: object) -> bool:
    """An oracle for each kind, written independently of the kinds' own checks."""
    if isinstance(setting, WholeNumber):
        return type(value) is int and setting.low <= value <= setting.high
    if isinstance(setting, Decimal):
        return (
            type(value) in (int, float)
            and not math.isnan(value)  # type: ignore[arg-type]
            and setting.low <= value <= setting.high  # type: ignore[operator]
        )
    if isinstance(setting, Switch):
        return type(value) is bool
    if isinstance(setting, Choice):
        return any(type(c) is type(value) and c == value for c in setting.choices)
    if isinstance(setting, Resolution):
        if value == "auto":
            return True
        if not isinstance(value, str) or value.lower().count("x") != 1:
            return False
        w, h = value.lower().split("x")
        ok = all(p.isascii() and p.isdigit() and 3 <= len(p) <= 5 for p in (w, h))
        return ok and all(320 <= int(p) <= 7680 for p in (w, h))
    if isinstance(setting, SerialPort):
        return value == "auto" or (
            isinstance(value, str)
            and (
                (value.startswith("/") and 2 <= len(value) <= 255)
                or re.fullmatch("COM[1-9][0-9]{0,2}", value) is not None
            )
            and value == value.strip()
            and not any(ord(c) < 32 or ord(c) == 127 for c in value)
        )
    if isinstance(setting, Pin):
        return value == "" or (
            isinstance(value, str) and 4 <= len(value) <= 8 and set(value) <= set("123456")
        )
    if isinstance(setting, KeyMapOverrides):
        return value == {}
    raise AssertionError(f"no oracle for {setting!r}")


def _values_for(setting: Setting[Any]) -> st.SearchStrategy[object]:
    near: list[st.SearchStrategy[object]] = [ANY_VALUE]
    if isinstance(setting, WholeNumber):
        near.append(st.integers(setting.low - 50, setting.high + 50))
    elif isinstance(setting, Decimal):
        near.append(st.floats(setting.low - 5, setting.high + 5))
    elif isinstance(setting, Choice):
        near.append(st.sampled_from(setting.choices))
    elif isinstance(setting, Resolution):
        sizes = st.integers(0, 9000)
        near.append(st.builds("{}{}{}".format, sizes, st.sampled_from("xX*"), sizes))
    elif isinstance(setting, Pin):
        near.append(st.text(alphabet="0123456789", max_size=10))
    elif isinstance(setting, SerialPort):
        near.append(st.builds("/dev/{}".format, st.text(max_size=8)))
    return st.one_of(near)


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.name)
@given(data=st.data())
def test_every_setting_takes_exactly_its_allowed_values(
    setting: Setting[Any], data: st.DataObject
) -> None:
    value = data.draw(_values_for(setting))
    settings = Settings()
    if _allowed(setting, value):
        stored = settings.set(setting, value)
        assert settings.get(setting) == stored
        assert setting.check(setting.to_plain(stored)) == stored  # plain round trip
    else:
        with pytest.raises(SettingValueError) as caught:
            settings.set(setting, value)
        assert caught.value.name == setting.name
        assert str(caught.value).startswith(f"{setting.name} must be {setting.allowed()}")
        assert settings.get(setting) == setting.default  # unchanged


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.steppable], ids=lambda s: s.name)
def test_stepping_stays_within_what_is_allowed(setting: Setting[Any]) -> None:
    value = setting.default
    seen = {json.dumps(setting.to_plain(value))}
    for direction in (+1,) * 60 + (-1,) * 120:
        value = setting.step(value, direction)
        assert setting.check(value) == value
        seen.add(json.dumps(setting.to_plain(value)))
    assert len(seen) > 1


def test_the_key_map_checks_controls_and_keys() -> None:
    settings = Settings()
    stored = settings.set(KEYBOARD_MAP, {"P1.Slot1 ": "q"})
    assert dict(stored) == {"p1.slot1": "q"}
    with pytest.raises(SettingValueError, match=r"unknown control 'p3\.slot1'"):
        settings.set(KEYBOARD_MAP, {"p3.slot1": "q"})
    with pytest.raises(SettingValueError, match="not a key name"):
        settings.set(KEYBOARD_MAP, {"p1.slot1": "no-such-key"})
    with pytest.raises(SettingValueError, match="given to both"):
        settings.set(KEYBOARD_MAP, {"p1.slot1": "q", "p1.slot2": "q"})


def test_an_unknown_name_is_refused_with_a_suggestion() -> None:
    with pytest.raises(UnknownSettingError, match="did you mean 'volume'"):
        Settings().set("volum", 3)


def test_update_is_all_or_nothing() -> None:
    settings = Settings()
    with pytest.raises(SettingValueError, match="cpu_level"):
        settings.update({"volume": 10, "cpu_level": 9})
    assert settings.get(VOLUME) == VOLUME.default


RULES_VALUES = st.fixed_dictionaries(
    {
        "spit_delay_ms": st.integers(SPIT_DELAY_MS.low, SPIT_DELAY_MS.high),
        "race_window_ms": st.floats(RACE_WINDOW_MS.low, RACE_WINDOW_MS.high),
        "beaten_window_ms": st.integers(0, 5000),
        "ace_wraps": st.booleans(),
        "tie_rule": st.sampled_from([t.value for t in TieRule]),
        "best_of": st.sampled_from([1, 3, 5]),
    }
)


@given(RULES_VALUES)
def test_any_allowed_rules_settings_make_valid_rules(values: dict[str, Any]) -> None:
    try:
        rules = Settings(values).rules()
    except RulesError as exc:  # the two tables disagree on a range
        raise AssertionError(f"settings allow what Rules refuses: {exc}") from None
    assert rules.to_dict() == values


def test_cpu_opponent_level() -> None:
    settings = Settings({"cpu_level": 5})
    level = settings.cpu_opponent_level()
    assert level is not None and level.number == 5
    settings.set(CPU_OPPONENT, False)
    assert settings.cpu_opponent_level() is None


# -- the database ------------------------------------------------------------------------


def test_settings_survive_a_reboot(open_store: Callable[[], CabinetStore]) -> None:
    store = open_store()
    store.settings.update(
        {
            "race_window_ms": 4.5,
            "language": "hu",
            "resolution": "1280X720",
            "keyboard_map": {"p2.pile2": "p"},
            "operator_pin": "1526",
        }
    )
    store.save_settings()
    again = open_store()
    assert again.settings == store.settings
    assert again.settings.get(RESOLUTION) == "1280x720"
    assert dict(again.settings.get(KEYBOARD_MAP)) == {"p2.pile2": "p"}
    assert again.settings.get(OPERATOR_PIN) == "1526"
    assert again.problems == []


def test_only_changed_settings_are_stored(store: CabinetStore) -> None:
    store.settings.set(VOLUME, 10)
    store.settings.set(LANGUAGE, "en")  # the default
    store.save_settings()
    rows = store.db.connection.execute("SELECT name, value FROM settings").fetchall()
    assert rows == [("volume", "10")]
    store.settings.set(VOLUME, VOLUME.default)
    store.save_settings()
    assert store.db.connection.execute("SELECT count(*) FROM settings").fetchone()[0] == 0


@pytest.mark.parametrize(
    ("name", "stored"),
    [("volume", "250"), ("cpu_level", '"3"'), ("language", '"xx"'), ("race_window_ms", "{")],
)
def test_a_bad_stored_value_falls_back_to_its_default_with_a_warning(
    name: str,
    stored: str,
    open_store: Callable[[], CabinetStore],
    data_dir: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    first = open_store()
    first.settings.set(CPU_LEVEL, 1 if name != "cpu_level" else 3)
    first.save_settings()
    with sqlite3.connect(database_path(data_dir)) as conn:
        conn.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (name, stored))
    with contextlib.closing(sqlite3.connect(database_path(data_dir))) as conn:
        before = list(conn.iterdump())
    again = open_store()
    declared = BY_NAME[name]
    assert again.settings[name] == declared.default
    problem, copied = again.problems
    assert problem.kind is ProblemKind.SETTING_REPLACED and problem.subject == name
    assert name in problem.message and "default" in problem.message
    assert problem.message in caplog.text
    # Replaced in the file too, once a copy of it as it was is kept, and said where.
    assert copied.kind is ProblemKind.DATABASE_COPIED and copied.copy is not None
    with contextlib.closing(sqlite3.connect(copied.copy)) as conn:
        assert list(conn.iterdump()) == before
    assert copied.copy.name in copied.message
    assert open_store().problems == []
    if name != "cpu_level":
        assert again.settings.get(CPU_LEVEL) == 1  # the others are kept


def test_an_unknown_stored_setting_is_reported_and_kept(
    open_store: Callable[[], CabinetStore], data_dir: Path
) -> None:
    open_store()
    with sqlite3.connect(database_path(data_dir)) as conn:
        conn.execute("INSERT INTO settings VALUES ('from_the_future', '1')")
    store = open_store()
    (problem,) = store.problems
    assert problem.kind is ProblemKind.UNKNOWN_SETTING and problem.subject == "from_the_future"
    store.save_settings()
    names = [r[0] for r in store.db.connection.execute("SELECT name FROM settings")]
    assert names == ["from_the_future"]  # a newer program's setting is left alone


def test_factory_reset_restores_settings_only(open_store: Callable[[], CabinetStore]) -> None:
    store = open_store()
    store.settings.update({"volume": 5, "orientation": "cocktail", "records_kept": 50})
    game = cpu_game(3)
    store.record_game(game.record, game.summary)
    store.save_settings()
    store.factory_reset()
    again = open_store()
    assert again.settings == Settings()
    assert again.records.count() == 1
    assert again.audits.games.current.vs_cpu == 1
    assert again.audits.games.lifetime.vs_cpu == 1


def test_unsaved_changes_are_not_kept(open_store: Callable[[], CabinetStore]) -> None:
    store = open_store()
    store.settings.set(VOLUME, 20)
    store.close()
    assert open_store().settings.get(VOLUME) == VOLUME.default
