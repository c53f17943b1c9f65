"""The cabinet's lights as values: which lights exist, and what each should show.

A :class:`LightState` is the whole wanted state of all fifteen lights: the host sends it to
the board as one idempotent SNAPSHOT (PROTOCOL.md). Build one from :meth:`LightState.all_off`
and :meth:`LightState.with_lights`::

    state = LightState.all_off().with_lights(stuck1=Light.blink(400, RED), spit=Light.on(GREEN))

Colours are (red, green, blue), 0..255 each; a single-colour LED shows the brightest
channel as its brightness, so ``Light.on(brightness=128)`` is half brightness anywhere.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from firmware_bridge import codec


#: The lights in protocol order (a SNAPSHOT's record ``i`` is ``LIGHT_NAMES[i]``): each
#: player's STUCK light, the SPIT light, then the six button lights of player 1 and of
#: player 2 (layout slots 1-4, then piles 1 and 2).
class LightName(enum.StrEnum):
    """A light of the cabinet, by its protocol name."""

    STUCK1 = "stuck1"
    STUCK2 = "stuck2"
    SPIT = "spit"
    P1_SLOT1 = "p1_slot1"
    P1_SLOT2 = "p1_slot2"
    P1_SLOT3 = "p1_slot3"
    P1_SLOT4 = "p1_slot4"
    P1_PILE1 = "p1_pile1"
    P1_PILE2 = "p1_pile2"
    P2_SLOT1 = "p2_slot1"
    P2_SLOT2 = "p2_slot2"
    P2_SLOT3 = "p2_slot3"
    P2_SLOT4 = "p2_slot4"
    P2_PILE1 = "p2_pile1"
    P2_PILE2 = "p2_pile2"


LIGHT_NAMES: tuple[LightName, ...] = tuple(LightName)

_INDEX: dict[str, int] = {name: i for i, name in enumerate(LIGHT_NAMES)}

Colour = tuple[int, int, int]
WHITE: Colour = (255, 255, 255)
RED: Colour = (255, 0, 0)
GREEN: Colour = (0, 255, 0)
AMBER: Colour = (255, 160, 0)
BLUE: Colour = (0, 64, 255)


class LightError(ValueError):
    """A light that cannot be shown as asked."""


class UnknownLightError(LightError):
    """A light name that is not one of :data:`LIGHT_NAMES`."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no light is called {name!r}; the lights are {', '.join(LIGHT_NAMES)}")
        self.name = name


class Mode(enum.IntEnum):
    """How a light shows its colour; the values are the protocol's mode bytes."""

    OFF = codec.MODE_OFF
    ON = codec.MODE_ON
    #: On for the first half of each period, off for the second.
    BLINK = codec.MODE_BLINK
    #: Breathing: dark at the start of each period, brightest halfway.
    PULSE = codec.MODE_PULSE


