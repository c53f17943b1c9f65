"""Every screen, in both orientations and at two resolutions, shows what its view holds:
checked on the renderer's display list (kind, player, slot or pile, card, rectangle),
not on pixels. Also: only what changed is repainted, and animations run through."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from cabinet.drawing.box import Box
from cabinet.drawing.geometry import Orientation
from cabinet.drawing.painter import DrawItem
from cabinet.drawing.renderer import Renderer
from cabinet.drawing.replayer import MatchPlayer
from cabinet.drawing.text import FontFileError
from cabinet.drawing.views import (
    AttractView,
    GameOverView,
    JoinPlayer,
    JoinView,
    PlayerSummary,
    TableView,
    table_view,
)
from firmware_bridge.lights import GREEN, RED, Light, LightState
from game.cards import Card
from game.events import Played
from game.record import MatchRecord
from game.table_state import TableState

from .conftest import LABELS, MS, RESOLUTIONS
from .sample_views import TABLE

MakeRenderer = Callable[..., Renderer]
SCREENS = [(size, o) for size in RESOLUTIONS for o in Orientation]
TEXT_KINDS = {
    "label", "cards_left", "deck_count", "stuck", "message", "pile_count", "score", "countdown",
    "race",
}  # fmt: skip


def scene(record: MatchRecord, renderer: Renderer, at_ns: int) -> tuple[TableView, int]:
    """The recorded game played to ``at_ns`` through ``renderer``; returns its table and
    a time when every animation has landed."""
    player = MatchPlayer(record)
    t = 0
    while t < at_ns:
        renderer.feed(player.advance(t))
        t += 20 * MS
    renderer.feed(player.advance(at_ns))
    return table_view(TableState.of(player.referee), LABELS), at_ns + 400 * MS


def with_player(view: TableView, p: int, **changes: object) -> TableView:
    players = list(view.players)
    players[p] = dataclasses.replace(players[p], **changes)  # type: ignore[arg-type]
    return dataclasses.replace(view, players=(players[0], players[1]))


def items(renderer: Renderer, kind: str) -> list[DrawItem]:
    return [i for i in renderer.display_list if i.kind == kind]


def check_table(renderer: Renderer, view: TableView) -> None:
    g = renderer.geometry
    for p in (0, 1):
        pg, pv = g.players[p], view.players[p]
        slots = sorted((i.index, i.card, i.rect, i.rotation) for i in items(renderer, "slot")
                       if i.player == p)  # fmt: skip
        assert [(s[0], s[1], s[2]) for s in slots] == [
            (s, pv.layout[s], pg.slots[s]) for s in range(4)
        ]
        assert {s[3] for s in slots} == {pg.rotation}
        deck = [i for i in items(renderer, "deck") if i.player == p]
        assert [(d.rect, d.text) for d in deck] == [(pg.deck, str(pv.deck_size))]
        counts = [i.text for i in items(renderer, "deck_count") if i.player == p]
        assert counts == [str(pv.deck_size)]
        highlights = [(i.index, i.rect) for i in items(renderer, "highlight") if i.player == p]
        expected = [] if pv.selected is None else [(pv.selected, pg.highlights[pv.selected])]
        assert highlights == expected
        stuck = [(i.rect, i.text) for i in items(renderer, "stuck") if i.player == p]
        assert stuck == ([(pg.stuck, view.stuck_text)] if pv.stuck else [])
        label = [i for i in items(renderer, "label") if i.player == p]
        assert [i.text for i in label] == [pv.label]
        assert pg.label.contains(label[0].rect)
        left = [i for i in items(renderer, "cards_left") if i.player == p]
        assert [i.text for i in left] == ([pv.cards_left] if pv.cards_left else [])
        assert all(pg.cards_left.contains(i.rect) for i in left)
    piles = sorted((i.index, i.card, i.rect) for i in items(renderer, "pile"))  # type: ignore[type-var]
    assert piles == [(i, view.pile_tops[i], g.piles[i]) for i in (0, 1)]
    assert sorted(i.text or "" for i in items(renderer, "pile_count")) == sorted(
        str(n) for n in view.pile_sizes
    )


def check_on_screen_and_apart(renderer: Renderer) -> None:
    screen = renderer.geometry.screen
    shown = renderer.display_list
    assert shown
    for item in shown:
        assert screen.contains(item.rect), item
    texts = [i for i in shown if i.kind in TEXT_KINDS]
    for a_i, a in enumerate(texts):
        for b in texts[a_i + 1 :]:
            assert not a.rect.intersects(b.rect), (a, b)
    cards = [i for i in shown if i.kind in ("slot", "pile", "deck")]
    for text in texts:
        for card in cards:
            assert not text.rect.intersects(card.rect), (text, card)


@pytest.mark.parametrize(("size", "orientation"), SCREENS)
def test_play_screen_shows_the_state(
    make_renderer: MakeRenderer, cpu_record: MatchRecord, size: tuple[int, int],
    orientation: Orientation,
) -> None:  # fmt: skip
    renderer = make_renderer(size, orientation)
    view, settled = scene(cpu_record, renderer, 12_000 * MS)
    renderer.draw(view, settled)
    check_table(renderer, view)
    check_on_screen_and_apart(renderer)
    # Selection, STUCK, warnings and the countdown, on both sides.
    busy = with_player(view, 0, selected=2, stuck=True, warning="Button 3 held down?")
    busy = with_player(busy, 1, selected=0, stuck=True)
    busy = dataclasses.replace(busy, countdown="READY…")
    renderer.draw(busy, settled + MS)
    check_table(renderer, busy)
    check_on_screen_and_apart(renderer)
    messages = [(i.player, i.text or "") for i in items(renderer, "message")]
    assert messages[0] == (0, "Button 3 held down?")
    assert all(p == 1 and text.startswith("beaten by ") for p, text in messages[1:])
    countdowns = items(renderer, "countdown")
    assert len(countdowns) == len(renderer.geometry.messages)
    assert {i.text for i in countdowns} == {"READY…"}
    if orientation is Orientation.COCKTAIL:
        turned = {i.kind for i in renderer.display_list if i.player == 1 and i.rotation == 180}
        assert {"slot", "deck", "label", "stuck", "highlight"} <= turned
        assert {i.rotation for i in countdowns} == {0, 180}
    else:
        assert {i.rotation for i in renderer.display_list} == {0}


@pytest.mark.parametrize(("size", "orientation"), SCREENS)
def test_attract_screen_blinks_its_prompt_over_the_demo(
    make_renderer: MakeRenderer, cpu_record: MatchRecord, size: tuple[int, int],
    orientation: Orientation,
) -> None:  # fmt: skip
    renderer = make_renderer(size, orientation)
    table, settled = scene(cpu_record, renderer, 5_000 * MS)
    view = AttractView(table, "PRESS ANY BUTTON", "Play a card one above or below a pile.\nGo!")
    on = settled - settled % (1000 * MS) + 1000 * MS  # the start of a blink period
    renderer.draw(view, on)
    check_table(renderer, table)
    banners = renderer.geometry.banners
    assert [i.text for i in items(renderer, "prompt")] == ["PRESS ANY BUTTON"] * len(banners)
    howto = " ".join(i.text or "" for i in items(renderer, "howto"))
    assert "Play a card" in howto and "Go!" in howto
    for item in items(renderer, "prompt") + items(renderer, "howto"):
        assert any(b.box.contains(item.rect) for b in banners)
    assert renderer.wake_ns is not None and renderer.wake_ns <= on + 600 * MS
    renderer.draw(view, on + 700 * MS)
    assert items(renderer, "prompt") == []
    assert items(renderer, "howto")


@pytest.mark.parametrize(("size", "orientation"), SCREENS)
def test_join_and_game_over_screens(
    make_renderer: MakeRenderer, size: tuple[int, int], orientation: Orientation
) -> None:
    renderer = make_renderer(size, orientation)
    join = JoinView(
        (JoinPlayer("PLAYER 1", "Ready!", True), JoinPlayer("PLAYER 2", "Press any button", False)),
        footer="CPU joins in 5",
    )
    renderer.draw(join, 0)
    g = renderer.geometry
    for p in (0, 1):
        texts = [(i.kind, i.text, i.rotation) for i in renderer.display_list if i.player == p
                 and i.kind in ("title", "status")]  # fmt: skip
        rot = g.players[p].rotation
        assert texts == [
            ("title", join.players[p].title, rot),
            ("status", join.players[p].status, rot),
        ]
    assert [i.text for i in items(renderer, "footer")] == ["CPU joins in 5"] * len(g.banners)
    assert not items(renderer, "slot")
    check_on_screen_and_apart(renderer)

    over = GameOverView(
        "PLAYER 2 WINS!",
        (
            PlayerSummary("PLAYER 1", ("Cards left: 3", "Plays: 40")),
            PlayerSummary(
                "PLAYER 2", ("Cards left: 0", "Plays: 44", "Closest race won: 1.2 ms"), True
            ),
        ),
        match_line="Match: 1 – 1",
    )
    renderer.draw(over, MS)
    for p in (0, 1):
        lines = [i for i in items(renderer, "line") if i.player == p]
        assert [i.text for i in lines] == list(over.players[p].lines)
        assert all(g.players[p].panel.contains(i.rect) for i in lines)
        assert {i.rotation for i in lines} == {g.players[p].rotation}
        ys = [i.rect.y for i in lines]
        assert ys == (sorted(ys) if g.players[p].rotation == 0 else sorted(ys, reverse=True))
    assert [i.text for i in items(renderer, "headline")] == ["PLAYER 2 WINS!"] * len(g.banners)
    assert [i.text for i in items(renderer, "match")] == ["Match: 1 – 1"] * len(g.banners)
    check_on_screen_and_apart(renderer)
    texts = [i for i in renderer.display_list if i.text]
    for a_i, a in enumerate(texts):
        for b in texts[a_i + 1 :]:
            assert not a.rect.intersects(b.rect), (a, b)


def test_only_what_changed_is_repainted(
    make_renderer: MakeRenderer, cpu_record: MatchRecord
) -> None:
    renderer = make_renderer((1920, 1080), Orientation.UPRIGHT)
    view, settled = scene(cpu_record, renderer, 8_000 * MS)
    first = renderer.draw(view, settled)
    assert first == [pygame.Rect(0, 0, 1920, 1080)]
    assert renderer.draw(view, settled + MS) == []  # nothing changed: nothing painted
    slot = renderer.geometry.players[1].slots[2]
    changed = with_player(view, 1, layout=(*view.players[1].layout[:2], Card.parse("KD"), None))
    rects = renderer.draw(changed, settled + 2 * MS)
    assert rects and sum(r.w * r.h for r in rects) <= 2 * slot.area
    assert any(pygame.Rect(slot.as_tuple()).colliderect(r) for r in rects)
    # The repainted pixels match a full repaint of the same view.
    full = make_renderer((1920, 1080), Orientation.UPRIGHT)
    full.draw(changed, settled + 2 * MS)
    for r in rects:
        assert pygame.image.tobytes(
            renderer.backend.surface.subsurface(r), "RGB"
        ) == pygame.image.tobytes(full.backend.surface.subsurface(r), "RGB")


@pytest.mark.parametrize("orientation", list(Orientation))
def test_repainting_only_the_changes_gives_the_pixels_of_a_full_repaint(
    make_renderer: MakeRenderer, cpu_record: MatchRecord, orientation: Orientation
) -> None:
    """Twenty seconds of a game at a frame every 7 ms (sprites in flight, highlights,
    counts): after every frame the screen painted piece by piece is pixel for pixel the
    screen a renderer that repaints everything shows."""
    size = (640, 480)
    pieces = make_renderer(size, orientation, lights_strip=True)
    whole = make_renderer(size, orientation, lights_strip=True)
    player = MatchPlayer(cpu_record)
    t = partial = 0
    while t < 20_000 * MS and not player.finished:
        events = player.advance(t)
        view = table_view(TableState.of(player.referee), LABELS)
        for renderer in (pieces, whole):
            renderer.feed(events)
        rects = pieces.draw(view, t)
        whole.invalidate()
        whole.draw(view, t)
        partial += bool(rects) and rects != [pieces.backend.surface.get_rect()]
        assert pygame.image.tobytes(pieces.backend.surface, "RGB") == pygame.image.tobytes(
            whole.backend.surface, "RGB"
        ), t
        t += 7 * MS
    assert partial > 100  # most frames were painted piece by piece


def test_a_play_animates_through_the_renderer(
    make_renderer: MakeRenderer, cpu_record: MatchRecord
) -> None:
    renderer = make_renderer((1280, 1024), Orientation.COCKTAIL)
    player = MatchPlayer(cpu_record)
    t = 0
    play: Played | None = None
    while play is None:
        events = player.advance(t)
        renderer.feed(events)
        play = next((e for e in events if isinstance(e, Played)), None)
        t += 10 * MS
    view = table_view(TableState.of(player.referee), LABELS)
    renderer.draw(view, play.t_ns + 75 * MS)
    sprites = [i for i in items(renderer, "sprite") if i.card == play.card]
    slot = renderer.geometry.players[play.player].slots[play.slot]
    pile = renderer.geometry.piles[play.pile]
    assert len(sprites) == 1 and sprites[0].rect not in (slot, pile)
    assert min(slot.x, pile.x) <= sprites[0].rect.x <= max(slot.x, pile.x)
    assert [i.card for i in items(renderer, "pile") if i.index == play.pile] != [play.card]
    renderer.draw(view, play.t_ns + 300 * MS)
    assert not [i for i in items(renderer, "sprite") if i.card == play.card]
    assert [i.card for i in items(renderer, "pile") if i.index == play.pile] == [play.card]


def test_a_whole_cpu_game_in_virtual_time(
    make_renderer: MakeRenderer, cpu_record: MatchRecord
) -> None:
    renderer = make_renderer((1280, 1024), Orientation.COCKTAIL, lights_strip=True)
    player = MatchPlayer(cpu_record)
    screen = renderer.geometry.screen
    t = 0
    frames = painted = 0
    while not player.finished:
        renderer.feed(player.advance(t))
        view = table_view(TableState.of(player.referee), LABELS)
        painted += bool(renderer.draw(AttractView(view, "PRESS", "How to play"), t))
        frames += 1
        assert all(screen.contains(i.rect) for i in renderer.display_list)
        t += 33 * MS
    renderer.draw(table_view(TableState.of(player.referee), LABELS), t + 500 * MS)
    check_table(renderer, table_view(TableState.of(player.referee), LABELS))
    assert frames > 600 and painted < frames  # some frames had nothing to repaint


def test_the_lights_strip_shows_the_light_state(make_renderer: MakeRenderer) -> None:
    renderer = make_renderer((800, 480), Orientation.UPRIGHT, lights_strip=True)
    state = LightState.all_off().with_lights(stuck2=Light.on(RED), spit=Light.blink(400, GREEN))
    join = JoinView((JoinPlayer("P1", "…", False), JoinPlayer("P2", "…", False)), lights=state)
    renderer.draw(join, 0)
    lights = items(renderer, "light")
    assert [i.index for i in lights] == list(range(15))
    assert lights[1].style == RED and lights[2].style == GREEN
    assert lights[0].style != RED
    assert renderer.wake_ns == 200 * MS  # the blink goes dark
    renderer.draw(join, 200 * MS)
    assert items(renderer, "light")[2].style != GREEN
    no_strip = make_renderer((800, 480), Orientation.UPRIGHT)
    no_strip.draw(join, 0)
    assert not items(no_strip, "light")


def test_fonts_from_a_file_and_bad_font_files(make_renderer: MakeRenderer, tmp_path: Path) -> None:
    bundled = Path(pygame.__file__).parent / pygame.font.get_default_font()
    renderer = make_renderer((800, 480), Orientation.UPRIGHT, font_path=bundled)
    renderer.draw(JoinView((JoinPlayer("P1", "a", True), JoinPlayer("P2", "b", False))), 0)
    assert items(renderer, "title")
    bad = tmp_path / "broken.ttf"
    bad.write_bytes(b"not a font")
    with pytest.raises(FontFileError, match=r"broken\.ttf"):
        make_renderer((800, 480), Orientation.UPRIGHT, font_path=bad)


def test_resize_and_unknown_views(make_renderer: MakeRenderer) -> None:
    renderer = make_renderer((800, 480), Orientation.COCKTAIL)
    renderer.resize(pygame.Surface((1024, 768)))
    assert (renderer.geometry.width, renderer.geometry.height) == (1024, 768)
    with pytest.raises(TypeError, match="cannot draw str"):
        renderer.draw("attract", 0)  # type: ignore[arg-type]


def test_warm_draws_every_face_once(make_renderer: MakeRenderer) -> None:
    assert not make_renderer((800, 480), Orientation.COCKTAIL).warmed  # warm=False: none
    renderer = make_renderer((800, 480), Orientation.COCKTAIL, warm=True)
    assert renderer.warmed
    misses = renderer.art.misses
    # Two rotations; faces and the empty outline at the slots' and the piles' size, the
    # back at the slots'.
    assert misses == 2 * (2 * (52 + 1) + 1)
    renderer.draw(TABLE, 0)
    assert renderer.art.misses == misses and renderer.art.hits >= 12


def test_boxes_are_what_tests_compare() -> None:
    assert Box(1, 2, 3, 4) == Box(1, 2, 3, 4)
