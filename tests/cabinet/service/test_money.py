"""Money at the cabinet, through the mock pins on a virtual clock: coins shown as credits,
a pile button starting a paid game, coins during the service menu credited when it
closes, the Pricing page, *Clear credits*, the meter test and the coin lines in the input
test."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pygame
import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from cabinet.inputs.controls import COIN1
from cabinet.money.outputs import GpioCoinLines
from cabinet.shared.phase import Phase
from cabinet.storage.pricing_settings import FREE_PLAY, MAX_CREDITS, UNITS_PER_CREDIT
from cabinet.storage.store import CabinetStore
from game.edges import Button
from game.units import MS

from .conftest import Cabinet

METER, LOCKOUT = 21, 8


@pytest.fixture
def lines() -> Iterator[GpioCoinLines]:
    factory = MockFactory()
    lines = GpioCoinLines(METER, LOCKOUT, pin_factory=factory)
    yield lines
    lines.close()
    factory.close()


MakeCabinet = Callable[..., Cabinet]


@pytest.fixture
def make_cab(
    screen: pygame.Surface, store: CabinetStore, lines: GpioCoinLines
) -> Iterator[MakeCabinet]:
    """Opens a paid cabinet (with ``settings`` on top: ``make_cab(max_credits=1)``) on the
    mock pins and the coin lines; closed at the end."""
    opened: list[Cabinet] = []

    def make(**settings: object) -> Cabinet:
        store.settings.set(FREE_PLAY, False)
        for name, value in settings.items():
            store.settings.set(name, value)
        store.save_settings()
        cab = Cabinet(screen, store, backend="mock", coin_lines=lines)
        cab.frames(0.1)
        opened.append(cab)
        return cab

    yield make
    for cab in opened:
        cab.close()


@pytest.fixture
def cab(make_cab: MakeCabinet) -> Cabinet:
    return make_cab()


def insert_coin(cab: Cabinet, length_ms: int = 60) -> None:
    """A coin: coin 1's mock pin held low for ``length_ms`` (timed edges), then frames."""
    assert cab.mock is not None
    t = cab.clock()
    cab.mock.press(COIN1, t)
    cab.frames(length_ms / 1000)
    cab.mock.release(COIN1, t + length_ms * MS)
    cab.frames(0.05)


def texts(cab: Cabinet, kind: str) -> list[str]:
    return [i.text or "" for i in cab.app.renderer.display_list if i.kind == kind]


def meter_pin(lines: GpioCoinLines) -> MockPin:
    assert lines.meter_device is not None
    pin = lines.meter_device.pin
    assert isinstance(pin, MockPin)
    return pin


def test_free_play_is_the_default(cabinet: Cabinet) -> None:
    cabinet.frames(0.1)
    assert texts(cabinet, "credits") == ["FREE PLAY"]
    cabinet.p1(Button.SLOT1)  # any button joins
    assert cabinet.app.flow.phase is Phase.JOIN


def test_a_coin_on_the_pins_becomes_a_credit_and_a_pile_button_starts(
    cab: Cabinet, lines: GpioCoinLines
) -> None:
    assert texts(cab, "credits") == ["CREDITS 0 · 1 credit per player"]
    assert lines.accepting
    cab.p1(Button.PILE1)  # no credit: nothing happens
    assert cab.app.flow.phase is Phase.ATTRACT
    cab.frames(1.0)  # past the prompt's blink
    assert "INSERT COIN" in texts(cab, "prompt")
    insert_coin(cab)
    cab.frames(1.0)
    assert texts(cab, "credits") == ["CREDITS 1 · 1 credit per player"]
    assert "Press a pile button to start" in texts(cab, "prompt")
    cab.p1(Button.SLOT1)  # a slot is no start
    assert cab.app.flow.phase is Phase.ATTRACT
    cab.p1(Button.PILE2)
    assert cab.app.flow.phase is Phase.JOIN
    assert cab.money.ledger.credits == 1  # paid when the game starts
    cab.frames(11)  # the CPU joins
    assert cab.app.flow.phase in (Phase.READY, Phase.PLAY)
    assert cab.money.ledger.credits == 0
    assert cab.store.audits.money.current.paid_games == 1


