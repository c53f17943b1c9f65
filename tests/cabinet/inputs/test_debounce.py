"""The switch filter: chatter never moves a press, short taps still count, stuck
switches are reported and ignored until released. Driven through real mock pins where
timing matters, and through the filter alone for its arithmetic."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.controls import SERVICE, TEST, Control
from cabinet.inputs.debounce import (
    FilterSettingsError,
    OperatorEdge,
    SwitchFilter,
    SwitchFreed,
    SwitchStuck,
)
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from cabinet.inputs.mock import MockInput
from game.edges import Button, Edge, EdgeKind

from .conftest import RACE_DECKS, START_NS, make_feed, ms, referee_for

SLOT = Control(0, Button.SLOT1)
PILE = Control(1, Button.PILE2)
DEBOUNCE = ms(5)


def game_edges(out: Sequence[object]) -> list[Edge]:
    return [e for e in out if isinstance(e, Edge)]


@st.composite
def bouncy_press(draw: st.DrawFn) -> tuple[int, list[int], int, list[int]]:
    """A press at t0 with bounces inside the debounce window, held, then a release with
    its own bounces: (t0, press bounce times, release time, release bounce times).
    Each bounce list has even length, so the contact ends at the pressed (then released)
    level."""
    t0 = draw(st.integers(START_NS, START_NS + 10**9))
    n_press = 2 * draw(st.integers(0, 6))
    press_bounces = sorted(
        draw(st.sets(st.integers(1, DEBOUNCE - 1), min_size=n_press, max_size=n_press))
    )
    hold = draw(st.integers(DEBOUNCE, ms(2000)))
    n_release = 2 * draw(st.integers(0, 6))
    release_bounces = sorted(
        draw(st.sets(st.integers(1, DEBOUNCE - 1), min_size=n_release, max_size=n_release))
    )
    t_release = t0 + hold
    return (
        t0,
        [t0 + b for b in press_bounces],
        t_release,
        [t_release + b for b in release_bounces],
    )


@settings(max_examples=150, deadline=None)
@given(bouncy_press())
def test_chatter_never_moves_a_press_timestamp(case: tuple[int, list[int], int, list[int]]) -> None:
    t0, press_bounces, t_release, release_bounces = case
    clock = VirtualClock(START_NS)
    mock = MockInput(EdgeQueue(), clock=clock)
    mock.open()
    try:
        referee = referee_for(RACE_DECKS)
        feed = make_feed(mock, clock, referee)
        mock.bounce(SLOT, [t0, *press_bounces], pressed_first=True)
        mock.bounce(SLOT, [t_release, *release_bounces], pressed_first=False)
        clock.set(max([t_release, *release_bounces]) + DEBOUNCE)
        feed.pump()
        logged = [e for e in referee.stats.edge_log if Control(e.player, e.button) == SLOT]
        assert [(e.edge, e.t_ns) for e in logged] == [
            (EdgeKind.PRESS, t0 - START_NS),
            (EdgeKind.RELEASE, t_release - START_NS),
        ]
        assert feed.filter.chatter(SLOT) == len(press_bounces) + len(release_bounces)
    finally:
        mock.close()


def test_bounce_on_one_button_does_not_touch_another() -> None:
    f = SwitchFilter()
    out = f.process(RawEdge(SLOT, True, 1_000))
    out += f.process(RawEdge(SLOT, False, 1_500))
    out += f.process(RawEdge(PILE, True, 2_000))
    assert game_edges(out) == [
        Edge.press(0, Button.SLOT1, 1_000),
        Edge.press(1, Button.PILE2, 2_000),
    ]
    assert (f.chatter(SLOT), f.chatter(PILE)) == (1, 0)


def test_a_tap_shorter_than_the_debounce_time_is_released_at_its_own_edge() -> None:
    f = SwitchFilter(debounce_ms=5)
    out = f.process(RawEdge(SLOT, True, 0))
    out += f.process(RawEdge(SLOT, False, ms(2)))  # inside the window: looks like chatter
    assert f.chatter(SLOT) == 1
    assert f.next_deadline_ns() == ms(5)
    out += f.poll(ms(5))
    assert game_edges(out) == [Edge.press(0, Button.SLOT1, 0), Edge.release(0, Button.SLOT1, ms(2))]
    assert f.chatter(SLOT) == 0
    # the next press, 4 ms after that release, is inside the release's window: chatter
    out2 = f.process(RawEdge(SLOT, True, ms(6)))
    assert game_edges(out2) == [] and f.chatter(SLOT) == 1


def test_an_edge_older_than_the_last_of_its_button_is_dropped_and_counted() -> None:
    f = SwitchFilter()
    f.process(RawEdge(SLOT, True, ms(10)))
    assert f.process(RawEdge(SLOT, False, ms(9))) == []
    assert f.out_of_order == 1


def test_operator_buttons_come_out_as_operator_edges() -> None:
    f = SwitchFilter()
    out = f.process(RawEdge(TEST, True, 100)) + f.process(RawEdge(SERVICE, True, 200))
    out += f.process(RawEdge(TEST, False, ms(50)))
    assert out == [
        OperatorEdge(TEST, True, 100),
        OperatorEdge(SERVICE, True, 200),
        OperatorEdge(TEST, False, ms(50)),
    ]


def test_settings_out_of_range_are_refused() -> None:
    with pytest.raises(FilterSettingsError, match="debounce_ms must be between 0 and 50"):
        SwitchFilter(debounce_ms=-1)
    with pytest.raises(FilterSettingsError, match="stuck_after_s"):
        SwitchFilter(stuck_after_s=0)


def test_a_stuck_switch_is_reported_ignored_for_play_and_freed_on_release(
    mock: MockInput, clock: VirtualClock
) -> None:
    referee = referee_for(RACE_DECKS)
    feed = make_feed(mock, clock, referee)
    t0 = START_NS + ms(100)
    mock.press(PILE, t0)
    clock.set(t0 + ms(1))
    feed.pump()
    assert feed.next_wake_ns() is not None
    # 9.999 s held: not yet stuck
    clock.set(t0 + 9_999 * ms(1))
    assert not any(isinstance(e, SwitchStuck) for e in feed.pump())
    clock.set(t0 + 10_000 * ms(1))
    events = feed.pump()
    stuck = [e for e in events if isinstance(e, SwitchStuck)]
    # Input notices are on the cabinet clock (there may be no game to be relative to).
    assert stuck == [SwitchStuck(PILE, t0, t0 + 10_000 * ms(1))]
    assert feed.filter.stuck() == (PILE,)
    status = {s.control: s for s in feed.switches}
    assert status[PILE].stuck and status[PILE].down
    # a flicker of the stuck contact, shorter than the debounce time, stays ignored
    before = len(referee.stats.edge_log)
    mock.release(PILE, t0 + 10_500 * ms(1))
    mock.press(PILE, t0 + 10_500 * ms(1) + ms(1))
    clock.set(t0 + 10_600 * ms(1))
    assert not any(isinstance(e, SwitchFreed) for e in feed.pump())
    assert len(referee.stats.edge_log) == before
    assert feed.filter.stuck() == (PILE,)
    assert feed.filter.chatter(PILE) == 2
    # released for good: up for the debounce time
    t_up = t0 + 11_000 * ms(1)
    mock.release(PILE, t_up)
    clock.set(t_up + ms(4))
    assert feed.pump() == []
    clock.set(t_up + ms(5))
    assert feed.pump() == [SwitchFreed(PILE, t_up)]
    assert feed.filter.stuck() == ()
    assert len(referee.stats.edge_log) == before  # the stuck switch's release is not played
    # and it plays again
    mock.press(PILE, t_up + ms(100))
    clock.set(t_up + ms(101))
    feed.pump()
    assert referee.stats.edge_log[-1].is_press


def test_a_button_held_at_power_on_is_never_a_press(edges: EdgeQueue, clock: VirtualClock) -> None:
    mock = MockInput(edges, clock=clock)
    mock.hold_at_power_on(SLOT)  # a finger on player 1's slot 1 as the cabinet starts
    mock.open()
    try:
        referee = referee_for(RACE_DECKS)
        feed = make_feed(mock, clock, referee)
        assert {s.control: s.down for s in feed.switches}[SLOT]
        clock.advance(10_000 * ms(1))
        events = feed.pump()
        assert [e for e in events if isinstance(e, SwitchStuck)] == [
            SwitchStuck(SLOT, START_NS, START_NS + 10_000 * ms(1))
        ]
        mock.release(SLOT, clock() + 1)
        clock.advance(ms(6))
        events = feed.pump()
        assert any(isinstance(e, SwitchFreed) for e in events)
        assert referee.stats.edge_log == []  # neither the press nor its release was played
    finally:
        mock.close()
