"""The coin meter and coin lockout lines: two gpiozero outputs, driven active high.

Each drives a transistor that switches a coil (``docs/pricing.md``): the meter's line is
high for each meter pulse; the lockout's line is high while the coin mechanisms may take
coins (coil energised) and low to block them, which is also what a cabinet that is off
does. A line the pin map does not wire is simply not driven.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from gpiozero import DigitalOutputDevice

log = logging.getLogger("spit-cabinet")


class CoinLines(Protocol):
    """Where the keeper's meter pulses and lockout state go."""

    def meter(self, on: bool) -> None: ...

    def accept_coins(self, accept: bool) -> None: ...

    def close(self) -> None: ...


class NoLines:
    """No meter, no lockout wired (or no GPIO at all): the states are only remembered."""

    def __init__(self) -> None:
        self.meter_on = False
        self.accepting = False

    def meter(self, on: bool) -> None:
        self.meter_on = on

    def accept_coins(self, accept: bool) -> None:
        self.accepting = accept

    def close(self) -> None:
        return None


class GpioCoinLines(NoLines):
    """The meter and lockout on GPIOs ``meter_bcm`` and ``lockout_bcm`` (either ``None``:
    not wired), through ``pin_factory`` (gpiozero's; ``None``: its default, lgpio on a Pi;
    a ``MockFactory`` in tests). Both start low: meter off, coins blocked."""

    def __init__(
        self, meter_bcm: int | None, lockout_bcm: int | None, *, pin_factory: Any = None
    ) -> None:
        from gpiozero import DigitalOutputDevice

        super().__init__()
        self.meter_device: DigitalOutputDevice | None = None
        self.lockout_device: DigitalOutputDevice | None = None
        try:
            if meter_bcm is not None:
                self.meter_device = DigitalOutputDevice(
                    meter_bcm, initial_value=False, pin_factory=pin_factory
                )
            if lockout_bcm is not None:
                self.lockout_device = DigitalOutputDevice(
                    lockout_bcm, initial_value=False, pin_factory=pin_factory
                )
        except BaseException:
            self.close()
            raise

    def meter(self, on: bool) -> None:
        super().meter(on)
        if self.meter_device is not None:
            self.meter_device.value = on

    def accept_coins(self, accept: bool) -> None:
        super().accept_coins(accept)
        if self.lockout_device is not None:
            self.lockout_device.value = accept

    def close(self) -> None:
        for device in (self.meter_device, self.lockout_device):
            if device is not None:
                device.close()
        self.meter_device = self.lockout_device = None
