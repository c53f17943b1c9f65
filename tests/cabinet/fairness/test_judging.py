"""The fairness test's judge: pairs found by their time, each judged by the real referee
(R10), through the real input layer on gpiozero's mock pins (docs/fairness.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cabinet.fairness.certificate import Source
from cabinet.fairness.judging import FairnessJudge
from cabinet.fairness.runner import MockJig, NoPressError, Progress, run_test
from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.feed import RefereeFeed
from cabinet.inputs.mock import MockInput
from firmware_bridge.fairness import A_FIRST, Schedule
from game.edges import Button, Edge
from game.rules import Rules
from game.units import MS, US, S

T0 = 1_000 * S
RULES = Rules(race_window_ms=2)


def presses(schedule: Schedule, k: int, lag_ns: tuple[int, int] = (0, 0)) -> list[Edge]:
    """Pair ``k`` as the jig presses it; ``lag_ns``: each press's delay to delivery (the
    first line's, the second's)."""
    start = T0 + schedule.start_ms(k) * MS
    first = 0 if schedule.first(k) == A_FIRST else 1
    second_t = start + schedule.offset_us(k) * US
    return [
        Edge.press(first, Button.PILE1, start).delivered(start + lag_ns[0]),
        Edge.press(1 - first, Button.PILE1, second_t).delivered(second_t + lag_ns[1]),
    ]


def feed_all(judge: FairnessJudge, edges: list[Edge]) -> None:
    for edge in sorted(edges, key=lambda e: e.delivered_ns or 0):
        assert edge.delivered_ns is not None
        judge.take(edge, edge.delivered_ns)


@settings(max_examples=40, deadline=None)
@given(
    offset_us=st.sampled_from((50, 100, 250, 1000)),
    lags=st.lists(st.tuples(st.integers(0, 1_900_000), st.integers(0, 1_000_000)), min_size=4,
                  max_size=4),
)  # fmt: skip
def test_every_pair_delivered_within_the_window_is_right_whatever_the_order_seen(
    offset_us: int, lags: list[tuple[int, int]]
) -> None:
    """The first press delivered up to 1.9 ms late (after the second, often): the stamps
    decide, so every pair is right."""
    schedule = Schedule((offset_us,), 4, 150, 7)
    judge = FairnessJudge(schedule, RULES)
    feed_all(judge, [e for k in range(4) for e in presses(schedule, k, lags[k])])
    (case,) = judge.cases()
    assert (case.right, case.wrong, case.missed, case.late) == (4, 0, 0, 0)


def test_a_first_press_delivered_past_the_window_is_late_and_loses_its_race() -> None:
    schedule = Schedule((100,), 2, 150, 7)
    judge = FairnessJudge(schedule, RULES)
    feed_all(judge, presses(schedule, 0, (3 * MS, 0)) + presses(schedule, 1))
    (case,) = judge.cases()
    assert (case.right, case.wrong, case.late) == (1, 1, 1)
    certificate = judge.certificate(Source.JIG, "1.0", "2026-12-05T00:00:00+00:00")
    assert not certificate.passed  # 100 µs is held to 99.9 %


def test_a_pair_missing_a_press_is_missed_and_fails_the_certificate() -> None:
    schedule = Schedule((250, 1000), 2, 150, 7)
    judge = FairnessJudge(schedule, RULES)
    edges = [e for k in range(4) for e in presses(schedule, k)]
    del edges[5]  # pair 2's second press never arrives
    feed_all(judge, edges)
    assert [(c.right, c.missed) for c in judge.cases()] == [(2, 0), (1, 1)]
    assert not judge.certificate(Source.JIG, "1.0", "t").passed


def test_shorter_offsets_than_the_mark_are_reported_not_held_to() -> None:
    schedule = Schedule((50, 100), 2, 150, 7)
    judge = FairnessJudge(schedule, RULES)
    edges = [e for k in range(4) for e in presses(schedule, k)]
    edges[0], edges[1] = (  # pair 0 (50 µs): the first press stamped after the second
        Edge.press(edges[0].player, Button.PILE1, edges[1].t_ns + 1).delivered(edges[1].t_ns + 2),
        edges[1],
    )
    feed_all(judge, edges)
    cases = judge.cases()
    assert (cases[0].wrong, cases[1].right) == (1, 2)
    assert judge.certificate(Source.JIG, "1.0", "t").passed


def test_other_buttons_and_presses_outside_the_schedule_are_strays() -> None:
    schedule = Schedule((100,), 2, 150, 7)
    judge = FairnessJudge(schedule, RULES)
    feed_all(judge, presses(schedule, 0) + presses(schedule, 1))
    judge.take(Edge.press(0, Button.SLOT1, T0 + 5 * MS), T0 + 5 * MS)
    judge.take(Edge.press(0, Button.PILE1, T0 + 10 * S), T0 + 10 * S)
    assert judge.strays == 2
    assert judge.cases()[0].right == 2


def mock_run(schedule: Schedule, step_ns: int) -> tuple[FairnessJudge, list[Progress]]:
    """The whole path: a simulated jig on mock pins, the switch filter, the feed, the
    judge, on a virtual clock moving ``step_ns`` a pump."""
    clock = VirtualClock(T0)
    edges = EdgeQueue()
    backend = MockInput(edges, clock=clock)
    backend.open()
    jig = MockJig(backend, schedule, T0, 100 * MS)
    feed = RefereeFeed(None, edges, clock=clock)
    judge = FairnessJudge(schedule, RULES)
    seen: list[Progress] = []

    def step(now_ns: int) -> None:
        jig.step(now_ns)
        clock.advance(step_ns)

    run_test(feed, judge, clock, step=step, progress=seen.append)
    backend.close()
    assert jig.finished
    return judge, seen


def test_a_whole_test_on_mock_pins_is_right_for_every_pair_in_both_orders() -> None:
    schedule = Schedule((50, 100, 1000), 6, 120, 31)
    judge, seen = mock_run(schedule, 200 * US)  # delivered within 0.2 ms
    assert [(c.offset_us, c.right, c.late) for c in judge.cases()] == [
        (50, 6, 0),
        (100, 6, 0),
        (1000, 6, 0),
    ]
    firsts = [schedule.first(k) for k in range(len(schedule))]
    assert firsts.count(A_FIRST) == len(schedule) // 2  # both orders, half each
    assert seen[-1] == Progress(len(schedule), len(schedule))


def test_a_slow_feed_shows_in_the_certificate_as_late_presses() -> None:
    """Pumped every 5 ms (past the 2 ms window): every press is late, applied as it came
    (here in the order pressed, so still right), and the certificate says so."""
    judge, _ = mock_run(Schedule((50, 5000), 4, 120, 31), 5 * MS)
    short, long = judge.cases()
    assert (short.late, short.right) == (8, 4)
    assert (long.late, long.right) == (8, 4)


def test_no_press_from_the_jig_says_so() -> None:
    clock = VirtualClock(T0)
    feed = RefereeFeed(None, EdgeQueue(), clock=clock)
    judge = FairnessJudge(Schedule((100,), 2, 150, 7), RULES)
    with pytest.raises(NoPressError, match="wired to player 1's and player 2's left pile"):
        run_test(feed, judge, clock, wait_first_s=3, step=lambda now: clock.advance(S))


def test_a_press_too_far_from_its_pair_is_counted_and_its_pair_missed() -> None:
    """A press that lands nearer the next pair's time than its own (an emulated jig's
    write held up 80 ms, with pairs 110 ms apart): the next pair takes one press of that
    line, the other is counted a stray, and the held-up pair misses a press."""
    schedule = Schedule((100,), 4, 110, 7)
    judge = FairnessJudge(schedule, RULES)
    edges = [e for k in range(4) for e in presses(schedule, k)]
    late_t = edges[3].t_ns + 80 * MS  # pair 1's second press, 80 ms late
    edges[3] = Edge.press(edges[3].player, Button.PILE1, late_t).delivered(late_t)
    feed_all(judge, edges)
    (case,) = judge.cases()
    assert (case.right, case.missed) == (3, 1)
    assert judge.strays == 1


def test_the_stamps_median_gap_per_offset() -> None:
    """How far apart the pairs' presses were stamped, per offset: the schedule's offsets
    when the jig keeps them, more when it does not."""
    schedule = Schedule((100, 1000), 4, 150, 7)
    judge = FairnessJudge(schedule, RULES)
    edges = [e for k in range(8) for e in presses(schedule, k)]
    slow_t = edges[1].t_ns + 2 * MS  # pair 0's second press, 2 ms after its offset
    edges[1] = Edge.press(edges[1].player, Button.PILE1, slow_t).delivered(slow_t)
    feed_all(judge, edges)
    assert judge.stamped_apart_us() == {100: 100.0, 1000: 1000.0}
    lone = FairnessJudge(schedule, RULES)
    feed_all(lone, edges[:2])
    assert lone.stamped_apart_us() == {100: 2100.0}
