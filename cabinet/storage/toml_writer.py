"""A small TOML writer for settings files: tables of strings, integers, floats, booleans
and sub-tables (the standard library reads TOML, :mod:`tomllib`, but does not write it).

What it writes, :func:`tomllib.loads` reads back to the same values.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Union

TomlValue = Union[str, int, float, bool, "Mapping[str, TomlValue]"]
"""What :func:`dumps` writes: scalars, and mappings as (sub-)tables."""

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


class TomlWriteError(ValueError):
    """A value TOML cannot hold (or this writer does not write)."""


def key(name: str) -> str:
    """A key as TOML writes it: bare when it can be, else a quoted string."""
    return name if _BARE_KEY.fullmatch(name) else string(name)


def string(text: str) -> str:
    """A TOML basic string (double quotes, escapes for quotes, backslashes and control
    characters)."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def scalar(value: object) -> str:
    """A string, integer, float or boolean as TOML writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return string(value)
    raise TomlWriteError(f"TOML cannot hold a {type(value).__name__}: {value!r}")


def dumps(
    tables: Mapping[str, Mapping[str, TomlValue]],
    *,
    header: str = "",
    comments: Mapping[str, str] | None = None,
) -> str:
    """The TOML text of ``{table name: {key: value}}``; a value that is a mapping becomes
    a sub-table ``[table.key]`` after the table's own keys.

    ``header`` is written first as comment lines; ``comments`` maps ``"table.key"`` to a
    comment line written above that key (or above a sub-table's header).
    """
    notes = comments or {}
    lines = [_comment(line) for line in header.splitlines()]
    for name, values in tables.items():
        _table(lines, (name,), values, notes)
    return "\n".join(lines).lstrip("\n") + "\n"


def _table(
    lines: list[str],
    path: tuple[str, ...],
    values: Mapping[str, TomlValue],
    notes: Mapping[str, str],
) -> None:
    if lines:
        lines.append("")
    dotted = ".".join(path)
    if dotted in notes and len(path) > 1:
        lines.append(_comment(notes[dotted]))
    lines.append("[" + ".".join(key(p) for p in path) + "]")
    subtables = []
    for name, value in values.items():
        if isinstance(value, Mapping):
            subtables.append((name, value))
            continue
        note = notes.get(f"{dotted}.{name}")
        if note:
            lines.append(_comment(note))
        lines.append(f"{key(name)} = {scalar(value)}")
    for name, value in subtables:
        _table(lines, (*path, name), value, notes)


def _comment(text: str) -> str:
    """A comment line; control characters (which TOML refuses in comments) become
    spaces."""
    clean = "".join(" " if (ord(c) < 0x20 and c != "\t") or ord(c) == 0x7F else c for c in text)
    return f"# {clean}".rstrip()
