"""What can be wrong with a pin map or its config file: one :class:`ValueError` subclass each.

Every error says what is wrong in words an installer understands. An error found in a
config file also says where (:attr:`WiringError.source` and :attr:`WiringError.line`), and
``str(error)`` starts with that place: ``cabinet.toml line 4: GPIO40 is not ...``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Self

    from wiring.pinmap import Control


class WiringError(ValueError):
    """A pin map, or the config file that overrides one, is wrong.

    ``reason`` is the message without the place; ``source`` (a file name) and ``line``
    (1-based) say where, when the error comes from a file.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.source: str | None = None
        self.line: int | None = None

    def located(self, source: str | None, line: int | None = None) -> Self:
        """This error, placed in ``source`` at ``line``; returns ``self`` for ``raise``."""
        self.source = source
        self.line = line
        return self

    def __str__(self) -> str:
        if self.source is None and self.line is None:
            return self.reason
        where = self.source if self.source is not None else "config"
        if self.line is not None:
            where += f" line {self.line}"
        return f"{where}: {self.reason}"


class PinUsedTwiceError(WiringError):
    """Two controls (buttons, switches, coin lines) are wired to the same GPIO."""

    def __init__(
        self,
        bcm: int,
        first: Control,
        second: Control,
        *,
        first_origin: str | None = None,
        second_origin: str | None = None,
        free: Iterable[int] = (),
    ) -> None:
        self.bcm = bcm
        self.first = first
        self.second = second
        spare = ", ".join(f"GPIO{b}" for b in free)

        def named(control: Control, origin: str | None) -> str:
            return control.label if origin is None else f"{control.label} ({origin})"

        super().__init__(
            f"GPIO{bcm} is used twice: for {named(first, first_origin)} and for "
            f"{named(second, second_origin)}; each needs a GPIO of its own"
            + (f" (free: {spare})" if spare else "")
        )


class NotAHeaderGpioError(WiringError):
    """A number that is not the BCM number of a GPIO on the 40-pin header (0 to 27)."""

    def __init__(self, value: object, control: Control | None = None, hint: str = "") -> None:
        self.value = value
        self.control = control
        what = f" for {control.label}" if control is not None else ""
        super().__init__(
            f"{value!r}{what} is not a GPIO of the 40-pin header: give its BCM number, "
            f"0 to 27 (the number after 'GPIO' on a pinout chart){hint}"
        )


class ReservedPinError(WiringError):
    """A reserved GPIO (UART, I2C, SPI0, ID EEPROM) used without ``allow_reserved``."""

    def __init__(self, bcm: int, control: Control, description: str) -> None:
        self.bcm = bcm
        self.control = control
        super().__init__(
            f"GPIO{bcm} for {control.label} is reserved for {description}; pick a free GPIO, "
            f"or, if that bus is unused in this cabinet, list {bcm} in allow_reserved"
        )


class NotAReservedPinError(WiringError):
    """``allow_reserved`` lists a GPIO that is not reserved (so it needs no allowing)."""

    def __init__(self, bcm: int, reserved: Iterable[int]) -> None:
        self.bcm = bcm
        listed = ", ".join(str(b) for b in sorted(reserved))
        super().__init__(
            f"allow_reserved lists {bcm}, which is not a reserved GPIO (those are {listed}); "
            f"GPIO{bcm} can be used without allowing it, so remove it from the list"
        )


class MissingButtonError(WiringError):
    """A required control (a player's button, TEST or SERVICE) has no GPIO."""

    def __init__(self, missing: Iterable[Control]) -> None:
        self.missing = tuple(missing)
        names = ", ".join(c.label for c in self.missing)
        super().__init__(f"no GPIO given for {names}; every button needs one")


class DuplicateControlError(WiringError):
    """The same control is given more than one GPIO."""

    def __init__(self, control: Control, bcms: Iterable[int]) -> None:
        self.control = control
        self.bcms = tuple(bcms)
        pins = " and ".join(f"GPIO{b}" for b in self.bcms)
        super().__init__(f"{control.label} is given two GPIOs ({pins}); give it one")


class ConfigError(WiringError):
    """A config file that is not valid TOML, or holds a key or value the pin map has no
    use for."""
