"""Properties over random seeds and random timed edges (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from game.bots import LEVELS
from game.cards import Card, shuffled_deck
from game.cpu_match import play_cpu_game
from game.edges import Button, Edge, EdgeKind
from game.engine import Game
from game.events import Termination
from game.record import MatchRecord, replay, start_match
from game.record_parts import RecordResult
from game.rules import Rules
from game.units import MS

seeds = st.integers(min_value=0, max_value=2**32)
levels = st.sampled_from(LEVELS)


def snapshot(game: Game) -> tuple[object, ...]:
    return (
        game.layout(0),
        game.layout(1),
        game.pile(0),
        game.pile(1),
        game.deck(0),
        game.deck(1),
        game.is_stuck(0),
        game.is_stuck(1),
        game.outcome,
        game.spit_due_ns,
    )


def check_invariants(game: Game) -> None:
    cards = game.all_cards()
    assert len(cards) == 104  # R14
    assert set(Counter(cards).values()) == {2}
    for p in (0, 1):
        assert len(game.layout(p)) == 4  # R3: never more than four
        if game.deck_size(p):
            assert None not in game.layout(p)  # R9: refilled at once


@settings(max_examples=40, deadline=None)
@given(
    seed=seeds,
    moves=st.lists(
        st.tuples(st.integers(0, 1), st.integers(0, 3), st.integers(0, 1), st.integers(0, 400)),
        max_size=300,
    ),
)
def test_random_plays_keep_the_invariants_and_a_rejected_play_changes_nothing(
    seed: int, moves: list[tuple[int, int, int, int]]
) -> None:
    game = Game.from_seed(seed)
    game.start(0)
    t = 0
    for player, slot, pile, gap_ms in moves:
        t += gap_ms * MS
        game.advance(t)
        before = snapshot(game)
        result = game.play(player, slot, pile, t)
        if not result.accepted:
            assert snapshot(game) == before
        check_invariants(game)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, a=levels, b=levels)
def test_every_cpu_game_terminates_and_replays_to_its_result(seed: int, a, b) -> None:
    game = play_cpu_game(seed, (a, b))
    assert game.summary.finished
    assert game.summary.termination is not Termination.ABANDONED
    again = replay(game.record).summary()
    assert RecordResult.of(again) == RecordResult.of(game.summary)
    assert again.closest_race == game.summary.closest_race


@st.composite
def timed_edges(draw: st.DrawFn) -> list[Edge]:
    """Random presses (and some releases) of both players at random times."""
    count = draw(st.integers(10, 250))
    # Gaps of zero make exact ties and same-instant presses; small ones make races.
    gap = st.one_of(st.just(0), st.integers(1, 3 * MS), st.integers(1, 80 * MS))
    gaps = draw(st.lists(gap, min_size=count, max_size=count))
    buttons = draw(st.lists(st.sampled_from(list(Button)), min_size=count, max_size=count))
    players = draw(st.lists(st.integers(0, 1), min_size=count, max_size=count))
    kinds = draw(
        st.lists(
            st.sampled_from([EdgeKind.PRESS] * 4 + [EdgeKind.RELEASE]),
            min_size=count,
            max_size=count,
        )
    )
    edges = []
    t = 0
    for gap, button, player, kind in zip(gaps, buttons, players, kinds, strict=True):
        t += gap
        edges.append(Edge(player, button, kind, t))
    return edges


def deliver(edges: list[Edge], window: int, rng: random.Random) -> list[Edge]:
    """The same edges delivered within the window, in the order software would see them."""
    stamped = [e.delivered(e.t_ns + rng.randrange(window)) for e in edges]
    return sorted(stamped, key=lambda e: e.delivered_ns or 0)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, edges=timed_edges(), order_a=st.randoms(), order_b=st.randoms())
def test_delivery_order_within_the_window_never_changes_the_outcome(
    seed: int, edges: list[Edge], order_a: random.Random, order_b: random.Random
) -> None:
    rules = Rules(race_window_ms=5, spit_delay_ms=300)
    results = []
    for order in (order_a, order_b):
        delivered = deliver(edges, rules.race_window_ns, order)
        record = MatchRecord(rules, _decks(seed), tuple(delivered), seed)
        done = replay(record)
        check_invariants(done.game)
        assert done.referee.stats.late_edges == 0
        summary = done.summary()
        results.append((RecordResult.of(summary), summary.rejected, snapshot(done.game)))
    assert results[0] == results[1]


@settings(max_examples=20, deadline=None)
@given(seed=seeds, edges=timed_edges())
def test_invariants_hold_after_every_referee_step(seed: int, edges: list[Edge]) -> None:
    rules = Rules(spit_delay_ms=200)
    referee = start_match(rules, _decks(seed), seed)
    for edge in deliver(edges, rules.race_window_ns, random.Random(seed)):
        assert edge.delivered_ns is not None
        referee.take(edge, edge.delivered_ns)
        check_invariants(referee.game)


def _decks(seed: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    return (shuffled_deck(seed, 0), shuffled_deck(seed, 1))
