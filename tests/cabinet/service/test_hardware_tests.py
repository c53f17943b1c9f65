"""The tests pages: input test (live counts, chatter, stuck), the race tester decided by
the presses' own timestamps (mock pins driven at explicit times), output, monitor and
sound tests."""

from __future__ import annotations

import pygame

from cabinet.i18n import font_path
from cabinet.inputs.controls import Control
from cabinet.service.draw import BARS, MenuRenderer
from cabinet.service.screen import MenuScreen, Row
from firmware_bridge.lights import LIGHT_NAMES, Mode
from game.edges import Button
from game.units import US
from tests.cabinet.service.conftest import Cabinet


def open_test(cab: Cabinet, name: str) -> None:
    cab.test()
    cab.choose("Tests")
    cab.choose(name)


def row(cab: Cabinet, label: str) -> Row:
    return next(r for r in cab.shown.rows if r.label == label)


def test_input_test_counts_presses_and_chatter_live(mock_cabinet: Cabinet) -> None:
    cab = mock_cabinet
    assert cab.mock is not None
    open_test(cab, "Input test")
    assert cab.shown.notice == "Press times come from the kernel (hardware timestamps)"
    t = cab.clock()
    # player 2's slot 3 bounces: press, 3 bounce edges within the debounce time
    cab.mock.bounce(
        Control(1, Button.SLOT3),
        [t + 100 * US, t + 300 * US, t + 500 * US, t + 700 * US, t + 900 * US],
        pressed_first=True,
    )
    cab.frames(0.1)
    shown = row(cab, "Player 2 · Slot 3").value
    assert shown.startswith("DOWN · 1 press · 4 bounces · last 0.1 s ago")
    assert cab.lights.state["p2_slot3"].mode is Mode.ON  # a button lights while down
    cab.p1(Button.SLOT1)  # player 1's buttons are under test too: no navigation
    assert cab.shown.title == "Input test"
    assert row(cab, "Player 1 · Slot 1").value.startswith("1 press")
    cab.mock.release(Control(1, Button.SLOT3), cab.clock())
    cab.frames(11)
    cab.mock.press(Control(0, Button.PILE2), cab.clock())
    cab.frames(11)  # held for 11 s: stuck
    assert row(cab, "Player 1 · Pile 2").value.startswith("STUCK")
    assert row(cab, "Player 1 · Pile 2").tone == "warn"
    cab.service()  # SERVICE: counts start again
    assert row(cab, "Player 2 · Slot 3").value == "0 presses · 0 bounces · not pressed yet"
    cab.test()  # TEST: back
    assert cab.shown.title == "Tests"
    cab.mock.release(Control(0, Button.PILE2), cab.clock())
    cab.frames(0.1)
    cab.choose("Back")
    cab.choose("Save and exit")
    assert cab.store.audits.hardware.current.stuck[Control(0, Button.PILE2)] == 1
    assert cab.store.audits.hardware.current.chatter[Control(1, Button.SLOT3)] == 4


def test_race_tester_decides_by_timestamps_not_arrival(mock_cabinet: Cabinet) -> None:
    cab = mock_cabinet
    assert cab.mock is not None
    open_test(cab, "Race tester")
    t = cab.clock()
    # player 2's press reaches the software first, but player 1 pressed 1 µs earlier
    cab.mock.press(Control(1, Button.PILE1), t + 1 * US)
    cab.frames(0.02)
    assert row(cab, "Player 1").value == "waiting…"
    cab.mock.press(Control(0, Button.SLOT4), t)
    cab.frames(0.02)
    labels = [r.label for r in cab.shown.rows]
    assert "Player 1 was first, by 0.001 ms" in labels
    assert "The software saw them in the other order; the race window put them right" in labels
    assert cab.shown.notice == "Race window: 2.0 ms"
    assert cab.lights.state["stuck1"].mode is Mode.ON
    cab.mock.release(Control(1, Button.PILE1), cab.clock())
    cab.mock.release(Control(0, Button.SLOT4), cab.clock())
    cab.frames(0.05)
    # an exact tie goes by the tie rule (alternate: the first to player 1)
    t = cab.clock() - 10 * US
    cab.mock.press(Control(0, Button.SLOT1), t)
    cab.mock.press(Control(1, Button.SLOT1), t)
    cab.frames(0.02)
    assert "Exact tie: the tie rule gives it to player 1" in [r.label for r in cab.shown.rows]


