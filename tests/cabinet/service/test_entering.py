"""TEST from anywhere: a running game is abandoned and recorded so, the referee gets no
game, the lights show the service pattern."""

from __future__ import annotations

from cabinet.flow import Phase
from cabinet.storage.audits import Seat
from firmware_bridge.lights import Mode
from game.edges import Button
from tests.cabinet.service.conftest import Cabinet


def test_entering_from_a_running_game_records_it_abandoned(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.p1(Button.SLOT1)  # player 1 joins
    cab.tap((1, Button.PILE2))  # player 2 joins
    cab.frames(2)
    assert cab.app.flow.phase is Phase.PLAY
    match = cab.app.flow.match
    cab.test()
    assert cab.app.in_service
    assert cab.app.feed._target is None
    games = cab.store.records.recent()
    assert len(games) == 1
    assert games[0].termination == "abandoned"
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
    cab.tap((1, Button.SLOT1))
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
