"""The whole cabinet headless: attract, the keyboard end to end, lights and sound.

Runs with SDL's dummy video driver and a virtual clock; the referee is pumped from each
frame (``threaded=False``) so every step is deterministic.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from cabinet.display.app import CabinetApp
from cabinet.display.app_settings import AppSettings
from cabinet.display.flow import FlowSettings
from cabinet.display.frame_loop import run_frames
from cabinet.display.games import GameSink
from cabinet.display.lights_output import LightsOutput
from cabinet.display.parts import CabinetParts
from cabinet.drawing.views import GameOverView
from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.controls import Control
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.keyboard import KeyboardInput, KeyMap
from cabinet.inputs.select import Platform
from cabinet.shared.phase import Phase
from cabinet.sound import SoundBoard
from cabinet.storage.store import CabinetStore
from cabinet.table.remote import RemoteTable
from firmware_bridge.lights import Mode
from game.edges import Button
from game.record import replay
from game.record_parts import RecordResult
from game.summary import Seat

FRAME = 16_666_667
T0 = 10**12


@pytest.fixture
def screen() -> Iterator[pygame.Surface]:
    pygame.display.init()
    pygame.font.init()
    yield pygame.display.set_mode((960, 540))
    pygame.display.quit()


def make_app(screen: pygame.Surface, clock: VirtualClock, **kw: object) -> CabinetApp:
    edges = kw.pop("edges", EdgeQueue())
    settings = kw.pop("settings", AppSettings(flow=FlowSettings(join_wait_s=2)))
    parts = CabinetParts(**kw)  # type: ignore[arg-type]  # kw: parts by name
    return CabinetApp(screen, edges, settings, parts, clock=clock, threaded=False, seed=11)


def frames(app: CabinetApp, clock: VirtualClock, seconds: float, step: int = FRAME) -> None:
    end = clock() + int(seconds * 1e9)
    while clock() < end:
        clock.advance(step)
        app.step(clock())


def test_attract_runs_several_virtual_minutes_of_demo_games(screen: pygame.Surface) -> None:
    clock = VirtualClock(T0)
    app = make_app(screen, clock)
    demos = set()
    for _ in range(6):
        frames(app, clock, 60, step=2 * FRAME)
        demos.add(id(app.flow.demo))
        assert app.flow.phase is Phase.ATTRACT
    assert len(demos) >= 2  # demo games end and new ones start
    # The screen shows the demo's table: each player's slots hold their layout cards
    # (a slot being refilled shows empty while its card slides in from the deck).
    game = app.flow.demo.game
    slots = {(i.player, i.index): i.card for i in app.renderer.display_list if i.kind == "slot"}
    assert set(slots) == {(p, s) for p in (0, 1) for s in range(4)}
    shown = {k: card for k, card in slots.items() if card is not None}
    assert len(shown) >= 6
    assert all(card == game.layout(k[0])[k[1]] for k, card in shown.items())


class Players:
    """Two people at one keyboard: each looks at the table and presses keys."""

    def __init__(self, app: CabinetApp) -> None:
        self.app = app
        names = KeyMap.from_names({}).names()  # the default key map
        self.keys = {k: pygame.key.key_code(v) for k, v in names.items()}

    def key(self, player: int, button: Button) -> int:
        return self.keys[Control(player, button).name]

    def tap(self, key: int, clock: VirtualClock) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
        frames(self.app, clock, 0.05)
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=""))
        frames(self.app, clock, 0.05)


def test_two_people_play_a_whole_game_on_the_keyboard(screen: pygame.Surface) -> None:
    clock = VirtualClock(T0)
    edges = EdgeQueue()
    keyboard = KeyboardInput(edges, clock=clock)
    records = GameSink()
    app = make_app(screen, clock, edges=edges, games=records, pump_input=keyboard.pump)
    players = Players(app)
    keyboard.open()
    try:
        frames(app, clock, 1)
        players.tap(players.key(0, Button.SLOT1), clock)
        players.tap(players.key(1, Button.PILE2), clock)
        assert app.flow.phase is Phase.READY
        frames(app, clock, 2)
        assert app.flow.phase is Phase.PLAY
        match = app.flow.match
        assert match is not None
        turn = 0
        while app.flow.phase is Phase.PLAY and clock() < T0 + 3_600 * 10**9:
            plays = [(p, sp) for p in (turn, 1 - turn) for sp in match.game.legal_plays(p)]
            if plays:
                player, (slot, pile) = plays[0]
                players.tap(players.key(player, Button.slot(slot)), clock)
                players.tap(players.key(player, Button.pile(pile)), clock)
                turn = 1 - turn
            else:
                frames(app, clock, 0.5)
        frames(app, clock, 0.2)
    finally:
        keyboard.close()
    assert app.flow.phase is Phase.GAME_OVER
    game = records.games[-1]
    assert game.summary.finished and game.players == (Seat.HUMAN, Seat.HUMAN)
    assert sum(game.summary.plays) > 20
    assert RecordResult.of(replay(game.record).summary()) == RecordResult.of(game.summary)


def test_lights_and_sound_follow_the_game(screen: pygame.Surface) -> None:
    clock = VirtualClock(T0)
    lights = LightsOutput()
    sounds = SoundBoard.silent()
    app = make_app(screen, clock, lights=lights, sounds=sounds)
    frames(app, clock, 0.5)
    assert lights.state["p1_slot1"].mode is Mode.PULSE  # attract invites players
    app.flow.press(0, clock())  # player 1 joins; the CPU joins after 2 s
    frames(app, clock, 2.2)
    assert app.flow.phase is Phase.READY
    assert lights.state["spit"].mode is Mode.BLINK  # "ready… spit!"
    frames(app, clock, 20)
    match = app.flow.match
    assert match is not None
    stuck = [match.game.is_stuck(p) for p in (0, 1)]
    assert (lights.state["stuck1"].mode is Mode.ON) == stuck[0]
    assert (lights.state["stuck2"].mode is Mode.ON) == stuck[1]
    played = [effect.name for effect in sounds.played]
    assert "countdown" in played and "spit" in played and "play" in played


@pytest.mark.skipif(Platform.detect().is_pi, reason="a Pi has a GPIO header")
def test_a_table_that_refuses_to_run_is_shown_and_tried_again_less_and_less(
    screen: pygame.Surface, tmp_path: Path
) -> None:
    """A real table process that cannot open its buttons (``--input gpio`` with no GPIO
    header): the out-of-order screen says why, the table is started again only after 2 s,
    then 4 s (on the cabinet's clock), and those starts are no table restarts for the
    audits."""
    clock = VirtualClock(T0)
    table = RemoteTable(["--input", "gpio"])
    store = CabinetStore.open(tmp_path)
    app = make_app(screen, clock, table=table, store=store)
    app.start()
    try:

        def refused_process() -> int:
            """Frames until the table has refused and its process is gone; its pid."""
            deadline = time.monotonic() + 60
            pid = table.pid
            while table.refused is None or table.process is None or table.process.poll() is None:
                assert time.monotonic() < deadline, "the table never refused"
                table.wait(0.05)
                app.step(clock())
            assert pid is not None
            return pid

        first = refused_process()
        frames(app, clock, 0.1)  # the refusal seen: the screen says why
        assert isinstance(app.last_view, GameOverView)
        shown = [line for side in app.last_view.players for line in side.lines]
        assert any("no GPIO header" in line for line in shown), shown
        frames(app, clock, 1.8)
        assert table.pid == first  # not started again before 2 s
        frames(app, clock, 0.2)
        second = table.pid
        assert second != first
        refused_process()
        frames(app, clock, 3.7)
        assert table.pid == second  # then 4 s
        frames(app, clock, 0.4)
        assert table.pid != second
        assert store.audits.hardware.lifetime.table_restarts == 0
    finally:
        app.stop()
        store.close(clock())


def test_the_first_frame_is_on_the_screen_before_the_card_faces_are_drawn(
    screen: pygame.Surface,
) -> None:
    """A boot's first frame does not wait for all 52 faces: the frame loop draws them in
    the time the first frame leaves, so the frames after it (and play) never do."""
    clock = VirtualClock(T0)
    app = make_app(screen, clock)
    shown: list[tuple[bool, int]] = []
    left = iter(range(3))

    def after_frame(_now: int) -> None:
        shown.append((app.renderer.warmed, app.renderer.art.misses))
        clock.advance(FRAME)

    run_frames(app, lambda: next(left, None) is not None, after_frame)
    (first_warm, first_faces), (second_warm, second_faces), third = shown
    assert not first_warm and second_warm
    assert first_faces < 2 * 53 < second_faces  # the warm drew every face at two sizes
    assert third == (True, second_faces)  # and nothing was drawn twice
