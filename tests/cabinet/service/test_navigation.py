"""Moving through the menu: on the keyboard, on the mock (gpiozero) pins, with TEST and
SERVICE alone; a help line on every page; confirm prompts that start on No."""

from __future__ import annotations

import pytest

from cabinet.storage.setting_table import SPIT_DELAY_MS, VOLUME
from game.edges import Button
from tests.cabinet.service.conftest import Cabinet


@pytest.mark.parametrize("fixture", ["cabinet", "mock_cabinet"])
def test_player_one_buttons_move_change_and_leave(
    fixture: str, request: pytest.FixtureRequest
) -> None:
    cab: Cabinet = request.getfixturevalue(fixture)
    cab.test()
    assert cab.shown.title == "Service menu"
    assert cab.labels()[-1] == "Save and exit"
    cab.choose("Game settings")
    assert cab.shown.title == "Game settings"
    assert cab.at_cursor() == "Spit countdown"
    cab.p1(Button.SLOT4)  # more
    cab.p1(Button.SLOT4)
    cab.p1(Button.SLOT3)  # less
    assert cab.shown.rows[0].value == "1600 ms"
    assert cab.store.settings.get(SPIT_DELAY_MS) == 1600
    cab.p1(Button.SLOT1)  # up wraps to the last row: Back
    assert cab.at_cursor() == "Back"
    cab.p1(Button.PILE2)  # back
    assert cab.shown.title == "Service menu"
    cab.p1(Button.PILE2)  # back from the first page: save and leave
    assert not cab.app.in_service
    assert cab.app.flow.settings.rules.spit_delay_ms == 1600


def test_test_and_service_alone_reach_every_page(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.test()
    cab.choose("Cabinet settings", by="service")
    cab.go_to("Volume", by="service")
    cab.test()  # TEST on a setting steps it on
    assert cab.store.settings.get(VOLUME) == 85
    cab.go_to("Back", by="service")
    cab.test()
    cab.choose("Tests", by="service")
    assert cab.shown.title == "Tests"
    cab.choose("Back", by="service")
    cab.choose("Save and exit", by="service")
    assert not cab.app.in_service
    assert cab.app.sounds.volume_percent == 85


def test_every_page_shows_a_help_line(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.test()
    seen = set()
    for item in cab.labels()[:-2]:  # all but factory reset and exit
        cab.choose(item)
        assert cab.shown.help, cab.shown.title
        seen.add(cab.shown.title)
        if cab.shown.title == "Tests":
            for test in cab.labels()[:-1]:
                cab.choose(test)
                assert cab.shown.help, test
                cab.test() if test in ("Input test", "Race tester") else cab.p1(Button.PILE2)
                assert cab.shown.title == "Tests", test
        cab.p1(Button.PILE2)
    assert len(seen) == 8  # with Pricing, Hall of fame and Fleet


def test_confirm_starts_on_no(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.store.settings.set(VOLUME, 40)
    cab.test()
    cab.choose("Factory reset")
    assert cab.shown.title == "Are you sure?"
    assert cab.at_cursor() == "No"
    cab.p1(Button.PILE1)  # select at once: No
    assert cab.shown.title == "Service menu"
    assert cab.store.settings.get(VOLUME) == 40
    cab.choose("Factory reset")
    cab.test()  # TEST at once: still No
    assert cab.store.settings.get(VOLUME) == 40
    cab.choose("Factory reset")
    cab.p1(Button.PILE2)  # back is No too
    assert cab.store.settings.get(VOLUME) == 40


def test_a_language_change_shows_at_once_in_the_menu(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.test()
    cab.choose("Game settings")
    cab.go_to("Language")
    cab.p1(Button.SLOT4)
    assert cab.shown.title == "Impostazioni di gioco"
    assert cab.shown.help.startswith("Slot")  # still on player 1's buttons
