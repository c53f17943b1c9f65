"""Shared fixtures for the service menu tests: a headless cabinet with a store on a
temporary data directory, a virtual clock, and fingers on the keyboard or the mock pins.

Frames are stepped by hand (``threaded=False``), so every press is taken in the frame
after it and nothing waits on real time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from cabinet.display.app import CabinetApp
from cabinet.display.app_settings import AppSettings
from cabinet.display.games import StoredGames
from cabinet.display.lights_output import LightsOutput
from cabinet.display.parts import CabinetParts
from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.controls import SERVICE, TEST, Control
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.keyboard import KeyboardInput, default_keymap
from cabinet.inputs.mock import MockInput
from cabinet.money.keeper import MoneyKeeper
from cabinet.service.screen import MenuScreen
from cabinet.sound import SoundBoard
from cabinet.storage.store import CabinetStore
from game.edges import Button
from game.units import S

FRAME = 16_666_667
T0 = 10**12


@pytest.fixture
def screen() -> Iterator[pygame.Surface]:
    pygame.display.init()
    pygame.font.init()
    yield pygame.display.set_mode((960, 540))
    pygame.display.quit()


class Cabinet:
    """A headless cabinet with its store, on a virtual clock, and a way to press."""

    def __init__(
        self, screen: pygame.Surface, store: CabinetStore, backend: str = "keyboard", **kw: Any
    ) -> None:
        self.clock = VirtualClock(T0)
        self.store = store
        self.edges = EdgeQueue()
        self.backend_name = backend
        self.keyboard: KeyboardInput | None = None
        self.mock: MockInput | None = None
        pump = None
        if backend == "keyboard":
            self.keyboard = KeyboardInput(self.edges, clock=self.clock)
            self.keyboard.open()
            pump = self.keyboard.pump
            self.backend = self.keyboard
            self.keys = {c: k for k, c in default_keymap()._by_key.items()}
        else:
            self.mock = MockInput(self.edges, clock=self.clock)
            self.mock.open()
            self.backend = self.mock
        settings = AppSettings.from_stored(store.settings)
        self.sounds = SoundBoard.silent()
        self.lights = LightsOutput()
        self.app = CabinetApp(
            screen,
            self.edges,
            settings,
            CabinetParts(
                pump_input=pump,
                store=store,
                games=StoredGames(store),
                sounds=self.sounds,
                lights=self.lights,
                input_backend=self.backend,
                **kw,
            ),
            clock=self.clock,
            threaded=False,
            seed=7,
        )

    @property
    def money(self) -> MoneyKeeper:
        assert self.app.money is not None
        return self.app.money

    def close(self) -> None:
        self.backend.close()

    def frames(self, seconds: float) -> None:
        end = self.clock() + int(seconds * S)
        while self.clock() < end:
            self.clock.advance(FRAME)
            self.app.step(self.clock())

    def down(self, control: Control) -> None:
        if self.keyboard is not None:
            event = pygame.event.Event(pygame.KEYDOWN, key=self.keys[control], mod=0, unicode="")
            pygame.event.post(event)
        else:
            assert self.mock is not None
            self.mock.press(control, self.clock())

    def up(self, control: Control) -> None:
        if self.keyboard is not None:
            event = pygame.event.Event(pygame.KEYUP, key=self.keys[control], mod=0, unicode="")
            pygame.event.post(event)
        else:
            assert self.mock is not None
            self.mock.release(control, self.clock())

    def tap(self, control: Control) -> None:
        """Press and release (50 ms each way), frames running."""
        self.down(control)
        self.frames(0.05)
        self.up(control)
        self.frames(0.05)

    def test(self) -> None:
        self.tap(TEST)

    def service(self) -> None:
        self.tap(SERVICE)

    def p1(self, button: Button) -> None:
        self.tap(Control(0, button))

    @property
    def shown(self) -> MenuScreen:
        service = self.app.service
        assert service is not None and service.is_open, "the service menu is not open"
        return service.screen(self.clock())

    def labels(self) -> list[str]:
        return [row.label for row in self.shown.rows]

    def at_cursor(self) -> str:
        shown = self.shown
        assert shown.cursor is not None
        return shown.rows[shown.cursor].label

    def go_to(self, label: str, *, by: str = "buttons") -> None:
        """Move the cursor to the row labelled ``label`` (slot 2 down, or SERVICE)."""
        for _ in range(len(self.shown.rows) + 1):
            if self.at_cursor() == label:
                return
            if by == "service":
                self.service()
            else:
                self.p1(Button.SLOT2)
        raise AssertionError(f"no row {label!r} on {self.shown.title!r}: {self.labels()}")

    def choose(self, label: str, *, by: str = "buttons") -> None:
        self.go_to(label, by=by)
        if by == "service":
            self.test()
        else:
            self.p1(Button.PILE1)


@pytest.fixture
def cabinet(screen: pygame.Surface, store: CabinetStore) -> Iterator[Cabinet]:
    cab = Cabinet(screen, store)
    cab.frames(0.1)
    yield cab
    cab.close()


@pytest.fixture
def mock_cabinet(screen: pygame.Surface, store: CabinetStore) -> Iterator[Cabinet]:
    cab = Cabinet(screen, store, backend="mock")
    cab.frames(0.1)
    yield cab
    cab.close()
