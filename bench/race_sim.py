"""Races in virtual time, for ``bench/races.py``: the two players' pile presses with
margins from 1 µs to 50 ms, each delivered after a random delay within the race window,
through the switch filter, the feed and the referee (counts races decided wrongly, goal
0), and exact ties split between the players."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path
from typing import Any

# Run from a checkout: import this repository's packages, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.controls import Control
from cabinet.inputs.debounce import SwitchFilter
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from cabinet.inputs.feed import FeedEvent, RefereeFeed
from game.cards import ALL_CARDS, Card, parse_cards
from game.edges import Button
from game.engine import Game
from game.events import Played, Tie
from game.referee import Referee
from game.rules import Rules, TieRule
from game.units import MS, US

START_NS = 10**12


def deck(top: str) -> list[Card]:
    first = parse_cards(top.split())
    return first + [c for c in ALL_CARDS if c not in first]


RACE_DECKS = (deck("6S 9S 9H 9D 5H"), deck("4D 9C 9S 9H KC"))
"""Both players' slot 1 fits pile 1; whoever plays first beats the other."""
TIE_DECKS = (deck("9S 9H 9D 4C 5H"), deck("9C 9S 9H 6D 5D"))
"""Both players' slot 1 fits no pile: ties can be pressed again and again."""


# -- simulated races (virtual time) ------------------------------------------------------


def simulated_races(n: int, rules: Rules, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    window = rules.race_window_ns
    wrong = ties = late = reordered = 0
    low, high = math.log(1 * US), math.log(50 * MS)
    for _ in range(n):
        clock = VirtualClock(START_NS)
        edges = EdgeQueue()
        referee = Referee(Game(RACE_DECKS, rules), tie_rng=random.Random(rng.random()))
        feed = RefereeFeed(
            referee, edges, switch_filter=SwitchFilter(), clock=clock, origin_ns=START_NS
        )
        t = START_NS + 100 * MS
        for p in (0, 1):
            edges.put(RawEdge(Control(p, Button.SLOT1), True, t))
        clock.set(t + 1)
        feed.pump()
        clock.set(t + window + 1)
        feed.pump()
        margin = round(math.exp(rng.uniform(low, high)))
        first = rng.randrange(2)
        t_press = t + 100 * MS
        presses = [
            (first, t_press, t_press + rng.randint(0, window)),
            (1 - first, t_press + margin, t_press + margin + rng.randint(0, window)),
        ]
        events: list[FeedEvent] = []
        for player, at, delivered in sorted(presses, key=lambda p: p[2]):
            clock.set(max(clock(), delivered))
            edges.put(RawEdge(Control(player, Button.PILE1), True, at))
            events += feed.pump()
        clock.advance(window + 1)
        events += feed.pump()
        played = [e for e in events if isinstance(e, Played)]
        wrong += len(played) != 1 or played[0].player != first
        ties += sum(isinstance(e, Tie) for e in events)
        late += referee.stats.late_edges
        reordered += referee.stats.reordered_races
    return {
        "races": n,
        "margins_ms": [0.001, 50],
        "delivery_jitter_ms": [0, rules.race_window_ms],
        "decided_wrongly": wrong,
        "ties": ties,
        "late_edges": late,
        "decided_against_delivery_order": reordered,
    }


def exact_ties(n: int, tie_rule: TieRule, seed: int) -> list[int]:
    """``n`` exact ties on one referee; how often each player was given priority."""
    rules = Rules(tie_rule=tie_rule)
    clock = VirtualClock(START_NS)
    edges = EdgeQueue()
    referee = Referee(Game(TIE_DECKS, rules), tie_rng=random.Random(seed))
    feed = RefereeFeed(referee, edges, clock=clock, origin_ns=START_NS)
    firsts = [0, 0]
    t = START_NS + 100 * MS
    for p in (0, 1):
        edges.put(RawEdge(Control(p, Button.SLOT1), True, t))
    clock.set(t + 1)
    feed.pump()
    for _ in range(n):
        t += 100 * MS
        for p in (0, 1):
            edges.put(RawEdge(Control(p, Button.PILE1), True, t))
        clock.set(t + rules.race_window_ns // 2)
        feed.pump()
        clock.set(t + rules.race_window_ns)
        for event in feed.pump():
            if isinstance(event, Tie):
                firsts[event.first] += 1
        for p in (0, 1):
            edges.put(RawEdge(Control(p, Button.PILE1), False, t + 40 * MS))
    return firsts


# -- live: the table process against the old thread design ------------------------------
