"""What every message of the fleet shares, up or down: its version, its size bound, its
JSON framing, the cabinet ids in its topics, and the error that refuses it, with the
:class:`Refusal` that says which kind of wrong it is (what the fleet counts per
cabinet). Standard library only: the cabinet's link and the fleet's ingest both use it,
with :mod:`fleet.wire` (what a cabinet sends up) and :mod:`fleet.wire_down` (what the
fleet sends down).

>>> decode(encode({"v": WIRE_VERSION, "through": 3}))
{'through': 3, 'v': 1}
>>> decode(b'{"v": 2}')
Traceback (most recent call last):
...
fleet.wire_common.WireError: wire version '2' (this fleet reads 1)
>>> try:
...     decode(b"\\xff")
... except WireError as exc:
...     exc.refusal
<Refusal.NOT_JSON: 'not_json'>
"""

from __future__ import annotations

import json
import re
from enum import StrEnum
from typing import Any

WIRE_VERSION = 1
"""The version of the fleet's messages: a message of another version is refused."""

MAX_MESSAGE_BYTES = 256 * 1024
"""The largest message either side accepts (a batch is cut to fit well below it)."""

ROOT = "spit"
"""Every topic of the fleet is under this one."""

NAME_PATTERN = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?")
"""A cabinet's id: lower-case letters, digits and inner hyphens, 1 to 40 characters (it is
a topic level, a broker user name and a client id, so nothing else is allowed)."""

EPOCH_PATTERN = re.compile(r"[0-9a-f]{16}")
"""An epoch: 16 hexadecimal digits, drawn at random when a cabinet's database is made."""


class Refusal(StrEnum):
    """Why a message was refused, in a word (the fleet counts refusals per cabinet and
    refusal; the :class:`WireError`'s text says the detail)."""

    OVERSIZED = "oversized"
    """Larger than :data:`MAX_MESSAGE_BYTES`."""
    NOT_JSON = "not_json"
    """Not UTF-8 JSON, or not a JSON object."""
    WIRE_VERSION = "wire_version"
    """Of another version than :data:`WIRE_VERSION`."""
    MALFORMED = "malformed"
    """JSON of this version, but not the shape its topic's message has."""
    TOPIC = "topic"
    """On a topic that is not the fleet's, or not the one for this message."""
    WRONG_CABINET = "wrong_cabinet"
    """On one cabinet's topic, saying it is from another."""
    REVOKED = "revoked"
    """From a cabinet the fleet has revoked (ingest's check: the wire cannot tell)."""
    UNKNOWN_CABINET = "unknown_cabinet"
    """From a cabinet the fleet does not know (ingest's check)."""


class WireError(ValueError):
    """A message that is not what the wire format says (refused, logged and counted):
    ``str(error)`` says what is wrong, :attr:`refusal` which kind of wrong it is."""

    def __init__(self, problem: str, refusal: Refusal = Refusal.MALFORMED) -> None:
        super().__init__(problem)
        self.refusal = refusal


def check_name(name: str) -> str:
    """``name`` if it is a valid cabinet id, else :class:`WireError`."""
    if not isinstance(name, str) or NAME_PATTERN.fullmatch(name) is None:
        raise WireError(
            f"{str(name)[:50]!r} is not a cabinet id (lower-case letters, digits and inner "
            "hyphens, at most 40)"
        )
    return name


def encode(value: dict[str, Any]) -> bytes:
    """A message's bytes: compact JSON, keys sorted (the same value, the same bytes)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True).encode()


def decode(payload: bytes) -> dict[str, Any]:
    """A message's JSON object, its size and version checked; else :class:`WireError`."""
    if len(payload) > MAX_MESSAGE_BYTES:
        raise WireError(
            f"oversized: {len(payload)} bytes (at most {MAX_MESSAGE_BYTES})", Refusal.OVERSIZED
        )
    try:
        value = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise WireError(f"not JSON ({exc})", Refusal.NOT_JSON) from None
    if not isinstance(value, dict):
        raise WireError("not a JSON object", Refusal.NOT_JSON)
    if value.get("v") != WIRE_VERSION:
        raise WireError(
            f"wire version {str(value.get('v'))[:20]!r} (this fleet reads {WIRE_VERSION})",
            Refusal.WIRE_VERSION,
        )
    return value


def whole(value: object, what: str, minimum: int = 0) -> int:
    """``value`` if it is a whole number from ``minimum`` that a ``bigint`` holds; else
    :class:`WireError` saying ``what`` it was."""
    if type(value) is not int or value < minimum or value >= 2**63:
        raise WireError(f"{what} is not a whole number from {minimum}")
    return value


def check_epoch(value: object) -> str:
    """``value`` if it is an epoch (:data:`EPOCH_PATTERN`); else :class:`WireError`."""
    if not isinstance(value, str) or EPOCH_PATTERN.fullmatch(value) is None:
        raise WireError("epoch is not 16 hexadecimal digits")
    return value
