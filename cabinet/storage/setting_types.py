"""The kinds of setting: how each checks a value, describes what it allows, and steps.

A :class:`Setting` is a declaration (name, group, default, what is allowed, description);
the values live in :class:`cabinet.storage.settings.Settings`. Each kind's
:meth:`~Setting.check` turns a value read from anywhere (the database's JSON, a TOML file,
the service menu) into the setting's value, or raises :class:`SettingValueError` naming
the setting and what it allows.
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Generic, TypeVar

from game.rules import clipped_repr
from game.values import is_int

T = TypeVar("T")

PlainValue = str | int | float | bool | dict[str, str]
"""A setting's value as JSON and TOML hold it."""


class SettingGroup(enum.Enum):
    """Where a setting is shown in the service menu, and its table in a TOML file."""

    GAME = "game"
    CABINET = "cabinet"
    OPERATOR = "operator"
    PRICING = "pricing"


class SettingError(ValueError):
    """A setting's name or value is not valid; the message says what is allowed."""


class SettingValueError(SettingError):
    """A value a setting does not allow. ``name`` is the setting, ``allowed`` a phrase
    saying what it allows (e.g. ``"a whole number from 0 to 100 (%)"``)."""

    def __init__(self, name: str, allowed: str, value: object) -> None:
        super().__init__(f"{name} must be {allowed}; got {clipped_repr(value)}")
        self.name = name
        self.allowed = allowed
        self.value = value


class UnknownSettingError(SettingError):
    """No setting has that name."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        import difflib

        close = difflib.get_close_matches(name[:60], known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        super().__init__(f"there is no setting called {clipped_repr(name)}{hint}")
        self.name = name


@dataclass(frozen=True, kw_only=True)
class Setting(Generic[T]):
    """One setting's declaration."""

    name: str
    """Its key in the database, in TOML files and in code (``snake_case``, with the unit
    as a suffix where it has one: ``_ms``, ``_s``)."""
    group: SettingGroup
    default: T
    description: str
    """One sentence for the docs and the menu's help line."""

    def __post_init__(self) -> None:
        self.check(self.default)  # a declaration with a bad default fails at import

    def check(self, value: object) -> T:
        """``value`` as this setting's value; raises :class:`SettingValueError`."""
        raise NotImplementedError

    def allowed(self) -> str:
        """What this setting allows, as a phrase for errors and the docs."""
        raise NotImplementedError

    def to_plain(self, value: T) -> PlainValue:
        """The value as JSON and TOML hold it; :meth:`check` reads it back."""
        return value  # type: ignore[return-value]

    def text(self, value: T) -> str:
        """The value as the docs show it."""
        plain = self.to_plain(value)
        if isinstance(plain, bool):
            return "on" if plain else "off"
        if isinstance(plain, dict):
            return ", ".join(f"{k}={v}" for k, v in plain.items()) or "none"
        if isinstance(plain, str):
            return plain or '""'
        return str(plain)

    def step(self, value: T, direction: int) -> T:
        """The next value (``direction`` +1) or previous (-1) for the menu's left and
        right; a setting edited on its own screen (a path, a PIN, the key map) returns
        ``value`` unchanged."""
        return value

    @property
    def steppable(self) -> bool:
        """Whether :meth:`step` moves the value (else the menu needs an editor screen)."""
        return False

    def _bad(self, value: object) -> SettingValueError:
        return SettingValueError(self.name, self.allowed(), value)


@dataclass(frozen=True, kw_only=True)
class WholeNumber(Setting[int]):
    """An integer from ``low`` to ``high``, stepped by ``step`` in the menu."""

    low: int
    high: int
    step_by: int = 1
    unit: str = ""

    def check(self, value: object) -> int:
        if not is_int(value):
            raise self._bad(value)
        if not self.low <= value <= self.high:
            raise self._bad(value)
        return value

    def allowed(self) -> str:
        unit = f" ({self.unit})" if self.unit else ""
        return f"a whole number from {self.low} to {self.high}{unit}"

    def step(self, value: int, direction: int) -> int:
        moved = value + self.step_by * (1 if direction > 0 else -1)
        return min(self.high, max(self.low, moved))

    @property
    def steppable(self) -> bool:
        return True


