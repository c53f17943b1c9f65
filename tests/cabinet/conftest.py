"""Fixtures shared by the cabinet's test folders: a data directory and its store."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cabinet.storage.store import CabinetStore
from tests.cabinet.clocks import WallClock


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
