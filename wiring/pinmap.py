"""The pin map: which GPIO each control of the cabinet is wired to.

Every input is wired *active low*: the buttons (one terminal to the GPIO, the other to
ground) and the coin mechanisms' COIN signals (an open-collector, opto or micro-switch
output that pulls the GPIO to ground for one pulse per coin). The Pi's internal pull-up
holds the GPIO high until the contact closes (gpiozero: ``Button(bcm, pull_up=True)``).
No resistors are needed.

The two outputs, the coin meter and the coin lockout (:data:`OUTPUTS`), are driven
*active high* (GPIO high = coil energised) and always through a transistor or MOSFET
driver: a coil never hangs on a GPIO.

A :class:`PinMap` is checked when it is made: every GPIO is on the 40-pin header, none is
used twice, reserved GPIOs only where ``allow_reserved`` says so, and every required button
is there. A map that exists is a map that can be wired.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final, TypeGuard

from wiring.errors import (
    DuplicateControlError,
    MissingButtonError,
    NotAHeaderGpioError,
    NotAReservedPinError,
    PinUsedTwiceError,
    ReservedPinError,
)
from wiring.header import PHYSICAL_PIN, RESERVED

#: Buttons and coin inputs close to ground and the GPIO uses the Pi's internal pull-up.
PULL_UP: Final = True

#: The two players, as the code numbers them. People see them as player 1 and player 2.
PLAYERS: Final[tuple[int, int]] = (0, 1)


class Function(enum.Enum):
    """What a control does. The player buttons' values are those of ``game.edges.Button``."""

    SLOT1 = "slot1"
    SLOT2 = "slot2"
    SLOT3 = "slot3"
    SLOT4 = "slot4"
    PILE1 = "pile1"
    PILE2 = "pile2"
    TEST = "test"
    """The operator's TEST button, inside the door: opens the service menu."""
    SERVICE = "service"
    """The operator's SERVICE button, inside the door: a free credit / menu navigation."""
    DOOR = "door"
    """The optional door switch: closed while the door is shut."""
    COIN1 = "coin1"
    """Optional input: coin mechanism 1's COIN signal, one pulse to ground (typically
    20-150 ms) per coin; wired like a button."""
    COIN2 = "coin2"
    """Optional input: coin mechanism 2's COIN signal, as :attr:`COIN1`."""
    METER = "meter"
    """Optional output: pulses the mechanical coin counter, one pulse per coin unit, through
    a transistor driver."""
    LOCKOUT = "lockout"
    """Optional output: holds the coin mechanisms' lockout coils energised, through a
    transistor driver, while coins are accepted; de-energised (as with the cabinet off),
    coins are rejected."""

    @property
    def is_player_button(self) -> bool:
        """True for the six buttons each player has (four slots, two piles)."""
        return self in PLAYER_BUTTONS

    @property
    def is_output(self) -> bool:
        """True for the lines the Pi drives (the coin meter and the lockout), False for the
        inputs it reads."""
        return self in OUTPUTS


#: Each player's six buttons, in panel order: slots 1-4, then piles 1-2.
PLAYER_BUTTONS: Final[tuple[Function, ...]] = (
    Function.SLOT1,
    Function.SLOT2,
    Function.SLOT3,
    Function.SLOT4,
    Function.PILE1,
    Function.PILE2,
)

#: The operator's lines inside the door, in table order: the buttons, the door switch, the
#: coin inputs, then the outputs.
OPERATOR_CONTROLS: Final[tuple[Function, ...]] = (
    Function.TEST,
    Function.SERVICE,
    Function.DOOR,
    Function.COIN1,
    Function.COIN2,
    Function.METER,
    Function.LOCKOUT,
)

#: The operator's lines a map may leave out.
OPTIONAL: Final[frozenset[Function]] = frozenset(
    {Function.DOOR, Function.COIN1, Function.COIN2, Function.METER, Function.LOCKOUT}
)

#: The lines the Pi drives (active high, through a transistor driver); all others are inputs.
OUTPUTS: Final[frozenset[Function]] = frozenset({Function.METER, Function.LOCKOUT})

#: The coin mechanisms' COIN signals, mechanism 1 first.
COIN_INPUTS: Final[tuple[Function, ...]] = (Function.COIN1, Function.COIN2)

#: How people name the operator's lines that are not named by their function in capitals.
_LABELS: Final[dict[Function, str]] = {
    Function.DOOR: "door switch",
    Function.COIN1: "coin 1",
    Function.COIN2: "coin 2",
    Function.METER: "coin meter",
    Function.LOCKOUT: "coin lockout",
}


@dataclass(frozen=True, slots=True)
class Control:
    """One physical control: a player's button (``player`` 0 or 1) or an operator control
    (``player`` None)."""

    function: Function
    player: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.function, Function):
            raise ValueError(f"function must be a Function, got {self.function!r}")
        if self.function.is_player_button:
            if self.player not in PLAYERS:
                raise ValueError(
                    f"{self.function.value} is a player's button: player must be 0 or 1 "
                    f"(player 1 or 2), got {self.player!r}"
                )
        elif self.player is not None:
            raise ValueError(
                f"{self.function.value} is an operator control: player must be None, "
                f"got {self.player!r}"
            )

    @property
    def label(self) -> str:
        """How people name it: ``player 1 slot1``, ``TEST``, ``door switch``, ``coin 1``,
        ``coin meter``."""
        if self.player is not None:
            return f"player {self.player + 1} {self.function.value}"
        return _LABELS.get(self.function, self.function.name)

    @property
    def order(self) -> tuple[int, int]:
        """Sort key: player 1's buttons, player 2's, then the operator's, each in panel order."""
        if self.player is not None:
            return (self.player, PLAYER_BUTTONS.index(self.function))
        return (len(PLAYERS), OPERATOR_CONTROLS.index(self.function))

    def __repr__(self) -> str:
        if self.player is None:
            return f"Control(Function.{self.function.name})"
        return f"Control(Function.{self.function.name}, {self.player})"


