"""A fairness test under way, whoever hands its judge the presses, and the certificate it
ends with.

Two hosts run a test. ``spit-cabinet fairness`` opens the buttons itself and pumps its own
feed (:func:`cabinet.fairness.runner.run_test`); the service menu's page
(:mod:`cabinet.service.fairness_run`) is given the presses the table process took in, each
with its kernel stamp and the moment the table's feed took it in
(:class:`cabinet.inputs.feed.PlayerPress`). Both build their judge with :func:`judge_for`,
step a :class:`FairnessRun` (when it is over, how far it is, the wait for the jig's first
press) and end with :func:`certify`, then keep the certificate with
:func:`cabinet.storage.fairness.record` (the books and the fleet's outbox, one
transaction).

>>> from firmware_bridge.fairness import Schedule
>>> from game.rules import Rules
>>> run = FairnessRun(FairnessJudge(Schedule((100,), 2), Rules()), started_ns=0, wait_first_s=5)
>>> run.progress(), run.wait_left_ns(2_000_000_000)
(Progress(seen=0, total=2), 3000000000)
>>> run.over(6_000_000_000)
Traceback (most recent call last):
...
cabinet.fairness.session.NoPressError: no press from the jig in 5 s: is it wired to ...
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from cabinet.fairness.certificate import Certificate, Source
from cabinet.fairness.judging import FairnessJudge
from firmware_bridge.fairness import Schedule
from game.rules import Rules
from game.units import S

if TYPE_CHECKING:
    from cabinet.storage.settings import Settings

WAIT_FIRST_S = 120
"""How long a test waits for the jig's first press before it gives up (s)."""


class NoPressError(RuntimeError):
    """The jig pressed nothing within the wait."""


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a running test is: pairs with a press so far, of all of them."""

    seen: int
    total: int


def judge_for(schedule: Schedule, settings: Settings) -> FairnessJudge:
    """The judge of ``schedule``'s pairs, under the race window the cabinet's settings
    give (the one its games are refereed with)."""
    from cabinet.storage.setting_table import RACE_WINDOW_MS

    window_ms = float(settings.get(RACE_WINDOW_MS))
    return FairnessJudge(schedule, Rules(race_window_ms=window_ms))


class FairnessRun:
    """One test of ``judge``'s schedule, begun at ``started_ns`` (CLOCK_MONOTONIC ns): it
    reads no clock, every call carries the time."""

    def __init__(
        self, judge: FairnessJudge, started_ns: int, *, wait_first_s: float = WAIT_FIRST_S
    ) -> None:
        self.judge = judge
        self.started_ns = started_ns
        self.wait_first_s = wait_first_s

    def progress(self) -> Progress:
        return Progress(self.judge.pairs_seen(), len(self.judge.schedule))

    def wait_left_ns(self, now_ns: int) -> int | None:
        """How long the jig still has to press for the first time (ns, from 0); ``None``
        once it has."""
        if self.judge.first_ns is not None:
            return None
        return max(0, self.started_ns + round(self.wait_first_s * S) - now_ns)

    def over(self, now_ns: int) -> bool:
        """Whether every pair's presses are due by ``now_ns``: the judge has all it will
        get. Raises :class:`NoPressError` when the jig has not pressed within the wait."""
        if self.judge.done(now_ns):
            return True
        if self.wait_left_ns(now_ns) == 0:
            raise NoPressError(
                f"no press from the jig in {self.wait_first_s:g} s: is it wired to player 1's "
                "and player 2's left pile buttons, and started? (docs/fairness.md)"
            )
        return False


def certify(
    judge: FairnessJudge,
    source: Source,
    *,
    version: str | None = None,
    taken_at: str | None = None,
) -> Certificate:
    """The judged test's certificate, taken now (``taken_at``: ISO 8601 UTC to the second,
    by the cabinet's wall clock) by this version of the cabinet (``version``: the
    installed package's)."""
    if version is None:
        from cabinet.link.connection import cabinet_version

        version = cabinet_version()
    if taken_at is None:
        taken_at = datetime.now(UTC).isoformat(timespec="seconds")
    return judge.certificate(source, version, taken_at)
