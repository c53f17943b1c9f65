"""The default pin map for the 40-pin header of a Raspberry Pi 4 or Pi 5.

Player 1's six buttons use the odd column of the header (pins 11-15 and 29-33), player 2's
the even column (pins 12-22, 32 and 36), so each harness stays on one side of the
connector; the operator's controls sit at the bottom (pins 35-38). The UART, I2C, SPI0 and
ID EEPROM GPIOs stay free. Two GPIOs are left over: GPIO4 (pin 7), kept for a coin input,
and GPIO21 (pin 40).

The map uses GPIO18-20, the I2S (PCM) audio pins, so the cabinet's sound goes out over HDMI
or USB rather than an I2S DAC board: a Pi 5 has no analogue audio jack, and with UART, I2C
and SPI kept free the header has too few GPIOs to keep I2S free as well.
"""

from __future__ import annotations

from typing import Final

from wiring.pinmap import Control, Function, PinMap

#: The GPIO kept free for a coin input (physical pin 7).
COIN_GPIO: Final = 4

DEFAULT_PINS: Final[dict[Control, int]] = {
    Control(Function.SLOT1, 0): 17,
    Control(Function.SLOT2, 0): 27,
    Control(Function.SLOT3, 0): 22,
    Control(Function.SLOT4, 0): 5,
    Control(Function.PILE1, 0): 6,
    Control(Function.PILE2, 0): 13,
    Control(Function.SLOT1, 1): 18,
    Control(Function.SLOT2, 1): 23,
    Control(Function.SLOT3, 1): 24,
    Control(Function.SLOT4, 1): 25,
    Control(Function.PILE1, 1): 12,
    Control(Function.PILE2, 1): 16,
    Control(Function.TEST): 19,
    Control(Function.SERVICE): 26,
    Control(Function.DOOR): 20,
}

#: The default map (validated on import).
DEFAULT_PIN_MAP: Final = PinMap.from_pins(DEFAULT_PINS)
