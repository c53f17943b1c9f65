"""Fixtures for the sound tests: pygame's mixer opened on a chosen SDL audio driver."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pygame
import pytest


def wait_for_event(kind: int, timeout_s: float) -> bool:
    """Block on pygame's event queue until an event of ``kind`` arrives (SDL's audio
    thread posts it), or ``timeout_s`` passes; returns whether it came."""
    deadline = time.monotonic() + timeout_s
    while (left_ms := int((deadline - time.monotonic()) * 1000)) > 0:
        if pygame.event.wait(left_ms).type == kind:
            return True
    return False


@pytest.fixture
def audio_driver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Call with an SDL audio driver name ("dummy", "disk", or one that does not exist)
    before opening a board; the mixer is closed before and after the test."""
    pygame.mixer.quit()

    def use(driver: str) -> None:
        monkeypatch.setenv("SDL_AUDIODRIVER", driver)

    yield use
    pygame.mixer.quit()
