"""Reading a summary's JSON back, key by key: each reader takes an object and a key and
returns the typed value, or raises :class:`SummaryError` naming the key (``parent.key``
inside a nested object) and what was wrong. :mod:`game.summary` and
:mod:`game.record_parts` read through them.
"""

from __future__ import annotations

from collections.abc import Mapping

from game.events import Termination
from game.rules import clipped_repr
from game.values import is_int


class SummaryError(ValueError):
    """A summary's JSON is malformed; the message names the key and the problem."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


def read_termination(obj: Mapping[str, object]) -> Termination | None:
    """``obj["termination"]``: a :class:`Termination`'s value or null."""
    value = read_value(obj, "termination")
    if value is None:
        return None
    try:
        return Termination(value)
    except ValueError:
        choices = ", ".join(t.value for t in Termination)
        raise SummaryError(
            "termination", f"must be one of {choices} or null, got {clipped_repr(value)}"
        ) from None


def is_pair(value: object, *, optional: bool) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(is_int(v) or (optional and v is None) for v in value)
    )


def field_name(parent: str | None, key: str) -> str:
    return key if parent is None else f"{parent}.{key}"


def read_object(data: object, field: str) -> Mapping[str, object]:
    if not isinstance(data, dict):
        raise SummaryError(field, "must be an object")
    return data


def read_value(obj: Mapping[str, object], key: str, parent: str | None = None) -> object:
    if key not in obj:
        raise SummaryError(field_name(parent, key), "missing")
    return obj[key]


def read_int(obj: Mapping[str, object], key: str, parent: str | None = None) -> int:
    value = read_value(obj, key, parent)
    if not is_int(value):
        got = clipped_repr(value)
        raise SummaryError(field_name(parent, key), f"must be an integer, got {got}")
    return value


def read_optional_int(obj: Mapping[str, object], key: str, parent: str | None = None) -> int | None:
    value = read_value(obj, key, parent)
    if value is None:
        return None
    return read_int(obj, key, parent)


def read_player(obj: Mapping[str, object], key: str, parent: str | None = None) -> int:
    value = read_int(obj, key, parent)
    if value not in (0, 1):
        raise SummaryError(field_name(parent, key), f"must be 0 or 1, got {value}")
    return value


def read_optional_player(obj: Mapping[str, object], key: str) -> int | None:
    return None if read_value(obj, key) is None else read_player(obj, key)


def read_bool(obj: Mapping[str, object], key: str) -> bool:
    value = read_value(obj, key)
    if not isinstance(value, bool):
        raise SummaryError(key, f"must be true or false, got {clipped_repr(value)}")
    return value


def read_int_pair(obj: Mapping[str, object], key: str) -> tuple[int, int]:
    value = read_value(obj, key)
    if not is_pair(value, optional=False):
        raise SummaryError(key, "must be a list of two integers")
    assert isinstance(value, list)
    return (value[0], value[1])
