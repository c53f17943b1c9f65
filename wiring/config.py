"""The operator's pin map override: a TOML file that moves lines off the default GPIOs.

Only the lines the file names move; every other keeps its default GPIO. Numbers are BCM
GPIO numbers (``GPIO17`` is 17), never physical pin numbers::

    # The UART's GPIO14 may carry a button: the serial console is off on this cabinet.
    # (Top-level keys come before the first [table].)
    allow_reserved = [14]

    # Player 1's slot 1 button moved to GPIO4, coin 1's (free here), since GPIO17 was damaged.
    [player1]
    slot1 = 4

    [player2]
    pile2 = 14

    [operator]
    door = false        # this cabinet has no door switch
    coin1 = false       # nor a coin mechanism: it is set to free play

Top-level keys: ``allow_reserved`` (a list of reserved GPIOs the map may use), written
before the first table; then the tables ``[player1]`` and ``[player2]`` (keys ``slot1`` to
``slot4``, ``pile1``, ``pile2``) and ``[operator]`` (keys ``test``, ``service``, ``door``,
``coin1``, ``coin2``, ``meter``, ``lockout``). ``false`` instead of a number removes an
optional line: ``door``, ``coin1``, ``coin2``, ``meter`` or ``lockout``. The default map
wires neither ``coin2`` nor ``lockout``: :mod:`wiring.default` shows where they go. Any
error names the file, the line and what is wrong.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from wiring.default import DEFAULT_PIN_MAP
from wiring.errors import ConfigError, PinUsedTwiceError, WiringError
from wiring.pinmap import (
    OPERATOR_CONTROLS,
    OPTIONAL,
    PLAYER_BUTTONS,
    PLAYERS,
    Control,
    Function,
    PinMap,
    check_allowed_reserved,
    check_pin,
    free_gpios,
    is_int,
)
from wiring.tomllines import KeyPath, key_lines, line_of

#: The player tables' names in the file, by player (0 and 1).
PLAYER_TABLES: Final[dict[str, int]] = {f"player{p + 1}": p for p in PLAYERS}
OPERATOR_TABLE: Final = "operator"
ALLOW_RESERVED: Final = "allow_reserved"
TOP_LEVEL_KEYS: Final[tuple[str, ...]] = (*PLAYER_TABLES, OPERATOR_TABLE, ALLOW_RESERVED)

#: How the error for ``key = true`` names an optional line: (whose GPIO number to give,
#: what the cabinet lacks when the key is ``false``).
_OPTIONAL_WORDS: Final[dict[Function, tuple[str, str]]] = {
    Function.DOOR: ("the door switch's", "no door switch"),
    Function.COIN1: ("coin mechanism 1's", "no first coin mechanism"),
    Function.COIN2: ("coin mechanism 2's", "no second coin mechanism"),
    Function.METER: ("the coin meter driver's", "no coin meter"),
    Function.LOCKOUT: ("the lockout driver's", "no lockout coil"),
}

_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column \d+\)$|\s*\(at end of document\)$")


MAX_CONFIG_CHARS = 1_000_000
"""The longest override file read (characters): a whole pin map is about 1,500."""


MAX_CONFIG_BYTES = 4 * MAX_CONFIG_CHARS
"""The most bytes read of an override file (one that lists every control is under 2 KB):
as many as :data:`MAX_CONFIG_CHARS` characters can take in UTF-8, so a file is refused
unread only when it is over the character limit anyway."""


def load_config(path: str | Path, base: PinMap = DEFAULT_PIN_MAP) -> PinMap:
    """Read the override file at ``path`` and return ``base`` with its changes.

    Raises a :class:`~wiring.errors.WiringError` subclass placed at the file and line.
    """
    source = str(path)
    try:
        with Path(path).open("rb") as f:  # a pin map is a few kilobytes: read no more
            raw = f.read(MAX_CONFIG_BYTES + 1)
    except OSError as e:
        raise ConfigError(f"cannot read the file: {e.strerror or e}").located(source) from e
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"larger than the limit of {MAX_CONFIG_BYTES} bytes").located(source)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise ConfigError("not UTF-8 text; save the file as UTF-8").located(source, line) from e
    return parse_config(text, source, base)


def parse_config(text: str, source: str | None = None, base: PinMap = DEFAULT_PIN_MAP) -> PinMap:
    """``base`` with the changes of the override document ``text``.

    ``source`` names the document in errors (a file name). Raises a
    :class:`~wiring.errors.WiringError` subclass placed at the line of the offending key.
    """
    if len(text) > MAX_CONFIG_CHARS:
        raise ConfigError(
            f"the file is {len(text):,} characters long; an override has at most "
            f"{MAX_CONFIG_CHARS:,}"
        ).located(source)
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise ConfigError("not valid TOML: nested too deep").located(source) from None
    except tomllib.TOMLDecodeError as e:
        raise _syntax_error(e).located(source, _syntax_line(e, text)) from e
    return _Override(text, source).apply(data, base)


def _syntax_error(e: tomllib.TOMLDecodeError) -> ConfigError:
    message = _TOML_POSITION.sub("", str(e))
    if str(e).endswith("(at end of document)"):
        message += " at the end of the file"
    return ConfigError(f"not valid TOML: {message}")


def _syntax_line(e: tomllib.TOMLDecodeError, text: str) -> int:
    lineno = getattr(e, "lineno", None)  # Python 3.14 and later
    if isinstance(lineno, int):
        return lineno
    found = re.search(r"\(at line (\d+), column \d+\)$", str(e))
    if found:
        return int(found.group(1))
    # "at end of document": the last line that holds anything
    return max(1, len(text.rstrip().splitlines()))


class _Override:
    """One override document being applied; knows the line of every key for errors."""

    def __init__(self, text: str, source: str | None) -> None:
        self.source = source
        self.lines = key_lines(text)

    def at(self, error: WiringError, path: KeyPath) -> WiringError:
        return error.located(self.source, line_of(self.lines, path))

    def apply(self, data: Mapping[str, object], base: PinMap) -> PinMap:
        for key in data:
            if key not in TOP_LEVEL_KEYS:
                raise self.at(
                    ConfigError(
                        f"unknown key {key!r}: the file may hold allow_reserved and the tables "
                        f"[player1], [player2] and [operator]"
                    ),
                    (key,),
                )
        allow = self.allow_reserved(data.get(ALLOW_RESERVED, []))
        allow |= base.allow_reserved
        changes: dict[Control, tuple[int, KeyPath]] = {}
        removed: set[Control] = set()
        for table, player in PLAYER_TABLES.items():
            if table in data:
                self.player_table(table, player, data[table], allow, changes)
        if OPERATOR_TABLE in data:
            self.operator_table(data[OPERATOR_TABLE], allow, changes, removed)

        merged: dict[Control, tuple[int, KeyPath | None]] = {
            c: (b, None) for c, b in base.pins().items() if c not in changes and c not in removed
        }
        merged.update(changes)
        self.check_twice(merged)
        try:
            return PinMap.from_pins({c: b for c, (b, _) in merged.items()}, allow)
        except WiringError as e:
            raise e.located(self.source) from None

    def allow_reserved(self, value: object) -> frozenset[int]:
        if not isinstance(value, list):
            raise self.at(
                ConfigError(
                    f"allow_reserved must be a list of GPIO numbers, like [14, 15]; "
                    f"got {_describe(value)}"
                ),
                (ALLOW_RESERVED,),
            )
        allowed: set[int] = set()
        for index, bcm in enumerate(value):
            try:
                allowed.add(check_allowed_reserved(bcm))
            except WiringError as e:
                raise self.at(e, (ALLOW_RESERVED, index)) from None
        return frozenset(allowed)

    def table(self, name: str, value: object, keys: tuple[Function, ...]) -> Mapping[str, object]:
        example = f"[{name}]\n{keys[0].value} = 17"
        if not isinstance(value, dict):
            raise self.at(
                ConfigError(
                    f"{name} must be a table of buttons, written as {example!r}; "
                    f"got {_describe(value)}"
                ),
                (name,),
            )
        for key in value:
            if key in TOP_LEVEL_KEYS:
                raise self.at(
                    ConfigError(
                        f"{key} is a top-level key, but here it is inside [{name}]: move it "
                        f"above the first [table] of the file"
                    ),
                    (name, key),
                )
            if key not in {f.value for f in keys}:
                known = ", ".join(f.value for f in keys)
                raise self.at(
                    ConfigError(f"unknown key {key!r} in [{name}]: it may hold {known}"),
                    (name, key),
                )
        return value

    def pin(
        self, name: str, key: str, value: object, control: Control, allow: frozenset[int]
    ) -> int:
        path = (name, key)
        if not is_int(value):
            raise self.at(
                ConfigError(
                    f"{name}.{key} must be a BCM GPIO number such as 17 (no quotes), "
                    f"got {_describe(value)}"
                ),
                path,
            )
        try:
            return check_pin(control, value, allow)
        except WiringError as e:
            raise self.at(e, path) from None

    def player_table(
        self,
        name: str,
        player: int,
        value: object,
        allow: frozenset[int],
        changes: dict[Control, tuple[int, KeyPath]],
    ) -> None:
        for key, bcm in self.table(name, value, PLAYER_BUTTONS).items():
            control = Control(Function(key), player)
            changes[control] = (self.pin(name, key, bcm, control, allow), (name, key))

    def operator_table(
        self,
        value: object,
        allow: frozenset[int],
        changes: dict[Control, tuple[int, KeyPath]],
        removed: set[Control],
    ) -> None:
        name = OPERATOR_TABLE
        for key, bcm in self.table(name, value, OPERATOR_CONTROLS).items():
            control = Control(Function(key))
            if control.function in OPTIONAL and isinstance(bcm, bool):
                if bcm:
                    whose, absent = _OPTIONAL_WORDS[control.function]
                    raise self.at(
                        ConfigError(
                            f"{key} = true does not say which GPIO: give {whose} BCM GPIO "
                            f"number, or {key} = false when there is {absent}"
                        ),
                        (name, key),
                    )
                removed.add(control)
                continue
            changes[control] = (self.pin(name, key, bcm, control, allow), (name, key))

    def check_twice(self, merged: Mapping[Control, tuple[int, KeyPath | None]]) -> None:
        """Raise :class:`PinUsedTwiceError` for a GPIO given to two controls, naming where
        each one comes from (a line of the file or the default map)."""
        by_pin: dict[int, tuple[Control, KeyPath | None]] = {}
        entries = sorted(merged.items(), key=lambda item: self.sort_line(item[1][1]))
        for control, (bcm, path) in entries:
            if bcm in by_pin:
                first, first_path = by_pin[bcm]
                error = PinUsedTwiceError(
                    bcm,
                    first,
                    control,
                    first_origin=self.origin(first_path),
                    second_origin=self.origin(path),
                    free=free_gpios(b for b, _ in merged.values()),
                )
                raise self.at(error, path if path is not None else ())
            by_pin[bcm] = (control, path)

    def sort_line(self, path: KeyPath | None) -> int:
        """Default-map entries first, then the file's in line order."""
        if path is None:
            return 0
        return line_of(self.lines, path) or 0

    def origin(self, path: KeyPath | None) -> str:
        if path is None:
            return "default map"
        line = line_of(self.lines, path)
        return f"line {line}" if line is not None else "this file"


SHOWN_CHARS = 60
"""How much of a bad string an error repeats."""


def _describe(value: object) -> str:
    """A value as a TOML reader would name it: ``the string '17'``, ``a table``..."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, str):
        shown = repr(value[:SHOWN_CHARS]) + ("…" if len(value) > SHOWN_CHARS else "")
        return f"the string {shown}"
    if isinstance(value, float):
        return f"the decimal number {value}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)
