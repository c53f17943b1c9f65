"""CPU players: the pure decision and the timing model per level."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.bots import LEVELS, CpuPlayer, LevelError, choose_play, level
from game.cpu_match import play_cpu_game
from game.edges import Button
from game.engine import Game, fitting_ranks
from game.units import MS

from .conftest import cards


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60), plans_ahead=st.booleans())
def test_the_decision_is_legal_and_none_only_when_stuck(
    seed: int, steps: int, plans_ahead: bool
) -> None:
    game = Game.from_seed(seed)
    game.start(0)
    fits = fitting_ranks(True)
    t = 0
    for _ in range(steps):
        if game.outcome is not None:
            break
        t += MS
        for p in (0, 1):
            tops = (game.pile_top(0), game.pile_top(1))
            choice = choose_play(game.layout(p), tops, fits, plans_ahead=plans_ahead)
            if choice is None:
                assert game.is_stuck(p)
            else:
                assert choice in game.legal_plays(p)
                assert game.play(p, *choice, t).accepted
                break
        else:
            if game.spit_due_ns is not None:
                t = game.spit_due_ns
                game.advance(t)


def test_planning_ahead_prefers_a_play_that_lets_the_next_card_follow() -> None:
    fits = fitting_ranks(True)
    layout = cards("5S 9H 4D KC")
    tops = cards("6H 8D")
    # 5S onto 6H leaves 4D playable next; 9H onto 8D leaves nothing.
    assert choose_play(layout, tops, fits, plans_ahead=False) == (0, 0)
    layout = cards("9H 5S 4D KC")
    assert choose_play(layout, tops, fits, plans_ahead=False) == (0, 1)
    assert choose_play(layout, tops, fits, plans_ahead=True) == (1, 0)


def test_levels_span_beginner_to_expert() -> None:
    assert len(LEVELS) >= 4
    assert [lv.number for lv in LEVELS] == list(range(1, len(LEVELS) + 1))
    low, high = level(1).seconds_per_card
    assert low >= 2.0 and high <= 3.0
    low, high = level(4).seconds_per_card
    assert low >= 0.35 and high <= 0.6
    speeds = [sum(lv.seconds_per_card) for lv in LEVELS]
    assert speeds == sorted(speeds, reverse=True)
    with pytest.raises(LevelError):
        level(0)


def test_presses_fall_inside_the_levels_ranges() -> None:
    cpu = CpuPlayer(1, level(2), random.Random(3))
    for _ in range(200):
        slot, pile = cpu.presses_for(2, 1, 1_000 * MS)
        assert slot.button is Button.SLOT3 and pile.button is Button.PILE2
        assert slot.player == pile.player == 1
        think = slot.t_ns - 1_000 * MS
        move = pile.t_ns - slot.t_ns
        assert level(2).think_ms[0] * MS <= think <= level(2).think_ms[1] * MS
        assert level(2).move_ms[0] * MS <= move <= level(2).move_ms[1] * MS


def test_a_faster_level_wins_most_games() -> None:
    wins = [0, 0]
    for seed in range(40):
        summary = play_cpu_game(seed, (level(1), level(4))).summary
        if summary.winner is not None:
            wins[summary.winner] += 1
    assert wins[1] > 3 * wins[0]


def test_cpu_games_are_deterministic() -> None:
    a = play_cpu_game(17, (level(3), level(3)))
    b = play_cpu_game(17, (level(3), level(3)))
    assert a.record == b.record
    assert a.summary == b.summary
