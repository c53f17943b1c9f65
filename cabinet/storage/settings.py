"""The operator's settings: the current value of every setting, always valid, and their
loading from and saving to the database.

The database holds only settings that differ from their defaults, so a setting the
operator never changed follows the program's default when a new version changes it, and
a factory reset is deleting every row. Values are checked on the way in (load, change,
import); a bad stored value falls back to its default with a
:class:`~cabinet.storage.problems.StorageProblem` naming it.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from cabinet.storage.database import Database
from cabinet.storage.problems import ProblemKind, StorageProblem
from cabinet.storage.setting_table import (
    ACE_WRAPS,
    BEATEN_WINDOW_MS,
    BEST_OF,
    BY_NAME,
    CPU_LEVEL,
    CPU_OPPONENT,
    RACE_WINDOW_MS,
    SETTINGS,
    SPIT_DELAY_MS,
    TIE_RULE,
)
from cabinet.storage.setting_types import (
    PlainValue,
    Setting,
    SettingGroup,
    SettingValueError,
    UnknownSettingError,
)
from game.bots import Level, level
from game.rules import Rules, TieRule, clipped_repr

log = logging.getLogger("cabinet.storage")

T = TypeVar("T")


def setting_named(name: str) -> Setting[Any]:
    """The declaration of setting ``name``; raises
    :class:`~cabinet.storage.setting_types.UnknownSettingError`."""
    try:
        return BY_NAME[name]
    except (KeyError, TypeError):
        raise UnknownSettingError(str(name), tuple(BY_NAME)) from None


class Settings:
    """Every setting's current value. Starts at the defaults; every change is checked.

    Read a value typed through its declaration, ``settings.get(VOLUME)`` (an ``int``), or
    by name, ``settings["volume"]``. Changes stay in memory until
    :meth:`cabinet.storage.store.CabinetStore.save_settings` writes them in one
    transaction (the service menu calls it when the operator leaves).
    """

    def __init__(self, values: Mapping[str, object] | None = None) -> None:
        self._values: dict[str, Any] = {s.name: s.default for s in SETTINGS}
        if values:
            self.update(values)

    # -- reading ---------------------------------------------------------------------

    def get(self, setting: Setting[T]) -> T:
        """The value of ``setting`` (a declaration from :mod:`.setting_table`)."""
        value: T = self._values[setting.name]
        return value

    def __getitem__(self, name: str) -> Any:
        return self._values[setting_named(name).name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Settings):
            return NotImplemented
        return self.as_plain() == other.as_plain()

    def __repr__(self) -> str:
        changed = {name: self.as_plain()[name] for name in self.changed()}
        return f"Settings({changed!r})"

    def changed(self) -> list[str]:
        """The names of the settings that differ from their defaults, in table order."""
        return [
            s.name for s in SETTINGS if s.to_plain(self._values[s.name]) != s.to_plain(s.default)
        ]

    def as_plain(self) -> dict[str, PlainValue]:
        """``{name: value}`` as JSON and TOML hold them, in table order."""
        return {s.name: s.to_plain(self._values[s.name]) for s in SETTINGS}

    def by_group(self) -> dict[SettingGroup, dict[str, PlainValue]]:
        """:meth:`as_plain` split by group (the tables of a TOML file)."""
        plain = self.as_plain()
        out: dict[SettingGroup, dict[str, PlainValue]] = {g: {} for g in SettingGroup}
        for s in SETTINGS:
            out[s.group][s.name] = plain[s.name]
        return out

    def copy(self) -> Settings:
        return Settings(self.as_plain())

    # -- what the game uses ----------------------------------------------------------

    def rules(self) -> Rules:
        """The rules settings as the engine takes them."""
        return Rules(
            spit_delay_ms=self.get(SPIT_DELAY_MS),
            race_window_ms=self.get(RACE_WINDOW_MS),
            beaten_window_ms=self.get(BEATEN_WINDOW_MS),
            ace_wraps=self.get(ACE_WRAPS),
            tie_rule=TieRule(self.get(TIE_RULE)),
            best_of=self.get(BEST_OF),
        )

    def cpu_opponent_level(self) -> Level | None:
        """The CPU opponent's level, or ``None`` when the CPU opponent is off."""
        return level(self.get(CPU_LEVEL)) if self.get(CPU_OPPONENT) else None

    # -- changing --------------------------------------------------------------------

    def set(self, setting: Setting[T] | str, value: object) -> T:
        """Change one setting; returns the value as stored (e.g. ``"1280X720"`` reads as
        ``"1280x720"``). Raises :class:`SettingValueError` naming the setting and what it
        allows, and changes nothing then."""
        declared = setting_named(setting) if isinstance(setting, str) else setting
        checked: T = declared.check(value)
        self._values[declared.name] = checked
        return checked

    def update(self, values: Mapping[str, object]) -> None:
        """Change several settings, all or none: every value is checked before any is
        changed. Raises on the first bad name or value (table order)."""
        checked = check_values(values)
        self._values.update(checked)

    def reset(self, setting: Setting[Any] | str | None = None) -> None:
        """Back to the default: one setting, or all of them (the factory reset)."""
        if setting is None:
            self._values = {s.name: s.default for s in SETTINGS}
            return
        declared = setting_named(setting) if isinstance(setting, str) else setting
        self._values[declared.name] = declared.default


def check_values(values: Mapping[str, object]) -> dict[str, Any]:
    """Check ``{name: value}``; returns the checked values. Raises
    :class:`UnknownSettingError` or :class:`SettingValueError` for the first bad one."""
    for name in values:
        setting_named(name)
    return {s.name: s.check(values[s.name]) for s in SETTINGS if s.name in values}


# -- the database ---------------------------------------------------------------------


def load_settings(db: Database) -> tuple[Settings, list[StorageProblem]]:
    """Read the stored settings. A stored value that is not valid JSON or not allowed is
    replaced by its default and reported; an unknown name is reported and ignored."""
    settings = Settings()
    problems: list[StorageProblem] = []
    for name, text in db.connection.execute("SELECT name, value FROM settings ORDER BY name"):
        declared = BY_NAME.get(name) if isinstance(name, str) else None
        if declared is None:
            problems.append(
                StorageProblem(
                    ProblemKind.UNKNOWN_SETTING,
                    "the database holds a setting this program does not know, "
                    f"{clipped_repr(name)}; it is ignored",
                    subject=str(name),
                )
            )
            continue
        try:
            settings.set(declared, json.loads(text))
        except (TypeError, ValueError, RecursionError) as exc:
            why = str(exc) if isinstance(exc, SettingValueError) else f"{name} is not JSON"
            problems.append(
                StorageProblem(
                    ProblemKind.SETTING_REPLACED,
                    f"stored setting {name} is not valid ({why}); using its default "
                    f"{declared.text(declared.default)}",
                    subject=name,
                )
            )
    for problem in problems:
        log.warning("%s", problem.message)
    return settings, problems


def write_settings(conn: sqlite3.Connection, settings: Settings) -> None:
    """Write every setting; call inside a transaction. Settings that differ from their
    defaults get a row, the rest none; names this program does not know are left alone."""
    plain = settings.as_plain()
    changed = set(settings.changed())
    for s in SETTINGS:
        if s.name in changed:
            conn.execute(
                "INSERT INTO settings (name, value) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (s.name, json.dumps(plain[s.name])),
            )
        else:
            conn.execute("DELETE FROM settings WHERE name = ?", (s.name,))