def test_output_test_lights_each_light_in_turn_and_every_pattern(cabinet: Cabinet) -> None:
    cab = cabinet
    open_test(cab, "Output test")
    assert row(cab, "Light board").value == "None: on-screen strip"
    lit = set()
    for _ in range(len(LIGHT_NAMES)):
        on = [name for name, light in cab.lights.state.items() if light.mode is Mode.ON]
        assert len(on) == 1
        lit.add(on[0])
        cab.p1(Button.SLOT2)  # down to "Lit now"
        cab.p1(Button.SLOT4)  # the next light
        cab.p1(Button.SLOT1)
    assert lit == set(LIGHT_NAMES)
    cab.p1(Button.SLOT4)  # pattern: all white
    assert all(light.mode is Mode.ON for _, light in cab.lights.state.items())
    cab.p1(Button.SLOT3)
    cab.p1(Button.SLOT3)  # all off
    assert row(cab, "Pattern").value == "All off"
    assert not cab.lights.state.lit()


def test_sound_test_plays_each_effect(cabinet: Cabinet) -> None:
    cab = cabinet
    open_test(cab, "Sound test")
    for label in cab.labels()[:7]:
        cab.choose(label)
    assert [p.name for p in cab.sounds.played][-7:] == [
        "select",
        "play",
        "reject",
        "beaten",
        "spit",
        "win",
        "countdown",
    ]


def test_monitor_test_draws_bars_crosshatch_and_safe_area_both_ways(cabinet: Cabinet) -> None:
    cab = cabinet
    open_test(cab, "Monitor test")
    screen = cab.app.screen
    w, h = screen.get_size()
    assert cab.shown.pattern == "bars" and not cab.shown.turned
    assert screen.get_at((w // 16, h // 3))[:3] == BARS[0]
    assert screen.get_at((w - w // 16, h // 3))[:3] == BARS[-1]
    cab.p1(Button.PILE1)  # turned for the far side of a cocktail table
    cab.frames(0.05)
    assert cab.shown.turned and cab.shown.title == "Colour bars · Cocktail table"
    assert screen.get_at((w // 16, h // 3))[:3] == BARS[-1]
    cab.p1(Button.SLOT4)
    assert cab.shown.pattern == "crosshatch"
    cab.p1(Button.SLOT4)
    assert cab.shown.pattern == "safe"
    cab.frames(0.05)
    assert screen.get_at((w // 2, 0))[:3] == (255, 0, 0)  # the screen's edge
    cab.p1(Button.PILE2)
    assert cab.shown.title == "Tests"


def test_the_renderer_draws_only_changes_and_scrolls_long_pages() -> None:
    pygame.font.init()
    surface = pygame.Surface((640, 360))
    renderer = MenuRenderer(surface, font_path())
    rows = tuple(Row(f"Row {i}", str(i)) for i in range(30))
    page = MenuScreen("Title", rows, 0, "help", "notice")
    assert renderer.draw(page) == [surface.get_rect()]
    assert renderer.draw(page) == []  # nothing changed: nothing painted
    renderer.draw(MenuScreen("Title", rows, 25, "help", "notice"))
    assert 25 in renderer.shown and len(renderer.shown) < len(rows)
    assert renderer.top == renderer.shown.start > 0


def test_the_input_test_shows_every_button_at_once(mock_cabinet: Cabinet) -> None:
    """The input test has no cursor and captures the players' buttons, so nothing can
    scroll it: every control's row must be on screen (the rows are made to fit)."""
    cab = mock_cabinet
    open_test(cab, "Input test")
    cab.frames(0.05)
    labels = cab.labels()
    assert {"Player 2 · Pile 1", "Player 2 · Pile 2", "TEST", "SERVICE"} <= set(labels)
    assert cab.app.menu_renderer.shown == range(len(labels))
