"""Settings files as TOML, with a comment above each setting: the layout is written
here, every key, table header and value by tomli-w (the standard library reads TOML,
:mod:`tomllib`, but does not write it; tomli-w writes no comments).

What it writes, :func:`tomllib.loads` reads back to the same values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Union

import tomli_w

TomlValue = Union[str, int, float, bool, "Mapping[str, TomlValue]"]
"""What :func:`dumps` writes: scalars, and mappings as (sub-)tables."""


class TomlWriteError(ValueError):
    """A value TOML cannot hold (or this writer does not write)."""


def _encoded(document: dict[str, Any]) -> str:
    try:
        return tomli_w.dumps(document).rstrip("\n")
    except TypeError as exc:
        raise TomlWriteError(f"TOML cannot hold {exc}") from None


def scalar(value: object) -> str:
    """A string, integer, float or boolean as TOML writes it."""
    if isinstance(value, Mapping | list | tuple) or value is None:
        raise TomlWriteError(f"TOML cannot hold a {type(value).__name__}: {value!r}")
    return _encoded({"x": value}).split(" = ", 1)[1]


def _assignment(name: str, value: object) -> str:
    scalar(value)  # refuses what this writer does not write
    return _encoded({name: value})


def _header(path: tuple[str, ...]) -> str:
    nested: dict[str, Any] = {}
    for part in reversed(path):
        nested = {part: nested}
    return _encoded(nested)


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
    lines.append(_header(path))
    subtables = []
    for name, value in values.items():
        if isinstance(value, Mapping):
            subtables.append((name, value))
            continue
        note = notes.get(f"{dotted}.{name}")
        if note:
            lines.append(_comment(note))
        lines.append(_assignment(name, value))
    for name, value in subtables:
        _table(lines, (*path, name), value, notes)


def _comment(text: str) -> str:
    """A comment line; control characters (which TOML refuses in comments) become
    spaces."""
    clean = "".join(" " if (ord(c) < 0x20 and c != "\t") or ord(c) == 0x7F else c for c in text)
    return f"# {clean}".rstrip()
