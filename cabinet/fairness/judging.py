"""Pairing a jig's presses and judging each pair with the cabinet's own referee.

The jig presses line A (player 1's left pile button) and line B (player 2's) in pairs,
``gap_ms`` apart (:class:`firmware_bridge.fairness.Schedule`). There is no marker: pair 0
is the first press seen, and a press belongs to pair ``round((t - t0) / gap)``, which
holds while offsets stay under half the gap (the schedule's longest is 20 ms, its
shortest gap 100 ms). Each pair is then a race, decided by
:func:`game.race_judge.judge_race` exactly as a game decides one, from the presses' own
timestamps and the moments the cabinet took them in. The pair is *right* when the
press the jig made first won, *wrong* when the other did, *missed* when a press of the
pair never arrived.

:class:`FairnessJudge` is a feed target (:class:`cabinet.inputs.feed.MatchTarget`): the
input layer hands it every debounced edge with the moment it was taken in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cabinet.fairness.certificate import CaseResult, Certificate, Source
from firmware_bridge.fairness import A_FIRST, Schedule
from game.edges import Button, Edge
from game.events import Event
from game.race_judge import judge_race
from game.rules import Rules
from game.units import MS, S

LINE_PLAYERS = (0, 1)
"""Line A is player 1's left pile button, line B player 2's (players 0 and 1)."""
SETTLE_NS = 1 * S
"""After the last pair's time, how long the judge waits for its presses."""


@dataclass(slots=True)
class _Pair:
    presses: dict[int, Edge] = field(default_factory=dict)


class FairnessJudge:
    """Collects the jig's presses for ``schedule`` and judges them under ``rules``."""

    def __init__(self, schedule: Schedule, rules: Rules) -> None:
        self.schedule = schedule
        self.rules = rules
        self.first_ns: int | None = None
        """The stamp of the first press seen: pair 0's."""
        self.strays = 0
        """Presses that belong to no pair (another button, outside the schedule, or a
        second press of one line in one pair: a press too far from its pair's time)."""
        self._pairs: dict[int, _Pair] = {}

    # -- the feed's target -------------------------------------------------------------

    def take(self, edge: Edge, delivered_abs_ns: int) -> list[Event]:
        """One debounced edge, taken in at ``delivered_abs_ns``."""
        if not edge.is_press:
            return []
        if edge.button is not Button.PILE1 or edge.player not in LINE_PLAYERS:
            self.strays += 1
            return []
        if self.first_ns is None:
            self.first_ns = edge.t_ns
        k = round((edge.t_ns - self.first_ns) / (self.schedule.gap_ms * MS))
        if not 0 <= k < len(self.schedule):
            self.strays += 1
            return []
        pair = self._pairs.setdefault(k, _Pair())
        if edge.player in pair.presses:  # a second press of one line in one pair
            self.strays += 1
            return []
        pair.presses[edge.player] = edge.delivered(delivered_abs_ns)
        return []

    def advance(self, now_abs_ns: int) -> list[Event]:
        return []

    def next_wake_abs_ns(self) -> int | None:
        return None

    # -- progress and result -----------------------------------------------------------

    def pairs_seen(self) -> int:
        """How many pairs have at least one press so far."""
        return len(self._pairs)

    def done(self, now_ns: int) -> bool:
        """Whether every pair's presses are due by ``now_ns`` (and a little more)."""
        if self.first_ns is None:
            return False
        last = self.schedule.start_ms(len(self.schedule) - 1) * MS
        return now_ns >= self.first_ns + last + SETTLE_NS

    def stamped_apart_us(self) -> dict[int, float]:
        """Per offset (µs), the median gap between the stamps of its pairs' two presses
        (µs): how far apart the jig's presses really reached the cabinet. A Pico jig's
        are within microseconds of the offset; an emulated one's are milliseconds."""
        schedule = self.schedule
        out: dict[int, float] = {}
        for c, offset in enumerate(schedule.offsets_us):
            gaps = sorted(
                abs(pair.presses[LINE_PLAYERS[0]].t_ns - pair.presses[LINE_PLAYERS[1]].t_ns) / 1000
                for k in range(c * schedule.pairs, (c + 1) * schedule.pairs)
                if (pair := self._pairs.get(k)) is not None and len(pair.presses) == 2
            )
            if gaps:
                out[offset] = gaps[len(gaps) // 2]
        return out

    def cases(self) -> tuple[CaseResult, ...]:
        """Each offset's pairs, judged."""
        schedule = self.schedule
        out = []
        for c, offset in enumerate(schedule.offsets_us):
            right = wrong = missed = late = 0
            for k in range(c * schedule.pairs, (c + 1) * schedule.pairs):
                pair = self._pairs.get(k)
                presses = pair.presses if pair is not None else {}
                if len(presses) < len(LINE_PLAYERS):
                    missed += 1
                    continue
                verdict = judge_race(self.rules, *presses.values(), tie_seed=k)
                late += verdict.late
                expected = LINE_PLAYERS[0 if schedule.first(k) == A_FIRST else 1]
                if verdict.winner == expected:
                    right += 1
                else:
                    wrong += 1
            out.append(CaseResult(offset, schedule.pairs, right, wrong, missed, late))
        return tuple(out)

    def certificate(self, source: Source, version: str, taken_at: str) -> Certificate:
        return Certificate(
            source,
            self.rules.race_window_ms,
            self.schedule.seed,
            self.schedule.gap_ms,
            self.cases(),
            version,
            taken_at,
        )
