"""Races and the race window: correctness in virtual time, delays under a render load.
Prints JSON.

- ``simulated``: races between the two players' pile presses, margins log-uniform from
  1 µs to 50 ms, each press delivered after a delay drawn uniformly from 0 to the race
  window. Each race goes through the switch filter, the feed and the referee (edges put
  on the queue as the gpio backend's callbacks do). Counts races decided wrongly (goal 0)
  and ties, and splits exact ties between the players.
- ``live``: the gpio backend on mock pins whose edges are fired from a second thread
  (standing in for lgpio's callback thread: each edge stamped with the time it was due,
  as the kernel would stamp it, then handed to the pin's change handler when the thread
  gets to run) while the main thread renders 1920x1080 frames at up to 60 fps with
  pygame-ce's dummy video driver (fill, 20 alpha-blended card-sized surfaces, text).
  Measured with the referee pumped by the main loop between frames, and on its own
  thread: the delivery delay (``delivered_ns - t_ns``) and the decision delay (from a
  press's ``t_ns`` to the referee's decision on it), p50/p99/p99.9/max in ms. Each mode
  runs ``--repeat`` times; medians of the runs are reported with every run's figures.

Usage: ``python bench/races.py [--races N] [--seconds S] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

from machine_info import machine

# Run from a checkout: import this repository's packages, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # after choosing the video driver above

from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.debounce import SwitchFilter
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from cabinet.inputs.feed import (
    REFEREE_SWITCH_INTERVAL_S,
    FeedEvent,
    RefereeFeed,
    RefereeThread,
)
from cabinet.inputs.mock import MockInput
from game.cards import ALL_CARDS, Card, parse_cards
from game.edges import Button
from game.engine import Game
from game.events import Played, Selected, Tie
from game.referee import Referee
from game.rules import MS, Rules, TieRule

US = 1_000
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
            edges.put(RawEdge((p, Button.SLOT1), True, t))
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
            edges.put(RawEdge((player, Button.PILE1), True, at))
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
        edges.put(RawEdge((p, Button.SLOT1), True, t))
    clock.set(t + 1)
    feed.pump()
    for _ in range(n):
        t += 100 * MS
        for p in (0, 1):
            edges.put(RawEdge((p, Button.PILE1), True, t))
        clock.set(t + rules.race_window_ns // 2)
        feed.pump()
        clock.set(t + rules.race_window_ns)
        for event in feed.pump():
            if isinstance(event, Tie):
                firsts[event.first] += 1
        for p in (0, 1):
            edges.put(RawEdge((p, Button.PILE1), False, t + 40 * MS))
    return firsts


# -- live: threads, mock pins, render load ----------------------------------------------


class Scene:
    """The work of one real frame at 1920x1080: background, 20 alpha cards, text."""

    def __init__(self) -> None:
        pygame.display.init()  # no audio: a frame's work is drawing
        pygame.font.init()
        self.screen = pygame.display.set_mode((1920, 1080))
        card = pygame.Surface((180, 252), pygame.SRCALPHA)
        card.fill((250, 250, 245, 235))
        pygame.draw.rect(card, (20, 20, 20, 255), card.get_rect(), 3, border_radius=12)
        self.card = card
        self.font = pygame.font.Font(None, 48)
        self.clock = pygame.time.Clock()
        self.frames = 0
        self.render_ns: list[int] = []

    def frame(self) -> None:
        start = time.perf_counter_ns()
        screen = self.screen
        screen.fill((12, 90, 40))
        for i in range(20):
            screen.blit(self.card, (60 + (i % 10) * 185, 200 + (i // 10) * 420 + (i % 3) * 7))
        for i, text in enumerate(("Player 1: 31", "Player 2: 27", "Ready... spit!")):
            screen.blit(self.font.render(text, True, (255, 255, 255)), (80 + i * 600, 60))
        pygame.display.flip()
        self.frames += 1
        self.render_ns.append(time.perf_counter_ns() - start)
        self.clock.tick(60)


def percentiles(values_ns: list[int]) -> dict[str, float]:
    if not values_ns:
        return {}
    v = sorted(values_ns)

    def at(q: float) -> float:
        return round(v[min(len(v) - 1, int(len(v) * q))] / MS, 3)

    return {
        "n": len(v),
        "p50": at(0.5),
        "p99": at(0.99),
        "p99.9": at(0.999),
        "max": round(v[-1] / MS, 3),
    }


def fire_presses(
    mock: MockInput, stop: threading.Event, rng: random.Random, presses: list[int]
) -> None:
    """The stand-in for lgpio's callback thread: slot presses by both players at random
    moments, each stamped with the moment it was due (the kernel's timestamp) and handed
    to its pin when this thread gets to run again."""
    while not stop.is_set():
        due = time.monotonic_ns() + rng.randint(2 * MS, 10 * MS)
        time.sleep(max(0.0, (due - time.monotonic_ns()) / 1e9))
        player = rng.randrange(2)
        slot = Button.slot(rng.randrange(4))
        mock.press((player, slot), due)
        presses.append(due)
        up = due + rng.randint(20 * MS, 40 * MS)
        time.sleep(max(0.0, (up - time.monotonic_ns()) / 1e9))
        mock.release((player, slot), up)


def live_run(mode: str, seconds: float, rules: Rules, seed: int) -> dict[str, Any]:
    """``mode``: ``main_loop`` (Python's default switch interval, 5 ms) or ``thread``
    (the referee thread's own, :data:`REFEREE_SWITCH_INTERVAL_S`), optionally ``@S`` for
    the thread's switch interval in seconds, e.g. ``thread@0.005``."""
    mode, _, interval = mode.partition("@")
    switch = float(interval) if interval else REFEREE_SWITCH_INTERVAL_S
    edges = EdgeQueue()
    mock = MockInput(edges)
    mock.open()
    referee = Referee(Game(TIE_DECKS, rules), tie_rng=random.Random(seed))
    feed = RefereeFeed(referee, edges)
    origin = feed.origin_ns
    decisions: list[int] = []

    def record(events: list[FeedEvent]) -> None:
        now = time.monotonic_ns()
        for e in events:
            if isinstance(e, Selected):
                decisions.append(now - (origin + e.t_ns))

    scene = Scene()
    stop = threading.Event()
    rngs = [random.Random(seed * 10 + k) for k in range(2)]
    fired: list[int] = []
    firers = [
        threading.Thread(target=fire_presses, args=(mock, stop, rngs[k], fired), daemon=True)
        for k in range(2)
    ]
    referee_thread = (
        RefereeThread(feed, record, switch_interval_s=switch) if mode == "thread" else None
    )
    if referee_thread is not None:
        referee_thread.start()
    for t in firers:
        t.start()
    end = time.monotonic() + seconds
    frame_ns: list[int] = []
    while time.monotonic() < end:
        t0 = time.perf_counter_ns()
        scene.frame()
        frame_ns.append(time.perf_counter_ns() - t0)
        if referee_thread is None:
            record(feed.pump())
    stop.set()
    for t in firers:
        t.join()
    if referee_thread is not None:
        referee_thread.stop()
    else:
        record(feed.pump())
    mock.close()
    pygame.quit()
    log = referee.stats.edge_log
    delivery = [e.delivered_ns - e.t_ns for e in log if e.delivered_ns is not None]
    return {
        "frames_per_s": round(scene.frames / seconds, 1),
        "frame_ms_p50": round(statistics.median(frame_ns) / MS, 2),
        "render_ms_p50": round(statistics.median(scene.render_ns) / MS, 2),
        "edges": len(log),
        "late_edges": referee.stats.late_edges,
        "delivery_ms": percentiles(delivery),
        "decision_ms": percentiles(decisions),
        "_delivery_ns": delivery,
    }


def median_of(runs: list[dict[str, Any]], key: str) -> dict[str, float]:
    fields = [k for k in runs[0][key] if k != "n"]
    return {f: round(statistics.median(r[key][f] for r in runs), 3) for f in fields}


def live(mode: str, seconds: float, repeat: int, rules: Rules) -> dict[str, Any]:
    runs = [live_run(mode, seconds, rules, seed) for seed in range(repeat)]
    pooled: list[int] = []
    for r in runs:
        pooled += r.pop("_delivery_ns")
    return {
        "mode": mode,
        "race_window_ms": rules.race_window_ms,
        "delivery_ms_median_of_runs": median_of(runs, "delivery_ms"),
        "decision_ms_median_of_runs": median_of(runs, "decision_ms"),
        "delivery_ms_pooled": percentiles(pooled),
        "runs": runs,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=100_000)
    parser.add_argument("--ties", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=20.0, help="per live run")
    parser.add_argument("--repeat", type=int, default=3, help="live runs per mode")
    parser.add_argument(
        "--modes",
        default="main_loop,thread@0.005,thread",
        help="live modes, comma-separated: main_loop or thread, @S for the switch interval",
    )
    args = parser.parse_args(argv)
    rules = Rules()
    out: dict[str, Any] = {"machine": machine()}
    start = time.perf_counter()
    out["simulated"] = simulated_races(args.races, rules, seed=1)
    out["simulated"]["seconds"] = round(time.perf_counter() - start, 1)
    out["exact_ties"] = {
        rule.value: dict(zip(("player1", "player2"), exact_ties(args.ties, rule, 7), strict=True))
        for rule in TieRule
    }
    out["live"] = [live(m, args.seconds, args.repeat, rules) for m in args.modes.split(",") if m]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
