"""What a match record's reader refuses, and how it says so: :class:`RecordError`, which
names the bad field, and the limits of ``docs/match-record.md`` ("Limits") on nesting,
integers and times. The size limit, ``MAX_RECORD_BYTES``, is :mod:`game.record`'s own.

>>> check_tree({"edges": [{"t_ns": 10**MAX_INT_DIGITS}]}, [], 0)
Traceback (most recent call last):
...
game.record_limits.RecordError: edges[0].t_ns: an integer of more than 100 digits
>>> read_ns("end_ns", 5, 0)
5
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.rules import clipped_repr
from game.values import is_int

MAX_DEPTH = 64
"""How deep arrays and objects may nest, the record's own object counting as 1. A record
is 3 deep (``edges``, each edge) and its ``meta`` a few more; the limit keeps a reader
(and everything that walks what it read) far from Python's recursion limit."""
MAX_INT_DIGITS = 100
"""The most decimal digits an integer in a record may have, far below Python's 4,300-digit
limit on converting text to ``int``: no integer a record needs comes near it."""
MAX_NS = 2**63 - 1
"""The latest time a record may hold (ns; about 292 years): a signed 64-bit count."""


class RecordError(ValueError):
    """A match record is malformed; the message names the field and the problem."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


def read_ns(field: str, value: object, low: int) -> int:
    """A time in ns: an integer from ``low`` to :data:`MAX_NS`."""
    if not is_int(value):
        raise RecordError(field, f"must be an integer, got {clipped_repr(value)}")
    assert isinstance(value, int)
    if value < low:
        wanted = "0 or more" if low == 0 else f"at least {low}"
        raise RecordError(field, f"must be {wanted}, got {value}")
    if value > MAX_NS:
        raise RecordError(field, f"must be at most {MAX_NS} (2**63 - 1), got {value}")
    return value


class _LongInteger:
    """What the JSON parser gives for an integer of more than :data:`MAX_INT_DIGITS`
    digits, so that :func:`check_tree` can name the field it is in."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<an integer of more than {MAX_INT_DIGITS} digits>"


_LONG_INTEGER = _LongInteger()
_INT_BOUND = 10**MAX_INT_DIGITS


def parse_int(text: str) -> int | _LongInteger:
    """The JSON parser's ``parse_int``: an integer of more than :data:`MAX_INT_DIGITS`
    digits is never converted, only marked for :func:`check_tree` to refuse."""
    if len(text) - text.startswith("-") > MAX_INT_DIGITS:
        return _LONG_INTEGER
    return int(text)


def check_tree(value: dict[str, Any] | list[Any], path: list[str | int], depth: int) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and integers of more than
    :data:`MAX_INT_DIGITS` digits anywhere in the record (``result`` and ``meta``
    included), naming where. ``value`` is at level ``depth`` + 1; this recurses at most
    :data:`MAX_DEPTH` deep."""
    if depth >= MAX_DEPTH:
        raise RecordError(_field(path[:1]), f"nested deeper than {MAX_DEPTH} levels")
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        if isinstance(item, dict | list):
            check_tree(item, [*path, key], depth + 1)
        elif isinstance(item, _LongInteger) or (isinstance(item, int) and abs(item) >= _INT_BOUND):
            raise RecordError(
                _field([*path, key]), f"an integer of more than {MAX_INT_DIGITS} digits"
            )


def _field(path: Sequence[object]) -> str:
    """``["edges", 2, "t_ns"]`` → ``edges[2].t_ns``."""
    text = ""
    for key in path:
        if isinstance(key, int):
            text += f"[{key}]"
        elif isinstance(key, str) and key.isidentifier() and len(key) <= 40:
            text += f".{key}" if text else key
        else:
            text += f"[{clipped_repr(key, 40)}]"
    return text or "record"
