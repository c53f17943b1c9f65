"""The safe moment to install a release the fleet offered (docs/releases.md, "Rollouts"):
attract, the service menu closed, no credits, and the door known shut, or no door switch
at all (a cabinet without one would otherwise never install)."""

from __future__ import annotations

import pygame

from cabinet.display.assembly import door_shut_from
from cabinet.shared.phase import Phase
from cabinet.storage.store import CabinetStore
from cabinet.table.messages import Health
from cabinet.table.remote import RemoteTable
from game.edges import Button
from tests.cabinet.service.conftest import Cabinet


def test_attract_with_the_door_shut_is_safe_and_an_open_door_is_not(
    screen: pygame.Surface, store: CabinetStore
) -> None:
    door = {"shut": True}
    cab = Cabinet(screen, store, door_shut=lambda: door["shut"])
    try:
        cab.frames(0.1)
        assert cab.app.flow.phase is Phase.ATTRACT and cab.app.safe_to_install()
        door["shut"] = False
        assert not cab.app.safe_to_install()
    finally:
        cab.close()


def test_a_game_or_the_menu_is_never_a_safe_moment(cabinet: Cabinet) -> None:
    assert cabinet.app.safe_to_install()  # no switch given: the door is not in the way
    cabinet.p1(Button.SLOT1)  # free play: a player joins
    assert cabinet.app.flow.phase is Phase.JOIN and not cabinet.app.safe_to_install()


def test_the_service_menu_open_is_no_safe_moment(cabinet: Cabinet) -> None:
    cabinet.test()
    cabinet.frames(0.1)
    assert cabinet.app.host.is_open and not cabinet.app.safe_to_install()


def test_the_door_is_shut_for_installs_once_the_table_said_so_or_has_no_switch() -> None:
    table = RemoteTable(["--input", "mock"])
    shut = door_shut_from(table)
    assert not shut()  # no report yet: not known
    for door_open, expected in ((True, False), (False, True), (None, True)):
        table._take(Health((), door_open, None), [])
        assert shut() is expected, door_open
