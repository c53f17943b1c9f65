"""Suggested wire colours: the resistor colour code, so a colour tells the button.

Each player's harness uses the same colours: slot 1 to 4 brown, red, orange, yellow (1 to 4
in the code), pile 1 green (5), pile 2 blue (6); the operator's TEST violet (7), SERVICE
grey (8), door switch white (9); every ground black (0). Label each harness P1 or P2 at the
header end, since both use the same colours.

The code's ten colours are used up, so the operator's coin lines take four more, each
unlike any above: coin 1 pink and coin 2 turquoise (the inputs), coin meter tan and coin
lockout white with a red stripe, written ``white/red`` (the outputs, from the GPIO to their
transistor driver). Never use green-and-yellow: it means protective earth.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from wiring.pinmap import Function


@dataclass(frozen=True, slots=True)
class WireColour:
    """A wire colour: its name, as printed in the table, and an sRGB hex for the diagram.

    A striped wire (``white/red``) has ``hex`` for its base colour and ``stripe`` for its
    stripe's; a plain wire has no ``stripe``.
    """

    name: str
    hex: str
    stripe: str | None = None


BLACK: Final = WireColour("black", "#111111")

#: The suggested colour of each function's signal wire.
WIRE_COLOURS: Final[dict[Function, WireColour]] = {
    Function.SLOT1: WireColour("brown", "#8b4513"),
    Function.SLOT2: WireColour("red", "#d62728"),
    Function.SLOT3: WireColour("orange", "#ff7f0e"),
    Function.SLOT4: WireColour("yellow", "#f2c800"),
    Function.PILE1: WireColour("green", "#2ca02c"),
    Function.PILE2: WireColour("blue", "#1f77b4"),
    Function.TEST: WireColour("violet", "#8e44ad"),
    Function.SERVICE: WireColour("grey", "#888888"),
    Function.DOOR: WireColour("white", "#ffffff"),
    Function.COIN1: WireColour("pink", "#f49ac1"),
    Function.COIN2: WireColour("turquoise", "#30d5c8"),
    Function.METER: WireColour("tan", "#d2b48c"),
    Function.LOCKOUT: WireColour("white/red", "#ffffff", stripe="#d62728"),
}

#: The suggested colour of ground wires (every button's COM terminal, the coin mechanisms'
#: and the output drivers' ground).
GROUND_COLOUR: Final = BLACK


def wire_colour(function: Function) -> WireColour:
    """The suggested colour of the wire from ``function``'s button, switch or coin line to
    its GPIO."""
    return WIRE_COLOURS[function]
