"""The Raspberry Pi's 40-pin header (Pi 4 and Pi 5): which physical pin carries what.

Physical pins are numbered 1 to 40: odd numbers in the column nearer the board's centre,
even numbers on the edge; pin 1 (3.3 V) has the square pad. GPIOs are named by their BCM
number (``GPIO17``), as gpiozero names them; BCM GPIO 0 to 27 are on the header.

Some GPIOs carry buses the cabinet keeps free (:data:`RESERVED`): the ID EEPROM a HAT uses
(GPIO0/1), I2C1 (GPIO2/3, which also have fixed 1.8 kΩ pull-ups), SPI0 (GPIO7-11) and the
UART (GPIO14/15, the serial console).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final


class PinKind(enum.Enum):
    """What a header pin carries."""

    GPIO = "gpio"
    GROUND = "ground"
    POWER_3V3 = "3v3"
    POWER_5V = "5v"


@dataclass(frozen=True, slots=True)
class HeaderPin:
    """One pin of the 40-pin header: its physical number (1-40), kind and BCM GPIO number."""

    physical: int
    kind: PinKind
    bcm: int | None = None
    """The BCM GPIO number for a GPIO pin, ``None`` for ground and power."""

    @property
    def label(self) -> str:
        """How the pin is printed on pinout charts: ``GPIO17``, ``GND``, ``3V3`` or ``5V``."""
        if self.bcm is not None:
            return f"GPIO{self.bcm}"
        return {PinKind.GROUND: "GND", PinKind.POWER_3V3: "3V3", PinKind.POWER_5V: "5V"}[self.kind]


_KINDS: Final = {"GND": PinKind.GROUND, "3V3": PinKind.POWER_3V3, "5V": PinKind.POWER_5V}

#: The header row by row, as pinout charts draw it: (odd pin, even pin), from pin 1 and 2.
#: A number is a BCM GPIO.
_ROWS: Final[tuple[tuple[int | str, int | str], ...]] = (
    ("3V3", "5V"),
    (2, "5V"),
    (3, "GND"),
    (4, 14),
    ("GND", 15),
    (17, 18),
    (27, "GND"),
    (22, 23),
    ("3V3", 24),
    (10, "GND"),
    (9, 25),
    (11, 8),
    ("GND", 7),
    (0, 1),
    (5, "GND"),
    (6, 12),
    (13, "GND"),
    (19, 16),
    (26, 20),
    ("GND", 21),
)


def _pin(physical: int, what: int | str) -> HeaderPin:
    if isinstance(what, int):
        return HeaderPin(physical, PinKind.GPIO, what)
    return HeaderPin(physical, _KINDS[what])


#: The header, physical pin 1 to 40 (index ``physical - 1``).
HEADER: Final[tuple[HeaderPin, ...]] = tuple(
    _pin(physical, what)
    for physical, what in enumerate((what for row in _ROWS for what in row), start=1)
)

#: BCM GPIO number -> physical header pin.
PHYSICAL_PIN: Final[dict[int, int]] = {p.bcm: p.physical for p in HEADER if p.bcm is not None}

#: The BCM GPIO numbers on the header, ascending (0 to 27).
HEADER_GPIOS: Final[tuple[int, ...]] = tuple(sorted(PHYSICAL_PIN))

#: The physical pins that are ground, ascending.
GROUND_PINS: Final[tuple[int, ...]] = tuple(p.physical for p in HEADER if p.kind is PinKind.GROUND)


class Bus(enum.Enum):
    """A bus or boot function whose pins the cabinet keeps free."""

    ID_EEPROM = "ID EEPROM"
    I2C = "I2C1"
    SPI = "SPI0"
    UART = "UART"


@dataclass(frozen=True, slots=True)
class ReservedPin:
    """A GPIO kept free for a bus: which bus and which of its signals."""

    bcm: int
    bus: Bus
    signal: str

    @property
    def description(self) -> str:
        """E.g. ``UART TXD (serial console)``."""
        return f"{self.bus.value} {self.signal}"


#: Reserved GPIOs by BCM number. A map may use one only if its config lists it in
#: ``allow_reserved``.
RESERVED: Final[dict[int, ReservedPin]] = {
    r.bcm: r
    for r in (
        ReservedPin(0, Bus.ID_EEPROM, "ID_SD (HAT identification, read at boot)"),
        ReservedPin(1, Bus.ID_EEPROM, "ID_SC (HAT identification, read at boot)"),
        ReservedPin(2, Bus.I2C, "SDA (fixed 1.8 kΩ pull-up)"),
        ReservedPin(3, Bus.I2C, "SCL (fixed 1.8 kΩ pull-up)"),
        ReservedPin(7, Bus.SPI, "CE1"),
        ReservedPin(8, Bus.SPI, "CE0"),
        ReservedPin(9, Bus.SPI, "MISO"),
        ReservedPin(10, Bus.SPI, "MOSI"),
        ReservedPin(11, Bus.SPI, "SCLK"),
        ReservedPin(14, Bus.UART, "TXD (serial console)"),
        ReservedPin(15, Bus.UART, "RXD (serial console)"),
    )
}


def physical_pin(bcm: int) -> int:
    """The physical header pin (1-40) of BCM GPIO ``bcm``.

    Raises :class:`KeyError` for a number that is not a header GPIO; validate first with
    :func:`wiring.pinmap.check_pin` for a friendly error.
    """
    return PHYSICAL_PIN[bcm]


def ground_for(physicals: tuple[int, ...] | list[int]) -> int:
    """The ground pin (physical number) closest, in header rows, to the given pins overall:
    where a harness that joins those buttons' COM terminals should take its ground.

    Ties go to the pin in the same column as more of them, then to the pin nearer pin 1.
    Raises :class:`ValueError` for an empty list.
    """
    if not physicals:
        raise ValueError("ground_for needs at least one physical pin")

    def row(physical: int) -> int:
        return (physical + 1) // 2

    def cost(g: int) -> tuple[int, int, int]:
        rows = sum(abs(row(g) - row(p)) for p in physicals)
        other_column = sum(1 for p in physicals if p % 2 != g % 2)
        return (rows, other_column, g)

    return min(GROUND_PINS, key=cost)
