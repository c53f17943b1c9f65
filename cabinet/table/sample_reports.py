"""The reports of games fed random presses and releases an edge at a time, as the
table's loop builds them (a :class:`~cabinet.table.messages.Decided` and a
:class:`~cabinet.table.messages.Health` per edge): realistic reports for the tests of
their pickling and for ``bench/reports.py``."""

from __future__ import annotations

import random

from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.controls import Control
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from cabinet.inputs.feed import RefereeFeed
from cabinet.table.messages import Decided, Health
from game.edges import Button
from game.live_match import LiveMatch
from game.rules import Rules


def played_reports(edges: int, seed: int) -> list[Decided | Health]:
    """``edges`` edges' reports, in order: a new game whenever one is over."""
    rng = random.Random(seed)
    clock = VirtualClock(0)
    queue = EdgeQueue()
    feed = RefereeFeed(None, queue, clock=clock)
    out: list[Decided | Health] = []
    held: dict[Control, bool] = {}
    t = 1_000_000_000
    match, sent = None, 0
    for _ in range(edges):
        if match is None or match.over:
            match, sent = LiveMatch(Rules(), rng.randrange(1 << 30), (None, None), t), 0
            feed.play_onto(match)
        t += rng.randint(100_000, 3_000_000)
        control = Control(rng.randint(0, 1), rng.choice(list(Button)))
        held[control] = not held.get(control, False)
        queue.put(RawEdge(control, held[control], t))
        clock.set(t + 50_000)
        batch = feed.pump()
        log = match.referee.stats.edge_log
        new, sent = tuple(log[sent:]), len(log)
        out += [Decided(1, batch, match.state(), new, t), Health(feed.switches, None, None)]
    return out
