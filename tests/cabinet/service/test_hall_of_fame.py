"""The hall of fame at the cabinet, through the mock pins on a virtual clock: a first game
against the CPU ends with the player's initials, shown in attract's turn; both players
enter at once; the time limit keeps what was entered; the service menu clears it."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from cabinet.drawing.fame_views import FameBoardView, InitialsView
from cabinet.halloffame.board import Category
from cabinet.halloffame.names import BLANK
from cabinet.inputs.controls import Control
from cabinet.shared.phase import Phase
from cabinet.storage.setting_table import CPU_LEVEL, JOIN_CPU_WAIT_S
from cabinet.storage.store import CabinetStore
from cabinet.table.autoplay import AutoPlayers
from game.edges import Button

from .conftest import FRAME, Cabinet, S


@pytest.fixture
def cab(screen: pygame.Surface, store: CabinetStore) -> Iterator[Cabinet]:
    store.settings.set(CPU_LEVEL, 1)
    store.settings.set(JOIN_CPU_WAIT_S, 3)
    store.save_settings()
    cab = Cabinet(screen, store, backend="mock")
    cab.frames(0.1)
    yield cab
    cab.close()


def play_until_initials(cab: Cabinet, *players: int) -> None:
    """``players`` join with a pile button and play (simulated, through the mock pins)
    until the game ends and the initials screen comes."""
    assert cab.mock is not None
    mock = cab.mock
    people = AutoPlayers(
        lambda control, pressed, t: mock.change(control, pressed, t),
        skill=5,
        seed=3,
        join_after_ns=10**18,
    )
    for player in players:
        cab.tap(Control(player, Button.PILE1))
    flow = cab.app.flow
    deadline = cab.clock() + 900 * S
    while flow.phase is not Phase.INITIALS:
        assert cab.clock() < deadline, f"no initials screen; phase {flow.phase}"
        cab.clock.advance(FRAME)
        people.act(cab.clock(), flow.phase, flow.match)  # type: ignore[arg-type]
        cab.app.step(cab.clock())
    for _ in range(12):  # the last presses' fingers come up
        cab.clock.advance(FRAME)
        people.act(cab.clock(), flow.phase, None)
        cab.app.step(cab.clock())


def enter(cab: Cabinet, player: int, *buttons: Button) -> None:
    for button in buttons:
        cab.tap(Control(player, button))


def letters(cab: Cabinet, player: int) -> str:
    return "".join(
        i.text or ""
        for i in cab.app.renderer.display_list
        if i.kind == "letter" and i.player == player
    )


def test_a_first_game_against_the_cpu_ends_with_initials_in_attract(cab: Cabinet) -> None:
    play_until_initials(cab, 0)
    assert cab.app.flow.entries.keys() == {0}  # the CPU enters nothing
    cab.frames(0.05)
    assert letters(cab, 0) == "A__"
    # B (slot 1 up once), confirm; 9 (slot 2 down twice from A: space, 9), confirm;
    # back to the 9; 8; confirm; A, confirm.
    enter(cab, 0, Button.SLOT1, Button.PILE1, Button.SLOT2, Button.SLOT2, Button.PILE2)
    enter(cab, 0, Button.SLOT3)
    assert letters(cab, 0) == "B9_"  # back on the 9, to choose again
    enter(cab, 0, Button.SLOT2, Button.PILE1, Button.PILE2)
    assert cab.app.flow.phase is Phase.ATTRACT
    entries = [e for top in cab.store.fame.entries.values() for e in top]
    assert entries and {e.initials for e in entries} == {"B8A"}
    plays = cab.store.fame.top(Category.MOST_PLAYS)[0]
    summary = cab.app.flow.last_summary
    assert summary is not None and plays.figure == summary.plays[0]
    # Attract's turn comes round: the board, with the initials, new ones highlighted.
    for _ in range(40 * 60):
        cab.frames(1 / 60)
        if isinstance(cab.app.last_view, FameBoardView):
            break
    view = cab.app.last_view
    assert isinstance(view, FameBoardView)
    rows = [r for c in view.columns for r in c.rows]
    assert rows and all(r.initials == "B8A" and r.new for r in rows)
    drawn = [i.text or "" for i in cab.app.renderer.display_list if i.kind == "fame_row"]
    assert any("B8A" in text for text in drawn)


def test_both_players_enter_at_once(cab: Cabinet) -> None:
    play_until_initials(cab, 0, 1)
    assert cab.app.flow.entries.keys() == {0, 1}  # both made "most plays" on an empty board
    for _ in range(3):  # their presses interleaved
        enter(cab, 0, Button.SLOT1)
        enter(cab, 1, Button.SLOT1, Button.SLOT1)
        enter(cab, 0, Button.PILE1)
        enter(cab, 1, Button.PILE2)
    assert cab.app.flow.phase is not Phase.INITIALS
    initials = {e.initials for top in cab.store.fame.entries.values() for e in top}
    assert initials == {"BBB", "CCC"}


def test_the_time_limit_keeps_what_was_entered(cab: Cabinet) -> None:
    play_until_initials(cab, 0)
    enter(cab, 0, Button.SLOT1, Button.SLOT1, Button.PILE1)  # C, then nothing more
    view = cab.app.last_view
    assert isinstance(view, InitialsView) and "seconds left" in view.players[0].status
    cab.frames(31)
    assert cab.app.flow.phase is Phase.ATTRACT
    initials = {e.initials for top in cab.store.fame.entries.values() for e in top}
    assert initials == {"C  "}


def test_the_menu_clears_a_category_after_a_confirm(cab: Cabinet) -> None:
    play_until_initials(cab, 0)
    cab.frames(31)  # time up: blank initials
    assert cab.store.fame.top(Category.MOST_PLAYS)[0].initials == BLANK
    cab.test()
    cab.choose("Hall of fame")
    cab.choose("Most plays in a game")
    assert cab.at_cursor() == "No"
    cab.p1(Button.PILE1)
    assert cab.store.fame.top(Category.MOST_PLAYS)
    cab.choose("Most plays in a game")
    cab.choose("Yes")
    assert cab.store.fame.top(Category.MOST_PLAYS) == ()
    cab.choose("Clear the whole hall of fame")
    cab.choose("Yes")
    assert cab.store.fame.entries == {}
