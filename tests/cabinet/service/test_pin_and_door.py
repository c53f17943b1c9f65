"""The operator PIN (digits on player 1's buttons, lockout after three wrong ones) and the
door switch (the menu needs the door open)."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory

from cabinet.inputs.door import DoorSwitch
from cabinet.service.pin import PinGate, PinResult
from cabinet.storage.setting_table import OPERATOR_PIN
from game.edges import Button
from tests.cabinet.service.conftest import Cabinet, S

DIGIT_BUTTONS = {
    "1": Button.SLOT1,
    "2": Button.SLOT2,
    "3": Button.SLOT3,
    "4": Button.SLOT4,
    "5": Button.PILE1,
    "6": Button.PILE2,
}


def key_pin(cab: Cabinet, digits: str) -> None:
    for digit in digits:
        cab.p1(DIGIT_BUTTONS[digit])


def test_the_gate_locks_after_three_wrong_pins_for_a_minute() -> None:
    gate = PinGate()
    t = 0
    for _ in range(2):
        assert [gate.key(d, "1256", t) for d in "1111"][-1] is PinResult.WRONG
    assert gate.tries_left == 1
    assert [gate.key(d, "1256", t) for d in "2222"][-1] is PinResult.WRONG
    assert gate.locked_s(t) == 60
    assert gate.key("1", "1256", t + 59 * S) is PinResult.LOCKED
    assert gate.locked_s(t + 59 * S + 1) == 1
    results = [gate.key(d, "1256", t + 60 * S) for d in "1256"]
    assert results == [PinResult.MORE] * 3 + [PinResult.RIGHT]
    assert gate.tries_left == 3


def test_a_pin_keyed_on_player_one_buttons_opens_the_menu(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.store.settings.set(OPERATOR_PIN, "5612")
    cab.test()
    assert cab.shown.title == "Operator PIN"
    key_pin(cab, "56")
    assert cab.shown.rows[0].value == "●●"  # the digits are not shown
    key_pin(cab, "12")
    assert cab.shown.title == "Service menu"


def test_three_wrong_pins_lock_the_menu_on_the_virtual_clock(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.store.settings.set(OPERATOR_PIN, "5612")
    cab.test()
    key_pin(cab, "1111")
    assert cab.shown.notice == "Wrong PIN: 2 tries left"
    key_pin(cab, "1112")
    key_pin(cab, "1113")
    assert cab.shown.notice.startswith("Too many wrong PINs: try again in 6")
    key_pin(cab, "5612")  # the right PIN, but locked
    assert cab.shown.title == "Operator PIN"
    cab.service()  # SERVICE: give up, back to the game
    assert not cab.app.in_service
    cab.frames(60)
    cab.test()
    key_pin(cab, "5612")
    assert cab.shown.title == "Service menu"


def test_test_clears_keyed_digits(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.store.settings.set(OPERATOR_PIN, "1234")
    cab.test()
    key_pin(cab, "12")
    cab.test()
    assert cab.shown.rows[0].value == "–"
    key_pin(cab, "1234")
    assert cab.shown.title == "Service menu"


def test_the_door_switch_reads_open_when_the_line_is_high() -> None:
    factory = MockFactory()
    door = DoorSwitch(20, pin_factory=factory)
    pin = factory.pin(20)
    assert door.is_open()  # pulled up: open door (or a broken wire)
    pin.drive_low()  # the shut door closes the switch to ground
    assert not door.is_open()
    door.close()
    factory.close()


def test_the_menu_needs_the_door_open_and_closes_with_it(mock_cabinet: Cabinet) -> None:
    cab = mock_cabinet
    assert cab.mock is not None
    door = DoorSwitch(20, pin_factory=cab.mock.pin_factory)
    service = cab.app.service
    assert service is not None
    service.door_open = door
    line = cab.mock.pin_factory.pin(20)
    line.drive_low()  # door shut
    cab.test()
    assert not cab.app.in_service
    line.drive_high()  # door open
    cab.test()
    assert cab.app.in_service
    line.drive_low()  # shut again: the menu closes, saving
    cab.frames(0.05)
    assert not cab.app.in_service
    door.close()


def test_removing_the_pin_asks_first_with_no_preselected(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.store.settings.set(OPERATOR_PIN, "5612")
    cab.test()
    key_pin(cab, "5612")
    cab.choose("Cabinet settings")
    cab.choose("Operator PIN")  # the PIN editor: nothing keyed yet
    cab.test()  # TEST with nothing keyed would remove the PIN: it asks
    assert cab.shown.title == "Are you sure?"
    cab.test()  # TEST at once: the cursor is on No
    assert cab.store.settings.get(OPERATOR_PIN) == "5612"
    cab.test()  # back in the editor; TEST again, then Yes
    cab.choose("Yes")
    assert cab.store.settings.get(OPERATOR_PIN) == ""