@dataclass(frozen=True, kw_only=True)
class Decimal(Setting[float]):
    """A number (whole or not) from ``low`` to ``high``; whole numbers are accepted."""

    low: float
    high: float
    step_by: float = 1.0
    unit: str = ""

    def check(self, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._bad(value)
        number = float(value)
        if math.isnan(number) or not self.low <= number <= self.high:
            raise self._bad(value)
        return number

    def allowed(self) -> str:
        unit = f" ({self.unit})" if self.unit else ""
        return f"a number from {self.low:g} to {self.high:g}{unit}"

    def step(self, value: float, direction: int) -> float:
        moved = round(value + self.step_by * (1 if direction > 0 else -1), 6)
        return min(self.high, max(self.low, moved))

    @property
    def steppable(self) -> bool:
        return True


@dataclass(frozen=True, kw_only=True)
class Switch(Setting[bool]):
    """On or off (``true``/``false`` in TOML)."""

    def check(self, value: object) -> bool:
        if not isinstance(value, bool):
            raise self._bad(value)
        return value

    def allowed(self) -> str:
        return "true or false"

    def step(self, value: bool, direction: int) -> bool:
        return not value

    @property
    def steppable(self) -> bool:
        return True


@dataclass(frozen=True, kw_only=True)
class Choice(Setting[T]):
    """One of a fixed list of values (strings or whole numbers), in menu order."""

    choices: tuple[T, ...]

    def check(self, value: object) -> T:
        for choice in self.choices:
            if type(choice) is type(value) and choice == value:
                return choice
        raise self._bad(value)

    def allowed(self) -> str:
        names = [f'"{c}"' if isinstance(c, str) else str(c) for c in self.choices]
        return "one of " + ", ".join(names)

    def text(self, value: T) -> str:
        return str(value)

    def step(self, value: T, direction: int) -> T:
        i = self.choices.index(value)
        return self.choices[(i + (1 if direction > 0 else -1)) % len(self.choices)]

    @property
    def steppable(self) -> bool:
        return True


AUTO = "auto"
"""The value of a setting the cabinet decides for itself (resolution, LED port)."""

_RESOLUTION = re.compile(r"([0-9]{3,5})[xX]([0-9]{3,5})")


@dataclass(frozen=True, kw_only=True)
class Resolution(Setting[str]):
    """``"auto"`` (the screen's own) or ``"WIDTHxHEIGHT"`` in pixels, e.g. ``"1280x720"``;
    the menu steps through :attr:`common`."""

    low: int = 320
    high: int = 7680
    common: tuple[str, ...] = ("auto", "800x480", "1024x600", "1280x720", "1920x1080")

    def check(self, value: object) -> str:
        if value == AUTO:
            return AUTO
        match = _RESOLUTION.fullmatch(value) if isinstance(value, str) else None
        if match is None:
            raise self._bad(value)
        width, height = int(match[1]), int(match[2])
        if not (self.low <= width <= self.high and self.low <= height <= self.high):
            raise self._bad(value)
        return f"{width}x{height}"

    def allowed(self) -> str:
        return (
            f'"auto" or "WIDTHxHEIGHT" in pixels, each from {self.low} to {self.high} '
            '(e.g. "1280x720")'
        )

    def step(self, value: str, direction: int) -> str:
        if value not in self.common:
            return self.common[0]
        i = self.common.index(value)
        return self.common[(i + (1 if direction > 0 else -1)) % len(self.common)]

    @property
    def steppable(self) -> bool:
        return True


_PORT = re.compile(r"/[^\x00-\x1f\x7f]{1,254}|COM[1-9][0-9]{0,2}")


@dataclass(frozen=True, kw_only=True)
class SerialPort(Setting[str]):
    """``"auto"`` (find the light board by its USB identity) or a serial device path, e.g.
    ``"/dev/ttyACM0"`` or ``"/dev/serial/by-id/usb-…"`` (``"COM3"`` on Windows)."""

    def check(self, value: object) -> str:
        if value == AUTO:
            return AUTO
        if not isinstance(value, str) or value != value.strip() or not _PORT.fullmatch(value):
            raise self._bad(value)
        return value

    def allowed(self) -> str:
        return '"auto" or a serial device path starting with "/" (e.g. "/dev/ttyACM0")'


@dataclass(frozen=True, kw_only=True)
class Pin(Setting[str]):
    """The operator PIN: ``""`` (none) or 4 to 8 digits, each 1–6 naming one of player
    1's buttons (1–4 the slots left to right, 5 and 6 the piles)."""

    def check(self, value: object) -> str:
        if value == "":
            return ""
        if not isinstance(value, str) or not 4 <= len(value) <= 8:
            raise self._bad(value)
        if any(ch not in "123456" for ch in value):
            raise self._bad(value)
        return value

    def allowed(self) -> str:
        return '"" (no PIN) or 4 to 8 digits, each from 1 to 6 (player 1\'s buttons)'

    def text(self, value: str) -> str:
        return '"" (none)' if value == "" else "set"


@dataclass(frozen=True, kw_only=True)
class KeyMapOverrides(Setting[Mapping[str, str]]):
    """Keys replacing the keyboard backend's defaults: ``{control name: key name}``, e.g.
    ``{"p1.slot1": "q"}``; controls left out keep their default key. Checked by building
    the whole key map (:meth:`cabinet.inputs.keyboard.KeyMap.from_names`)."""

    default: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def check(self, value: object) -> Mapping[str, str]:
        if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        ):
            raise self._bad(value)
        if not value:
            return MappingProxyType({})
        # Key names are checked against SDL's table, so pygame is loaded here (not before
        # it is needed; cabinet/__init__ keeps its greeting out of a command's output).
        from cabinet.inputs.controls import Control, ControlError
        from cabinet.inputs.keyboard import KeyMap, KeyMapError

        try:
            canonical = {Control.parse(k).name: v for k, v in value.items()}
            KeyMap.from_names(canonical)
        except (ControlError, KeyMapError) as exc:
            raise SettingValueError(self.name, f"{self.allowed()} ({exc})", dict(value)) from None
        return MappingProxyType(canonical)

    def allowed(self) -> str:
        return (
            "a table of control names (p1.slot1 … p2.pile2, test, service) to pygame key "
            "names, one key per control"
        )

    def to_plain(self, value: Mapping[str, str]) -> PlainValue:
        return dict(value)
