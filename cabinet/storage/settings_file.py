"""Settings files: every setting as TOML, for operators who run several cabinets.

An exported file has one table per :class:`~cabinet.storage.setting_types.SettingGroup`
(``[game]``, ``[cabinet]``, ``[operator]``) and the key map as ``[cabinet.keyboard_map]``;
each setting has a comment saying what it does and what it allows. An imported file may
hold any subset of the settings (those left out keep their current values); it is checked
whole before anything changes, and the first problem is reported with its key and line.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any

from cabinet.storage.setting_table import BY_NAME, SETTINGS
from cabinet.storage.setting_types import (
    SettingError,
    SettingGroup,
    SettingValueError,
    UnknownSettingError,
)
from cabinet.storage.settings import Settings, setting_named
from cabinet.storage.toml_writer import dumps
from game.rules import clipped_repr
from wiring.tomllines import KeyPath, key_lines, line_of

HEADER = """Spit cabinet settings (spit-cabinet settings export).
Load them into a cabinet with: spit-cabinet settings import FILE.toml
Settings left out of this file keep the cabinet's current values."""


class SettingsFileError(SettingError):
    """A settings file cannot be imported. ``key`` is the bad setting's place
    (``"game.race_window_ms"``) when there is one, ``line`` its line (1-based) if found."""

    def __init__(self, problem: str, *, key: str | None = None, line: int | None = None) -> None:
        where = ""
        if line is not None:
            where += f"line {line}: "
        if key is not None:
            where += f"{key}: "
        super().__init__(where + problem)
        self.problem = problem
        self.key = key
        self.line = line


def export_text(settings: Settings) -> str:
    """Every setting as a TOML document, grouped, with a comment per setting."""
    tables: dict[str, dict[str, Any]] = {}
    for group, values in settings.by_group().items():
        tables[group.value] = dict(values)
    comments = {
        f"{s.group.value}.{s.name}": f"{s.description} Allowed: {s.allowed()}." for s in SETTINGS
    }
    return dumps(tables, header=HEADER, comments=comments)


MAX_FILE_CHARS = 1_000_000
"""The longest settings file read (characters): an export is about 4,000."""

_TABLES = ", ".join(f"[{g.value}]" for g in SettingGroup)
"""The settings file's tables, as its messages list them: ``[game], [cabinet], …``."""


def read_text(text: str) -> dict[str, Any]:
    """Read and check a settings file's text; returns ``{setting name: checked value}``
    for the settings it holds. Raises :class:`SettingsFileError` for the first problem:
    too long, not TOML, nested too deep, an unknown table or setting, a setting in the
    wrong table, a bad value."""
    data = _parse(text)
    groups = [g.value for g in SettingGroup]
    values: dict[str, Any] = {}
    lines = key_lines(text)
    for table, content in data.items():
        if not isinstance(content, Mapping):
            raise _outside_tables(table, line_of(lines, (table,)))
        if table not in groups:
            raise SettingsFileError(
                f"unknown table [{table}]; the tables are {_TABLES}",
                key=table,
                line=line_of(lines, (table,)),
            )
        values.update(_read_table(table, content, lines))
    return values


def _parse(text: str) -> dict[str, Any]:
    """``text`` as a TOML document, once it is short enough to read. Raises
    :class:`SettingsFileError` where it is too long or not TOML (with the line, where
    the parser names one)."""
    if len(text) > MAX_FILE_CHARS:
        raise SettingsFileError(
            f"is {len(text):,} characters long; a settings file has at most {MAX_FILE_CHARS:,}"
        )
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise SettingsFileError("not valid TOML: nested too deep") from None
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        line = int(found[1]) if found else None
        problem = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise SettingsFileError(f"not valid TOML: {problem}", line=line) from None


def _outside_tables(key: str, line: int | None) -> SettingsFileError:
    """The problem with ``key``, found outside any table: a setting that belongs in its
    group's table, or a key no setting has."""
    declared = BY_NAME.get(key)
    if declared is not None:
        return SettingsFileError(
            f"belongs in [{declared.group.value}], not outside any table", key=key, line=line
        )
    return SettingsFileError(
        f"{UnknownSettingError(key, tuple(BY_NAME))}; settings go in the tables {_TABLES}",
        key=key,
        line=line,
    )


def _read_table(
    table: str, content: Mapping[str, Any], lines: dict[KeyPath, int]
) -> dict[str, Any]:
    """The checked values of table ``[table]``'s settings (``content``); ``lines`` the
    file's key lines. Raises :class:`SettingsFileError` for an unknown setting, one in
    another group's table, or a bad value."""
    values: dict[str, Any] = {}
    for name, value in content.items():
        place = f"{table}.{name}"
        line = line_of(lines, (table, name))
        try:
            declared = setting_named(name)
        except UnknownSettingError as exc:
            raise SettingsFileError(str(exc), key=place, line=line) from None
        if declared.group.value != table:
            raise SettingsFileError(
                f"belongs in [{declared.group.value}], not [{table}]", key=place, line=line
            )
        try:
            values[name] = declared.check(value)
        except SettingValueError as exc:
            raise SettingsFileError(
                f"must be {exc.allowed}; got {_toml_repr(value)}", key=place, line=line
            ) from None
    return values


def _toml_repr(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "a table"
    return clipped_repr(value)
