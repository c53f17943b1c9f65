"""Shared fixtures for the input tests: a virtual clock, an edge queue, opened mock pins,
and referees over deals that set up a race or a tie on pile 1."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest

from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.debounce import SwitchFilter
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.feed import RefereeFeed
from cabinet.inputs.mock import MockInput
from game.cards import Card
from game.engine import Game
from game.referee import Referee
from game.rules import Rules
from game.units import MS
from tests.game.conftest import deck

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

START_NS = 1_000 * 1_000_000_000
"""The clock reading at which test matches start (1000 s after boot)."""

RACE_DECKS = (deck("6S 9S 9H 9D 5H"), deck("4D 9C 9S 9H KC"))
"""Both players' slot 1 fits pile 1 (top 5H): player 1's 6S, player 2's 4D. Whoever
plays first makes the other's card no longer fit: a race."""

TIE_DECKS = (deck("9S 9H 9D 4C 5H"), deck("9C 9S 9H 6D 5D"))
"""Both players' slot 1 (a nine) fits no pile, yet neither is stuck (4C and 6D fit):
pile presses with slot 1 selected are rejected and leave the game as it was, so ties
can be pressed again and again."""


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock(START_NS)


@pytest.fixture
def edges() -> EdgeQueue:
    return EdgeQueue()


@pytest.fixture
def mock(edges: EdgeQueue, clock: VirtualClock) -> Iterator[MockInput]:
    backend = MockInput(edges, clock=clock)
    backend.open()
    yield backend
    backend.close()


def referee_for(
    decks: tuple[list[Card], list[Card]], rules: Rules | None = None, seed: int = 0
) -> Referee:
    """A referee over a fresh deal of ``decks``, started at match time 0."""
    return Referee(Game(decks, rules), tie_rng=random.Random(seed))


def make_feed(
    mock: MockInput, clock: VirtualClock, referee: Referee, debounce_ms: float = 5.0
) -> RefereeFeed:
    """A feed from ``mock``'s queue into ``referee``; match time 0 is ``START_NS``."""
    feed = RefereeFeed(
        referee,
        mock.edges,
        switch_filter=SwitchFilter(debounce_ms=debounce_ms),
        clock=clock,
        origin_ns=START_NS,
    )
    feed.pump()  # take the initial levels
    return feed


def ms(value: float) -> int:
    return round(value * MS)
