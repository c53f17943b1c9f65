"""Fixtures for the sound tests: pygame's mixer opened on a chosen SDL audio driver."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pygame
import pytest


def wait_until(condition: Callable[[], bool], timeout_s: float = 5.0) -> bool:
    """Poll ``condition`` until it holds or ``timeout_s`` passes; returns whether it held.
    For waiting on SDL's audio thread, which runs in real time."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture
def audio_driver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Call with an SDL audio driver name ("dummy", "disk", or one that does not exist)
    before opening a board; the mixer is closed before and after the test."""
    pygame.mixer.quit()

    def use(driver: str) -> None:
        monkeypatch.setenv("SDL_AUDIODRIVER", driver)

    yield use
    pygame.mixer.quit()
