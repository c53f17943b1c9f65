"""The feed: match-relative times, delivery stamps, wake times; and the referee on its
own thread with real mock pins and the real clock."""

from __future__ import annotations

import queue
import sys
import time

import pytest

from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.controls import Control
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from cabinet.inputs.feed import FeedEvent, PlayerPress, RefereeFeed, RefereeThread
from cabinet.inputs.mock import MockInput
from game.edges import Button, Edge, EdgeKind
from game.events import Played, Rejected, Selected

from .conftest import RACE_DECKS, START_NS, make_feed, ms, referee_for


def test_edges_reach_the_referee_in_match_time_stamped_at_the_pump(
    mock: MockInput, clock: VirtualClock
) -> None:
    referee = referee_for(RACE_DECKS)
    feed = make_feed(mock, clock, referee)
    mock.press(Control(1, Button.SLOT2), START_NS + ms(10))
    clock.set(START_NS + ms(11))
    events = feed.pump()
    assert referee.stats.edge_log == [
        Edge(1, Button.SLOT2, EdgeKind.PRESS, ms(10), delivered_ns=ms(11))
    ]
    # Held for the race window; only the press itself is reported, on the cabinet clock.
    assert [type(e) for e in events] == [PlayerPress]
    assert isinstance(events[0], PlayerPress) and events[0].edge.t_ns == START_NS + ms(10)
    assert events[0].edge.delivered_ns == START_NS + ms(11)  # the pump's reading took it in
    wake = feed.next_wake_ns()
    assert wake == START_NS + ms(10) + referee.window_ns
    clock.set(wake)
    assert feed.pump() == [Selected(ms(10), 1, 1)]
    assert feed.next_wake_ns() is not None  # the switch filter's stuck-switch deadline


def test_an_edge_stamped_after_the_clock_reading_is_applied_at_the_reading() -> None:
    clock = VirtualClock(START_NS)
    edges = EdgeQueue()
    referee = referee_for(RACE_DECKS)
    feed = RefereeFeed(referee, edges, clock=clock, origin_ns=START_NS)
    edges.put(RawEdge(Control(0, Button.SLOT1), True, START_NS + ms(5)))  # from the future
    clock.set(START_NS + ms(1))
    feed.pump()
    assert feed.stats.future_edges == 1
    assert referee.stats.edge_log[0].t_ns == ms(1)


def wait_for(
    outbox: queue.SimpleQueue[list[FeedEvent]], kind: type, timeout_s: float = 5.0
) -> list[FeedEvent]:
    """Events from the referee thread until one of type ``kind`` arrives (bounded)."""
    seen: list[FeedEvent] = []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            batch = outbox.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            break
        seen.extend(batch)
        if any(isinstance(e, kind) for e in batch):
            return seen
    raise AssertionError(f"no {kind.__name__} within {timeout_s} s; saw {seen}")


def test_the_referee_thread_decides_a_race_from_real_time_edges() -> None:
    edges = EdgeQueue()
    mock = MockInput(edges)  # the real monotonic clock
    mock.open()
    referee = referee_for(RACE_DECKS)
    feed = RefereeFeed(referee, edges)
    thread = RefereeThread(feed)
    thread.start()
    try:
        now = time.monotonic_ns()
        mock.press(Control(0, Button.SLOT1), now)
        mock.press(Control(1, Button.SLOT1), now)
        wait_for(thread.outbox, Selected)
        t = time.monotonic_ns()
        # player 2 pressed 1 µs earlier, but software hands over player 1's press first
        mock.press(Control(0, Button.PILE1), t + 1_000)
        mock.press(Control(1, Button.PILE1), t)
        events = wait_for(thread.outbox, Rejected)
    finally:
        thread.stop()
        mock.close()
    assert not thread.running and thread.error is None
    played = [e for e in events if isinstance(e, Played)]
    rejected = [e for e in events if isinstance(e, Rejected)]
    assert [(p.player, p.card.notation()) for p in played] == [(1, "4D")]
    assert [(r.player, r.margin_ns) for r in rejected] == [(0, 1_000)]
    assert all(e.delivered_ns is not None for e in referee.stats.edge_log)


def test_the_referee_thread_sets_and_restores_the_switch_interval() -> None:
    before = sys.getswitchinterval()
    feed = RefereeFeed(referee_for(RACE_DECKS), EdgeQueue())
    thread = RefereeThread(feed, switch_interval_s=0.0005)
    thread.start()
    try:
        assert sys.getswitchinterval() == pytest.approx(min(before, 0.0005))
    finally:
        thread.stop()
    assert sys.getswitchinterval() == before
    assert not thread.running