def test_half_credits_show_as_a_fraction(make_cab: MakeCabinet) -> None:
    cab = make_cab(**{UNITS_PER_CREDIT.name: 2})
    insert_coin(cab)
    cab.frames(0.1)
    assert texts(cab, "credits") == ["CREDITS 1/2 · 1 credit per player"]
    insert_coin(cab)
    insert_coin(cab)
    cab.frames(0.1)
    assert texts(cab, "credits") == ["CREDITS 1 1/2 · 1 credit per player"]


def test_a_pulse_too_short_or_too_long_is_a_coin_error(cab: Cabinet) -> None:
    insert_coin(cab, length_ms=10)
    insert_coin(cab, length_ms=400)
    assert cab.money.ledger.credits == 0
    assert cab.store.audits.money.current.coin_errors1 == 2


def test_each_coin_unit_pulses_the_meter_once(cab: Cabinet, lines: GpioCoinLines) -> None:
    pin = meter_pin(lines)
    pin.clear_states()
    insert_coin(cab)
    insert_coin(cab)
    cab.frames(0.5)
    highs = [s for s in pin.states if s.state]
    assert len(highs) == 2
    assert cab.money.ledger.meter_done == 2 and cab.money.ledger.meter_owed == 0


def test_the_lockout_blocks_coins_at_the_maximum(
    make_cab: MakeCabinet, lines: GpioCoinLines
) -> None:
    cab = make_cab(**{MAX_CREDITS.name: 1})
    assert lines.lockout_device is not None and lines.lockout_device.value == 1
    insert_coin(cab)
    assert lines.lockout_device.value == 0


def test_a_coin_during_the_menu_is_counted_and_credited_when_it_closes(cab: Cabinet) -> None:
    cab.test()
    assert cab.app.in_service
    insert_coin(cab)
    assert cab.money.ledger.coins1 == 1 and cab.money.ledger.credits == 0
    cab.choose("Pricing")
    cab.go_to("Coin units per credit")
    cab.p1(Button.SLOT4)  # 2 units a credit, from when the menu closes
    cab.p1(Button.PILE2)
    cab.choose("Save and exit")
    assert not cab.app.in_service
    cab.frames(0.1)
    assert cab.money.ledger.units_held == 1 and cab.money.ledger.credits == 0
    assert texts(cab, "credits") == ["CREDITS 1/2 · 1 credit per player"]


def test_service_credits_and_clearing_them_from_the_pricing_page(cab: Cabinet) -> None:
    cab.service()
    cab.service()
    assert cab.money.ledger.credits == 2
    assert cab.store.audits.money.current.service_credits == 2
    cab.test()
    cab.choose("Pricing")
    assert "Credits now" in cab.labels()
    cab.choose("Clear credits")
    assert cab.shown.title == "Are you sure?" and cab.at_cursor() == "No"
    cab.p1(Button.PILE1)  # No
    assert cab.money.ledger.credits == 2
    cab.choose("Clear credits")
    cab.choose("Yes")
    assert cab.money.ledger.credits == 0
    assert cab.store.audits.money.current.credits_cleared == 2


def test_the_meter_test_pulses_the_meter_once(cab: Cabinet, lines: GpioCoinLines) -> None:
    pin = meter_pin(lines)
    pin.clear_states()
    cab.test()
    cab.choose("Tests")
    cab.choose("Meter test")
    cab.choose("Pulse the meter once")
    cab.frames(0.3)
    assert len([s for s in pin.states if s.state]) == 1
    assert cab.money.ledger.meter_tests == 1 and cab.money.ledger.meter_done == 0
    assert cab.shown.rows[0].value == "1 given · 0 owed"


def test_the_input_test_shows_the_coin_pulse_and_errors(cab: Cabinet) -> None:
    cab.test()
    cab.choose("Tests")
    cab.choose("Input test")
    insert_coin(cab, length_ms=70)
    insert_coin(cab, length_ms=5 + 3)
    row = next(r for r in cab.shown.rows if r.label == "Coin 1")
    assert row.value == "last pulse 8.0 ms · 1 coin · 1 error"