#: Every control a map must wire, in table order.
REQUIRED: Final[tuple[Control, ...]] = tuple(
    Control(f, p) for p in PLAYERS for f in PLAYER_BUTTONS
) + tuple(Control(f) for f in OPERATOR_CONTROLS if f not in OPTIONAL)


def check_pin(control: Control, bcm: object, allow_reserved: Iterable[int] = ()) -> int:
    """Check that ``bcm`` can carry ``control``; return it as an int.

    Raises :class:`NotAHeaderGpioError` when it is not a BCM GPIO of the header (with a
    hint when it looks like a physical pin number) and :class:`ReservedPinError` when it is
    reserved and not in ``allow_reserved``.
    """
    if not is_int(bcm) or bcm not in PHYSICAL_PIN:
        raise NotAHeaderGpioError(bcm, control, _physical_hint(bcm))
    reserved = RESERVED.get(bcm)
    if reserved is not None and bcm not in set(allow_reserved):
        raise ReservedPinError(bcm, control, reserved.description)
    return bcm


def is_int(value: object) -> TypeGuard[int]:
    """An int that is not a bool (TOML's ``true`` is no pin number)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_allowed_reserved(bcm: object) -> int:
    """Check one entry of ``allow_reserved``: a header GPIO that is reserved; return it."""
    if not is_int(bcm) or bcm not in PHYSICAL_PIN:
        raise NotAHeaderGpioError(bcm, None, _physical_hint(bcm))
    if bcm not in RESERVED:
        raise NotAReservedPinError(bcm, RESERVED)
    return bcm


def _physical_hint(value: object) -> str:
    if is_int(value) and 1 <= value <= 40:
        gpio = next((b for b, p in PHYSICAL_PIN.items() if p == value), None)
        if gpio is not None:
            return f"; if you meant physical pin {value}, that is GPIO{gpio}"
        return f"; physical pin {value} is not a GPIO (it is ground or power)"
    return ""


def free_gpios(used: Iterable[int]) -> tuple[int, ...]:
    """Header GPIOs that are not in ``used`` and not reserved, ascending."""
    taken = set(used)
    return tuple(b for b in sorted(PHYSICAL_PIN) if b not in taken and b not in RESERVED)


@dataclass(frozen=True, slots=True)
class Assignment:
    """One control wired to one GPIO (BCM number)."""

    control: Control
    bcm: int

    @property
    def physical(self) -> int:
        """The physical header pin (1-40) the wire goes to."""
        return PHYSICAL_PIN[self.bcm]


@dataclass(frozen=True, slots=True)
class PinMap:
    """Which GPIO each control is wired to; checked when made (see the module docstring).

    ``assignments`` are kept in table order (player 1, player 2, operator). Build one from a
    mapping with :meth:`from_pins`.
    """

    assignments: tuple[Assignment, ...]
    allow_reserved: frozenset[int] = field(default_factory=frozenset)
    """Reserved GPIOs this map may use (their bus is unused in this cabinet)."""

    def __post_init__(self) -> None:
        for bcm in sorted(self.allow_reserved):
            check_allowed_reserved(bcm)
        by_control: dict[Control, int] = {}
        by_pin: dict[int, Control] = {}
        for a in self.assignments:
            check_pin(a.control, a.bcm, self.allow_reserved)
            if a.control in by_control:
                raise DuplicateControlError(a.control, (by_control[a.control], a.bcm))
            if a.bcm in by_pin:
                raise PinUsedTwiceError(
                    a.bcm,
                    by_pin[a.bcm],
                    a.control,
                    free=free_gpios(a.bcm for a in self.assignments),
                )
            by_control[a.control] = a.bcm
            by_pin[a.bcm] = a.control
        missing = [c for c in REQUIRED if c not in by_control]
        if missing:
            raise MissingButtonError(missing)
        ordered = tuple(sorted(self.assignments, key=lambda a: a.control.order))
        object.__setattr__(self, "assignments", ordered)

    @classmethod
    def from_pins(cls, pins: Mapping[Control, int], allow_reserved: Iterable[int] = ()) -> PinMap:
        """A map from ``{control: bcm}``."""
        return cls(tuple(Assignment(c, b) for c, b in pins.items()), frozenset(allow_reserved))

    def pins(self) -> dict[Control, int]:
        """``{control: bcm}`` for every wired control."""
        return {a.control: a.bcm for a in self.assignments}

    def bcm(self, control: Control) -> int | None:
        """The GPIO of ``control``, or ``None`` when it is not wired (only an optional line,
        :data:`OPTIONAL`, may be left out)."""
        return next((a.bcm for a in self.assignments if a.control == control), None)

    def player_pins(self, player: int) -> dict[str, int]:
        """``{button value: bcm}`` for ``player`` (0 or 1), keyed like ``game.edges.Button``
        values: ``{"slot1": 17, ..., "pile2": 13}``."""
        if player not in PLAYERS:
            raise ValueError(f"player must be 0 or 1 (player 1 or 2), got {player!r}")
        return {
            a.control.function.value: a.bcm for a in self.assignments if a.control.player == player
        }

    def free_gpios(self) -> tuple[int, ...]:
        """Header GPIOs neither used by this map nor reserved, ascending."""
        return free_gpios(a.bcm for a in self.assignments)

    def __iter__(self) -> Iterator[Assignment]:
        return iter(self.assignments)

    def __len__(self) -> int:
        return len(self.assignments)
