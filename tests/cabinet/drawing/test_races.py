"""Races as moments, on the display list: a race won by a hair is written by its pile for
both players (each in their reading direction in cocktail), the countdown and the attract
text win the boxes they share with it, and the game-over screen shows the game's closest
race with both press times, each in its player's panel."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from cabinet.display.app_settings import AppSettings
from cabinet.display.flow import Flow, FlowSettings
from cabinet.display.presenter import Presenter
from cabinet.drawing.geometry import Orientation
from cabinet.drawing.painter import DrawItem
from cabinet.drawing.renderer import Renderer
from cabinet.drawing.views import AttractView, GameOverView, PlayerTable, RaceMoment, TableView
from cabinet.i18n import Translator, font_path
from cabinet.shared.phase import Phase
from game.cards import Card
from game.summary import ClosestRace

from .conftest import MS

MakeRenderer = Callable[..., Renderer]
SCREENS = [(size, o) for size in ((1920, 1080), (1024, 768), (800, 480)) for o in Orientation]
TEXT = "Player 2 first by 3.2 ms"


def table(*races: RaceMoment, countdown: str | None = None) -> TableView:
    layout = tuple(Card.parse(c) for c in ("AS", "9D", "3D", "4C"))
    return TableView(
        (PlayerTable("Player 1", layout, 20, cards_left="24 cards left"),
         PlayerTable("Player 2", layout, 19, cards_left="23 cards left")),
        (Card.parse("9S"), Card.parse("TH")),
        (3, 4),
        "Stuck",
        countdown=countdown,
        races=races,
    )  # fmt: skip


def race_copies(renderer: Renderer, pile: int) -> dict[int, list[DrawItem]]:
    """The race moment's lines on ``pile``, by rotation."""
    copies: dict[int, list[DrawItem]] = {}
    for item in renderer.display_list:
        if item.kind == "race" and item.index == pile:
            copies.setdefault(item.rotation, []).append(item)
    return copies


@pytest.mark.parametrize(("size", "orientation"), SCREENS)
def test_a_close_race_is_written_by_its_pile_for_both_players(
    make_renderer: MakeRenderer, size: tuple[int, int], orientation: Orientation
) -> None:
    renderer = make_renderer(size, orientation, font_path=font_path())
    g = renderer.geometry
    renderer.draw(table(RaceMoment(1, TEXT)), 0)
    copies = race_copies(renderer, 1)
    assert not race_copies(renderer, 0)
    expected = {0} if orientation is Orientation.UPRIGHT else {0, 180}
    assert set(copies) == expected
    pile = g.piles[1]
    for placed in g.races[1]:
        lines = copies[placed.rotation]
        assert " ".join(i.text or "" for i in lines) == TEXT
        assert all(placed.box.contains(i.rect) for i in lines)
        # In its reader's direction: lines run down the screen for player 1, up for 2.
        ys = [i.rect.y for i in lines]
        assert ys == (sorted(ys) if placed.rotation == 0 else sorted(ys, reverse=True))
        # By its pile: under it upright, beside it (on its side of the table) in cocktail.
        if orientation is Orientation.UPRIGHT:
            assert placed.box.y >= pile.bottom and placed.box.x < pile.right
            assert placed.box.right > pile.x
        else:
            assert placed.box.x >= pile.right and placed.box.bottom > pile.y
            assert placed.box.y < pile.bottom
    # Over a dark panel, painted first; never over a card.
    shown = renderer.display_list
    panels = [k for k, i in enumerate(shown) if i.kind == "race_panel"]
    first_line = min(k for k, i in enumerate(shown) if i.kind == "race")
    assert len(panels) == len(expected) and min(panels) < first_line
    cards = [i.rect for i in shown if i.kind in ("slot", "pile", "deck")]
    for item in shown:
        if item.kind.startswith("race"):
            assert not any(item.rect.intersects(c) for c in cards), item
            assert g.screen.contains(item.rect)


@pytest.mark.parametrize("orientation", list(Orientation))
def test_the_countdown_and_the_attract_text_win_the_race_boxes(
    make_renderer: MakeRenderer, orientation: Orientation
) -> None:
    renderer = make_renderer((1280, 720), orientation)
    race = RaceMoment(0, TEXT)
    renderer.draw(table(race, countdown="Ready…"), 0)
    countdowns = [i for i in renderer.display_list if i.kind == "countdown"]
    assert countdowns
    if orientation is Orientation.COCKTAIL:  # they share the box beside the piles
        assert not race_copies(renderer, 0)
    else:  # upright the countdown is above the piles, the race under them
        assert set(race_copies(renderer, 0)) == {0}
    renderer.draw(AttractView(table(race), "Press any button", "How to play"), MS)
    assert not race_copies(renderer, 0)


def test_one_race_moment_per_pile() -> None:
    with pytest.raises(ValueError, match="one race moment per pile"):
        table(RaceMoment(0, "a"), RaceMoment(0, "b"))
    with pytest.raises(ValueError, match="0 or 1"):
        RaceMoment(2, "a")


@pytest.mark.parametrize("orientation", list(Orientation))
def test_game_over_shows_the_closest_race_with_both_press_times(
    make_renderer: MakeRenderer, orientation: Orientation
) -> None:
    """From a real flow: player 2 won the game's closest race by 0.8 ms at 41.2031 s;
    each panel has its player's side of it and their press time."""
    t0 = 10**12
    flow = Flow(FlowSettings(), 2, t0)
    flow.press(0, t0)
    flow.press(1, t0)
    assert flow.match is not None
    race = ClosestRace(margin_ns=800_000, winner=1, t_ns=41_203_100_000, pile=0)
    flow.last_summary = dataclasses.replace(flow.match.summary(), winner=1, closest_race=race)
    flow.phase = Phase.GAME_OVER
    view = Presenter(flow, AppSettings(), Translator("en")).show(t0, None).view
    assert isinstance(view, GameOverView)
    renderer = make_renderer((1920, 1080), orientation)
    renderer.draw(view, 0)
    g = renderer.geometry
    expected = (
        ["Closest race lost by 0.8 ms", "Pressed at 41.2039 s"],
        ["Closest race won by 0.8 ms", "Pressed at 41.2031 s"],
    )
    for p in (0, 1):
        lines = [i for i in renderer.display_list if i.kind == "line" and i.player == p]
        assert [i.text for i in lines][-2:] == expected[p]
        assert all(g.players[p].panel.contains(i.rect) for i in lines)
        assert {i.rotation for i in lines} == {g.players[p].rotation}
