"""View models: validation, and the table built straight from a referee."""

from __future__ import annotations

import pytest

from cabinet.drawing.replayer import MatchPlayer
from cabinet.drawing.views import PlayerTable, TableView, ViewError, table_view
from game.events import Event
from game.record import MatchRecord, replay
from game.table_state import TableState

from .conftest import LABELS, MS


def test_bad_views_are_refused_with_a_reason() -> None:
    with pytest.raises(ViewError, match="4 slots"):
        PlayerTable("P1", (None, None, None), 3)
    with pytest.raises(ViewError, match=r"0\.\.3"):
        PlayerTable("P1", (None,) * 4, 3, selected=4)
    with pytest.raises(ViewError, match="negative"):
        PlayerTable("P1", (None,) * 4, -1)
    p = PlayerTable("P1", (None,) * 4, 0)
    with pytest.raises(ViewError, match="two players"):
        TableView((p,), (None, None), (0, 0), "STUCK")  # type: ignore[arg-type]


def test_table_view_follows_the_referee(cpu_record: MatchRecord) -> None:
    player = MatchPlayer(cpu_record)
    selected_seen = stuck_seen = False
    for t in range(0, 20_000 * MS, 37 * MS):
        player.advance(t)
        view = table_view(
            TableState.of(player.referee), LABELS, countdown="READY…", warnings=(None, "held?")
        )
        game = player.referee.game
        for p in (0, 1):
            pv = view.players[p]
            assert pv.layout == game.layout(p)
            assert pv.deck_size == game.deck_size(p)
            assert pv.selected == player.referee.selected(p)
            assert pv.stuck == game.is_stuck(p)
            assert pv.label == LABELS.names[p]
            selected_seen |= pv.selected is not None
            stuck_seen |= pv.stuck
        assert view.pile_tops == (game.pile_top(0), game.pile_top(1))
        assert view.pile_sizes == (game.pile_size(0), game.pile_size(1))
        assert view.players[1].warning == "held?" and view.countdown == "READY…"
    assert selected_seen and stuck_seen


def test_the_match_player_decides_what_replay_decides(cpu_record: MatchRecord) -> None:
    player = MatchPlayer(cpu_record)
    events: list[Event] = []
    t = 0
    while t <= player.end_ns:
        events.extend(player.advance(t))
        t += 16_666_667
    events.extend(player.advance(player.end_ns))
    whole = replay(cpu_record)
    assert player.finished
    assert events == list(whole.events)
    assert player.referee.game.outcome == whole.game.outcome
