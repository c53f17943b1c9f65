"""A cabinet's newest fairness certificate, for its page: the cabinet's own test that the
first press wins (docs/fairness.md), judged on the cabinet and sent as a ``fairness``
event. The verdict is the cabinet's (the certificate's ``passed``); the page only reads
it, with each offset's share of pairs decided right, and warns when the test failed or
is older than :data:`STALE_DAYS`."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import psycopg

from fleet.web import fmt
from fleet.wire import FAIRNESS_CASE_KEYS

STALE_DAYS = 90
"""A certificate older than this (by when the cabinet wrote it) is shown with a warning: a
cabinet's buttons, wiring and software change over a season; run the test again."""


@dataclass(frozen=True, slots=True)
class FairnessCase:
    """One offset of a certificate: how many pairs, how many decided right, how many
    missed a press, how many presses came late."""

    offset_us: int
    pairs: int
    right: int
    missed: int
    late: int

    @property
    def share(self) -> str:
        """The share decided right, as the page prints it (``99.9 %``)."""
        return f"{100 * self.right / self.pairs:.1f} %" if self.pairs else "–"


@dataclass(frozen=True, slots=True)
class Fairness:
    """The newest certificate: when it was taken (the cabinet's clock, as it wrote it),
    by which version, what pressed, under which race window, its verdict and offsets."""

    taken_at: str
    written_at: datetime.datetime
    version: str
    source: str
    window_ms: float
    passed: bool
    cases: tuple[FairnessCase, ...]
    stale: bool

    @property
    def warn(self) -> bool:
        """Shown in the warning style: it failed, or it is too old to vouch for now."""
        return not self.passed or self.stale


def _int(value: object) -> int:
    return value if type(value) is int else 0


def _taken(text: str) -> str:
    """The certificate's time as the pages print times (UTC, to the minute), or as the
    cabinet wrote it when it is not a time."""
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        return text
    return fmt.stamp(moment) if moment.tzinfo is not None else text


def latest_fairness(
    conn: psycopg.Connection[Any], name: str, now: datetime.datetime
) -> Fairness | None:
    """Cabinet ``name``'s newest certificate (by when the cabinet wrote it), or ``None``
    when it has sent none."""
    row = conn.execute(
        "SELECT body, written_at FROM events WHERE cabinet = %s AND kind = 'fairness' "
        "ORDER BY written_at DESC, seq DESC LIMIT 1",
        (name,),
    ).fetchone()
    if row is None or not isinstance(row[0], dict):
        return None
    body, written_at = row
    cases = tuple(
        FairnessCase(**{key: _int(case.get(key)) for key in FAIRNESS_CASE_KEYS})
        for case in body.get("cases", [])
        if isinstance(case, dict)
    )
    window = body.get("window_ms")
    return Fairness(
        _taken(str(body.get("taken_at", ""))),
        written_at,
        str(body.get("version", "")),
        str(body.get("source", "")),
        float(window) if isinstance(window, int | float) else 0.0,
        body.get("passed") is True,
        cases,
        now - written_at > datetime.timedelta(days=STALE_DAYS),
    )
