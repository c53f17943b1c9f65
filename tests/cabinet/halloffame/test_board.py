"""The hall of fame's ranking: better figures first, an equal figure keeps the earlier
entry ahead, each category cut to its size; and the figures a game sets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.halloffame.board import (
    BoardError,
    Candidate,
    Category,
    Entry,
    FameBoard,
    Streaks,
    candidates,
)
from game.bots import level
from game.cpu_match import play_cpu_game
from game.summary import Seat


def entry(category: Category, figure: int, order: int, initials: str = "ABC") -> Entry:
    return Entry(category, initials, figure, "2026-12-01", order)


def test_times_rank_low_first_and_counts_high_first() -> None:
    board = FameBoard(size=3)
    for order, figure in enumerate((900, 500, 700, 400)):
        board = board.with_entry(entry(Category.FASTEST_TWO_PLAYER_WIN, figure, order))
        board = board.with_entry(entry(Category.MOST_PLAYS, figure, order))
    assert [e.figure for e in board.top(Category.FASTEST_TWO_PLAYER_WIN)] == [400, 500, 700]
    assert [e.figure for e in board.top(Category.MOST_PLAYS)] == [900, 700, 500]


def test_an_equal_figure_keeps_the_earlier_entry_ahead() -> None:
    board = FameBoard(size=2).with_entry(entry(Category.CLOSEST_RACE_WON, 50, 1, "OLD"))
    assert board.place(Category.CLOSEST_RACE_WON, 50) == 1  # after the one already there
    board = board.with_entry(entry(Category.CLOSEST_RACE_WON, 50, 2, "NEW"))
    assert [e.initials for e in board.top(Category.CLOSEST_RACE_WON)] == ["OLD", "NEW"]
    assert board.place(Category.CLOSEST_RACE_WON, 50) is None  # a full board: not kept
    assert board.place(Category.CLOSEST_RACE_WON, 49) == 0


@given(
    figures=st.lists(st.integers(0, 20), max_size=30),
    size=st.integers(1, 6),
    category=st.sampled_from(list(Category)),
)
def test_the_board_is_the_best_size_entries_ties_by_order(
    figures: list[int], size: int, category: Category
) -> None:
    board = FameBoard(size=size)
    for order, figure in enumerate(figures):
        place = board.place(category, figure)
        board = board.with_entry(entry(category, figure, order))
        kept = board.top(category)
        if place is None:
            assert all(e.order != order for e in kept)
        else:
            assert kept[place].order == order
    sign = 1 if category.lower_is_better else -1
    expected = sorted(enumerate(figures), key=lambda p: (sign * p[1], p[0]))[:size]
    assert [(e.order, e.figure) for e in board.top(category)] == expected
    assert FameBoard.of([e for c in board.entries.values() for e in c], size) == board


def test_bad_entries_are_refused() -> None:
    with pytest.raises(BoardError, match="3 characters"):
        entry(Category.MOST_PLAYS, 3, 1, initials="ABCD")
    with pytest.raises(BoardError, match=">= 0"):
        entry(Category.MOST_PLAYS, -1, 1)
    with pytest.raises(BoardError, match="at least 1"):
        FameBoard(size=0)


def test_a_win_against_the_cpu_sets_that_levels_fastest_win() -> None:
    for seed in range(20):
        game = play_cpu_game(seed, (level(4), level(1)))
        if game.summary.winner == 0:
            break
    else:
        raise AssertionError("level 4 never beat level 1 in 20 games")
    summary = game.summary
    found = candidates(summary, (Seat.HUMAN, Seat.CPU), (None, 1), streaks=(2, 0))
    by_category = {c.category: c for c in found}
    end_ms = (summary.end_t_ns or 0) // 1_000_000
    assert by_category[Category.FASTEST_WIN_CPU_1] == Candidate(
        0, Category.FASTEST_WIN_CPU_1, end_ms
    )
    assert by_category[Category.LONGEST_STREAK].figure == 2
    assert by_category[Category.MOST_PLAYS].figure == summary.plays[0]
    assert all(c.player == 0 for c in found)  # the CPU sets no records
    # Two people: the winner's fastest two-player win, both players' plays.
    both = candidates(summary, (Seat.HUMAN, Seat.HUMAN), (None, None))
    assert Candidate(0, Category.FASTEST_TWO_PLAYER_WIN, end_ms) in both
    assert {c.player for c in both if c.category is Category.MOST_PLAYS} == {0, 1}


def test_streaks_end_with_a_loss_and_when_the_players_leave() -> None:
    streaks = Streaks()
    seats = (Seat.HUMAN, Seat.HUMAN)
    assert streaks.game_ended(0, seats) == (1, 0)
    assert streaks.game_ended(0, seats) == (2, 0)
    assert streaks.game_ended(1, seats) == (0, 1)
    assert streaks.game_ended(None, seats) == (0, 0)  # a draw
    streaks.game_ended(1, seats)
    streaks.player_left()
    assert streaks.game_ended(1, seats) == (0, 1)