@dataclass(frozen=True, slots=True)
class Light:
    """One light's wanted look: mode, colour (r, g, b 0..255) and period in milliseconds
    (blink and pulse only, at least ``codec.MIN_PERIOD_MS``; 0 for off and on)."""

    mode: Mode = Mode.OFF
    colour: Colour = (0, 0, 0)
    period_ms: int = 0

    def __post_init__(self) -> None:
        try:
            mode = Mode(self.mode)
        except ValueError:
            raise LightError(
                f"light mode {self.mode!r} is not one of "
                + ", ".join(f"{m.name.lower()} ({m.value})" for m in Mode)
            ) from None
        object.__setattr__(self, "mode", mode)  # an int such as 2 becomes Mode.BLINK
        colour = tuple(self.colour) if isinstance(self.colour, tuple | list) else None
        if colour is None or len(colour) != 3 or not all(_is_byte(c) for c in colour):
            raise LightError(
                f"colour {self.colour!r} must be three whole numbers 0..255 (red, green, blue)"
            )
        object.__setattr__(self, "colour", colour)
        name = mode.name.lower()
        if mode in (Mode.BLINK, Mode.PULSE):
            if not _is_int(self.period_ms) or not codec.MIN_PERIOD_MS <= self.period_ms <= 0xFFFF:
                raise LightError(
                    f"a {name} period must be a whole number of milliseconds from"
                    f" {codec.MIN_PERIOD_MS} to 65535, got {self.period_ms!r}"
                )
        elif self.period_ms != 0:
            raise LightError(
                f"a light that is {name} has no period (use 0), got {self.period_ms!r}"
            )

    @classmethod
    def off(cls) -> Light:
        return cls()

    @classmethod
    def on(cls, colour: Colour = WHITE, *, brightness: int | None = None) -> Light:
        """Steadily lit in ``colour``, or white at ``brightness`` (0..255) if given."""
        return cls(Mode.ON, _colour(colour, brightness))

    @classmethod
    def blink(
        cls, period_ms: int, colour: Colour = WHITE, *, brightness: int | None = None
    ) -> Light:
        """On for half of every ``period_ms``, off for the other half; timed by the board."""
        return cls(Mode.BLINK, _colour(colour, brightness), period_ms)

    @classmethod
    def pulse(
        cls, period_ms: int, colour: Colour = WHITE, *, brightness: int | None = None
    ) -> Light:
        """Breathing with a ``period_ms`` cycle; timed by the board."""
        return cls(Mode.PULSE, _colour(colour, brightness), period_ms)

    def record(self) -> tuple[int, int, int, int, int]:
        """The SNAPSHOT record: (mode, red, green, blue, period_ms). Off is all zeros."""
        if self.mode is Mode.OFF:
            return (0, 0, 0, 0, 0)
        red, green, blue = self.colour
        return (int(self.mode), red, green, blue, self.period_ms)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_byte(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 255


def _colour(colour: Colour, brightness: int | None) -> Colour:
    if brightness is None:
        return colour
    if not _is_byte(brightness):
        raise LightError(f"brightness must be a whole number 0..255, got {brightness!r}")
    return (brightness, brightness, brightness)


OFF = Light()


@dataclass(frozen=True, slots=True)
class LightState:
    """The wanted look of every light, in :data:`LIGHT_NAMES` order. Immutable: the
    ``with_…`` methods return a new state."""

    lights: tuple[Light, ...] = field(default=(OFF,) * len(LIGHT_NAMES))

    def __post_init__(self) -> None:
        if len(self.lights) != len(LIGHT_NAMES):
            raise LightError(f"a light state has {len(LIGHT_NAMES)} lights, got {len(self.lights)}")
        for name, light in zip(LIGHT_NAMES, self.lights, strict=True):
            if not isinstance(light, Light):
                raise LightError(f"light {name.value!r} must be a Light, got {light!r}")

    @classmethod
    def all_off(cls) -> LightState:
        return cls()

    @classmethod
    def from_mapping(cls, lights: Mapping[str, Light]) -> LightState:
        """Lights named in ``lights`` as given, all others off."""
        return cls().replaced(lights)

    def __getitem__(self, name: str) -> Light:
        return self.lights[index_of(name)]

    def items(self) -> Iterator[tuple[str, Light]]:
        """(name, light) for every light, in protocol order."""
        return zip(LIGHT_NAMES, self.lights, strict=True)

    def lit(self) -> dict[str, Light]:
        """The lights that are not off, by name."""
        return {name: light for name, light in self.items() if light.mode is not Mode.OFF}

    def with_lights(self, **lights: Light) -> LightState:
        """This state with the named lights replaced: ``state.with_lights(spit=Light.on())``."""
        return self.replaced(lights)

    def replaced(self, lights: Mapping[LightName, Light] | Mapping[str, Light]) -> LightState:
        """This state with the lights of ``lights`` (by :class:`LightName`) replaced."""
        new = list(self.lights)
        for name, light in lights.items():
            new[index_of(name)] = light
        return LightState(tuple(new))

    def records(self) -> list[tuple[int, int, int, int, int]]:
        """The SNAPSHOT records, one per light in protocol order."""
        return [light.record() for light in self.lights]

    def payload(self) -> bytes:
        """The SNAPSHOT payload for this state."""
        return codec.pack_snapshot(self.records())

    @classmethod
    def from_payload(cls, payload: bytes) -> LightState:
        """The state a SNAPSHOT payload describes (lights past its count are off)."""
        lights = [OFF] * len(LIGHT_NAMES)
        for i, (mode, red, green, blue, period_ms) in enumerate(codec.unpack_snapshot(payload)):
            if i < len(lights) and mode != codec.MODE_OFF:
                lights[i] = Light(Mode(mode), (red, green, blue), period_ms)
        return cls(tuple(lights))


def index_of(name: str) -> int:
    """The protocol index of light ``name``; raises :class:`UnknownLightError`."""
    try:
        return _INDEX[name]
    except KeyError:
        raise UnknownLightError(name) from None
