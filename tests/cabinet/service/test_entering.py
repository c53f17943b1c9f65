"""TEST from anywhere: a running game is abandoned and recorded so, the referee gets no
game, the lights show the service pattern."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from cabinet.inputs.controls import Control
from cabinet.shared.phase import Phase
from cabinet.storage.audits import Seat
from cabinet.storage.problems import StorageError
from cabinet.storage.store import CabinetStore
from firmware_bridge.lights import Mode
from game.edges import Button
from game.events import Termination
from tests.cabinet.service.conftest import Cabinet


def test_entering_from_a_running_game_records_it_abandoned(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.p1(Button.SLOT1)  # player 1 joins
    cab.tap(Control(1, Button.PILE2))  # player 2 joins
    cab.frames(2)
    assert cab.app.flow.phase is Phase.PLAY
    match = cab.app.flow.match
    cab.test()
    assert cab.app.in_service
    assert cab.app.table.feed._target is None
    games = cab.store.records.recent()
    assert len(games) == 1
    assert games[0].termination is Termination.ABANDONED
    assert games[0].seats == (Seat.HUMAN, Seat.HUMAN)
    assert cab.store.audits.games.current.abandoned == 1
    record = cab.store.records.record(games[0].id)
    assert record is not None and record.result is not None
    assert match is not None and match.over
    # the lights: player 1's buttons drive the menu, SPIT pulses amber
    assert cab.lights.state["p1_pile1"].mode is Mode.ON
    assert cab.lights.state["spit"].mode is Mode.PULSE
    assert cab.lights.state["p2_slot1"].mode is Mode.OFF
    # player 2's buttons do nothing in the menu; no game starts
    cab.tap(Control(1, Button.SLOT1))
    assert cab.app.in_service and cab.shown.title == "Service menu"
    cab.choose("Save and exit")
    assert cab.app.flow.phase is Phase.ATTRACT
    assert len(cab.store.records.recent()) == 1


def test_entering_from_attract_records_nothing(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.test()
    assert cab.app.in_service
    assert cab.store.records.count() == 0
    cab.p1(Button.PILE2)
    assert not cab.app.in_service and cab.app.flow.phase is Phase.ATTRACT


def test_a_failing_page_closes_the_menu_and_the_cabinet_plays_on(
    cabinet: Cabinet, monkeypatch: pytest.MonkeyPatch
) -> None:
    cab = cabinet
    cab.test()
    assert cab.app.in_service

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in a page")

    monkeypatch.setattr(cab.app.service.page, "key", broken)  # type: ignore[union-attr]
    cab.p1(Button.SLOT2)  # any key reaches the broken page
    cab.frames(0.5)
    assert not cab.app.in_service
    assert cab.app.flow.phase is Phase.ATTRACT  # back to attract, frames still drawn


def test_a_storage_failure_on_leaving_the_menu_still_applies_the_settings(
    cabinet: Cabinet, monkeypatch: pytest.MonkeyPatch
) -> None:
    cab = cabinet
    cab.test()

    def full_card(*args: object, **kwargs: object) -> None:
        raise StorageError("disk full")

    monkeypatch.setattr(cab.store, "save", full_card)
    cab.store.settings.set("volume", 30)
    cab.choose("Save and exit")
    assert not cab.app.in_service
    assert cab.app.settings.volume_percent == 30
    cab.frames(0.5)


def test_a_database_moved_aside_is_reported_in_attract_until_the_menu_is_opened(
    screen: pygame.Surface, data_dir: Path
) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "cabinet.sqlite3").write_bytes(b"not a database at all " * 200)
    store = CabinetStore.open(data_dir)
    cab = Cabinet(screen, store)
    try:

        def howto() -> str:  # the card's text, wrapped over several lines
            return " ".join(
                i.text or "" for i in cab.app.renderer.display_list if i.kind == "howto"
            )

        shown = []
        for _ in range(8):  # the notice takes every other how-to card
            cab.frames(3)
            shown.append(howto())
        assert any(t.startswith("Operator:") and "moved aside" in t for t in shown)
        assert any("slot button" in t for t in shown)  # the how-to cards still show
        cab.test()
        cab.choose("Save and exit")
        after = []
        for _ in range(8):
            cab.frames(3)
            after.append(howto())
        assert not any("moved aside" in t for t in after)
    finally:
        cab.close()
        store.close()
