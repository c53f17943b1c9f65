"""Shared fixtures for the storage tests: a data directory, a wall clock the test moves,
and real simulated games."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cabinet.storage.store import CabinetStore
from game.bots import level
from game.cpu_match import CpuGame, play_cpu_game
from tests.cabinet.clocks import WallClock

# The key map setting loads pygame to check key names; keep its greeting out of outputs.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture
def wall_clock() -> WallClock:
    return WallClock()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def open_store(data_dir: Path, wall_clock: WallClock) -> Iterator[Callable[[], CabinetStore]]:
    """Opens the store on the test's data directory (again and again: a reboot); every
    store opened is closed at the end."""
    opened: list[CabinetStore] = []

    def opener() -> CabinetStore:
        store = CabinetStore.open(data_dir, wall_clock=wall_clock)
        opened.append(store)
        return store

    yield opener
    for store in opened:
        store.db.close()


@pytest.fixture
def store(open_store: Callable[[], CabinetStore]) -> CabinetStore:
    return open_store()


_GAMES: dict[int, CpuGame] = {}


def cpu_game(seed: int) -> CpuGame:
    """A real CPU-vs-CPU game (levels 3 and 4), played once per seed per session."""
    if seed not in _GAMES:
        _GAMES[seed] = play_cpu_game(seed, (level(3), level(4)))
    return _GAMES[seed]
