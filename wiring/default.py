"""The default pin map for the 40-pin header of a Raspberry Pi 4 or Pi 5.

Player 1's six buttons use the odd column of the header (pins 11-15 and 29-33), player 2's
the even column (pins 12-22, 32 and 36), so each harness stays on one side of the
connector; the operator's buttons and door switch sit at the bottom (pins 35-38). Coin
mechanism 1 takes GPIO4 (pin 7) and the coin meter GPIO21 (pin 40), the last two spare
GPIOs: with the UART, I2C, SPI0 and ID EEPROM GPIOs kept free, none is left over.

So coin mechanism 2 and the coin lockout are not wired by default. A cabinet that has them
moves them onto SPI0 pins, a bus this cabinet does not use, in the installer's override
file (:mod:`wiring.config`): coin 2 on GPIO7 (pin 26), the lockout on GPIO8 (pin 24)::

    # SPI0's CE1 and CE0 carry coin 2 and the lockout: the cabinet has no SPI device.
    allow_reserved = [7, 8]

    [operator]
    coin2 = 7
    lockout = 8

GPIO7 and GPIO8 are pulled high while the Pi boots, so the lockout driver needs its own
pull-down (docs/wiring.md).

The map uses GPIO18-21, the I2S (PCM) audio pins, so the cabinet's sound goes out over HDMI
or USB rather than an I2S DAC board: a Pi 5 has no analogue audio jack, and with UART, I2C
and SPI kept free the header has too few GPIOs to keep I2S free as well.
"""

from __future__ import annotations

from typing import Final

from wiring.pinmap import Control, Function, PinMap

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
    Control(Function.COIN1): 4,
    Control(Function.METER): 21,
}

#: The default map (validated on import).
DEFAULT_PIN_MAP: Final = PinMap.from_pins(DEFAULT_PINS)
