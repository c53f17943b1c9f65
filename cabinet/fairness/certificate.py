"""A fairness test's result: its certificate (docs/fairness.md).

The body is the one the books keep (``fairness`` table) and the fleet is sent (the
``fairness`` event): which jig pressed, the race window, the schedule's seed and gap,
and per offset how many pairs the referee decided right, wrong, or could not judge
(``missed``: a press of the pair never arrived), with the presses taken as late.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

PASS_SHARE = 0.999
"""The share of pairs an offset from :data:`PASS_FROM_US` on must have decided right."""
PASS_FROM_US = 100
"""The shortest offset the certificate holds the cabinet to (shorter ones are reported):
two presses 100 µs apart are closer than two fingers can press on purpose."""


class Source(StrEnum):
    """What pressed the pairs."""

    JIG = "jig"
    """The Pico jig wired across two button lines (a real cabinet)."""
    VIRTUAL = "virtual"
    """The virtual Pi's injector on the kernel's GPIO simulator."""
    MOCK = "mock"
    """gpiozero's mock pins (a desktop, the tests)."""


@dataclass(frozen=True, slots=True)
class CaseResult:
    """One offset's pairs: how many were decided right, wrong, or missed a press."""

    offset_us: int
    pairs: int
    right: int = 0
    wrong: int = 0
    missed: int = 0
    late: int = 0

    @property
    def share_right(self) -> float:
        return self.right / self.pairs if self.pairs else 0.0

    @property
    def held_to(self) -> bool:
        """Whether the pass mark applies to this offset."""
        return self.offset_us >= PASS_FROM_US

    @property
    def passed(self) -> bool:
        return not self.held_to or (self.share_right >= PASS_SHARE and self.missed == 0)

    def body(self) -> dict[str, int]:
        return {
            "offset_us": self.offset_us,
            "pairs": self.pairs,
            "right": self.right,
            "wrong": self.wrong,
            "missed": self.missed,
            "late": self.late,
        }


@dataclass(frozen=True, slots=True)
class Certificate:
    """A whole test's result."""

    source: Source
    window_ms: float
    seed: int
    gap_ms: int
    cases: tuple[CaseResult, ...]
    version: str
    taken_at: str
    """ISO 8601 UTC, the cabinet's clock."""

    @property
    def passed(self) -> bool:
        """Every offset held to the mark has it, and the test pressed at all."""
        return bool(self.cases) and all(case.passed for case in self.cases)

    def body(self) -> dict[str, Any]:
        return {
            "source": self.source.value,
            "window_ms": self.window_ms,
            "seed": self.seed,
            "gap_ms": self.gap_ms,
            "cases": [case.body() for case in self.cases],
            "passed": self.passed,
            "version": self.version,
            "taken_at": self.taken_at,
        }

    @classmethod
    def from_body(cls, body: Mapping[str, Any]) -> Certificate:
        """The certificate ``body`` holds (:meth:`body`); ``ValueError`` when it is not one."""
        try:
            cases = tuple(
                CaseResult(**{k: int(case[k]) for k in _CASE_KEYS}) for case in body["cases"]
            )
            return cls(
                Source(body["source"]),
                float(body["window_ms"]),
                int(body["seed"]),
                int(body["gap_ms"]),
                cases,
                str(body["version"]),
                str(body["taken_at"]),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a fairness certificate: {exc}") from None

    def lines(self) -> list[str]:
        """The certificate in words, a line per offset (the command prints them)."""
        verdict = "PASSED" if self.passed else "FAILED"
        out = [
            f"fairness certificate: {verdict} ({self.source.value}, race window "
            f"{self.window_ms:g} ms, {self.taken_at}, version {self.version})"
        ]
        for case in self.cases:
            mark = "" if case.held_to else "  (reported, not held to)"
            out.append(
                f"  {case.offset_us:>6} µs: {case.right}/{case.pairs} right "
                f"({100 * case.share_right:.1f} %), {case.wrong} wrong, {case.missed} missed, "
                f"{case.late} late{mark}"
            )
        return out


_CASE_KEYS: Sequence[str] = ("offset_us", "pairs", "right", "wrong", "missed", "late")
