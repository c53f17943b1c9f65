"""The first press wins whatever order software sees the presses in (R10): the same edges
delivered in another order, or at other moments inside the race window, give the same
game."""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path

import pytest

from game.events import Spat, SpitDue
from game.record import MatchRecord, replay
from tests.game.bursts import changed_orders, make_burst, outcome

DATA = Path(__file__).resolve().parent.parent / "data"
GOLDEN = (DATA / "delivery-order-spit-a.json", DATA / "delivery-order-spit-b.json")


def test_the_golden_burst_gives_one_game_in_both_deliveries() -> None:
    # The burst that once failed test_properties' delivery-order property, shrunk to three
    # presses of one player: a play that leaves both stuck (a spit falls due 300 ms
    # later), then a press 3.5 ms before that spit, delivered 1.3 ms late in one record
    # and 4.7 ms late in the other (both inside the 5 ms window).
    a, b = (MatchRecord.load(path) for path in GOLDEN)
    assert [e.t_ns for e in a.edges] == [e.t_ns for e in b.edges]
    assert [e.delivered_ns for e in a.edges] != [e.delivered_ns for e in b.edges]
    assert outcome(a) == outcome(b)
    assert replay(a).summary().spits == 0


def test_the_old_default_end_let_the_last_delivery_decide_a_spit() -> None:
    # Why it failed: a record without end_ns stopped its clock at the last delivery plus
    # the window, so the horizon stopped at the last delivery. The spit due between the
    # last press and its later delivery fired in one record and not in the other.
    runs = []
    for path in GOLDEN:
        record = MatchRecord.load(path)
        last = record.edges[-1]
        assert last.delivered_ns is not None
        old_end = last.delivered_ns + record.rules.race_window_ns
        done = replay(dataclasses.replace(record, end_ns=old_end))
        (due,) = [e.due_ns for e in done.events if isinstance(e, SpitDue)]
        assert last.t_ns < due
        runs.append((due <= last.delivered_ns, sum(isinstance(e, Spat) for e in done.events)))
    assert runs == [(False, 0), (True, 1)]


@pytest.mark.parametrize("part", range(4))
def test_no_burst_plays_differently_in_any_delivery_order(part: int) -> None:
    rng = random.Random(f"delivery-order-{part}")
    orders = 0
    for _ in range(250):
        burst = make_burst(rng)
        orders += math.factorial(len(burst.burst))
        assert changed_orders(burst) == [], burst
    assert orders > 2_000  # every part tries thousands of orders, most bursts several


def test_the_stress_finds_a_referee_that_plays_in_arrival_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The stress can fail: a referee that applies same-instant edges as they came.
    from game.referee import Referee

    monkeypatch.setattr(Referee, "_order", lambda self, group, at: group)
    rng = random.Random("delivery-order-0")
    assert any(changed_orders(make_burst(rng)) for _ in range(100))
