"""What a ``spit-cabinet doctor`` check found: a :class:`Finding` at a :class:`Severity`."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Severity(enum.Enum):
    """How a check went."""

    OK = "ok"
    WARN = "warn"
    """Works, but not as the cabinet should: the line says what to do."""
    FAIL = "fail"

    @property
    def mark(self) -> str:
        """The line's mark, four characters wide: ``ok  ``, ``warn``, ``FAIL``."""
        return _MARKS[self]


_MARKS = {Severity.OK: "ok  ", Severity.WARN: "warn", Severity.FAIL: "FAIL"}


@dataclass(frozen=True, slots=True)
class Finding:
    """One check's result: how it went (``severity``), what was found, and what to do."""

    name: str
    severity: Severity
    detail: str
    fix: str | None = None

    def line(self) -> str:
        text = f"[{self.severity.mark}] {self.name}: {self.detail}"
        return text + (f"\n       → {self.fix}" if self.fix else "")
