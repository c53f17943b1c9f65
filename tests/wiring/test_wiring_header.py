"""The 40-pin header table against the Raspberry Pi pinout."""

from __future__ import annotations

import pytest

from wiring.header import (
    GROUND_PINS,
    HEADER,
    HEADER_GPIOS,
    PHYSICAL_PIN,
    RESERVED,
    Bus,
    PinKind,
    ground_for,
    physical_pin,
)


def test_forty_pins_numbered_in_order() -> None:
    assert [p.physical for p in HEADER] == list(range(1, 41))


def test_every_bcm_gpio_0_to_27_is_on_exactly_one_pin() -> None:
    gpios = [p.bcm for p in HEADER if p.bcm is not None]
    assert len(gpios) == len([p for p in HEADER if p.kind is PinKind.GPIO])
    assert sorted(gpios) == list(range(28))
    assert tuple(range(28)) == HEADER_GPIOS


def test_ground_and_power_pins() -> None:
    assert GROUND_PINS == (6, 9, 14, 20, 25, 30, 34, 39)
    assert [p.physical for p in HEADER if p.kind is PinKind.POWER_3V3] == [1, 17]
    assert [p.physical for p in HEADER if p.kind is PinKind.POWER_5V] == [2, 4]


@pytest.mark.parametrize(
    ("bcm", "physical"),
    [
        *[(2, 3), (3, 5), (4, 7), (14, 8), (15, 10), (17, 11), (18, 12), (27, 13), (0, 27)],
        *[(1, 28), (5, 29), (6, 31), (12, 32), (13, 33), (19, 35), (16, 36), (26, 37), (20, 38)],
        *[(21, 40), (10, 19), (9, 21), (11, 23), (8, 24), (7, 26), (22, 15), (23, 16), (24, 18)],
        (25, 22),
    ],
)
def test_bcm_to_physical_matches_the_pinout(bcm: int, physical: int) -> None:
    assert physical_pin(bcm) == physical
    assert HEADER[physical - 1].label == f"GPIO{bcm}"


def test_physical_pin_of_a_non_header_number_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        physical_pin(28)


def test_reserved_pins_are_the_buses_kept_free() -> None:
    by_bus = {bus: sorted(r.bcm for r in RESERVED.values() if r.bus is bus) for bus in Bus}
    assert by_bus == {
        Bus.ID_EEPROM: [0, 1],
        Bus.I2C: [2, 3],
        Bus.SPI: [7, 8, 9, 10, 11],
        Bus.UART: [14, 15],
    }
    assert set(RESERVED) <= set(PHYSICAL_PIN)


def test_ground_for_picks_the_nearest_ground_row_then_same_column() -> None:
    assert ground_for([11, 13, 15, 29, 31, 33]) == 25  # rows tie with pin 20; 25 is same column
    assert ground_for([12, 16, 18, 22, 32, 36]) == 20
    assert ground_for([35, 37, 38]) == 39
    assert ground_for([7]) == 9  # pin 6 is as near, but pin 9 shares the odd column
    assert ground_for([1]) == 6
    with pytest.raises(ValueError, match="at least one"):
        ground_for([])
