"""The installer's wiring diagram as SVG, drawn from a pin map by code.

Left: the 40-pin header, pin 1 at the top, each used pin filled with its wire colour and
named; reserved pins grey, ground black. Right: where each button goes on the control
panel, for both cabinet orientations, each button labelled with its GPIO and header pin:

- **upright**: players side by side, both panels seen from the front;
- **cocktail**: players face to face, the table seen from above with player 1 at the
  bottom, so player 2's panel appears turned round.

Each player's slot buttons run 1 to 4 from their own left to right (rule R3). The pile
buttons follow the piles on the screen: pile 1 on the left as player 1 sees it, so in a
cocktail table player 2 has pile 2 on their left. Below the header, inside the door: TEST,
SERVICE and the door switch; under them the coin lines, coin 1 and 2 (inputs, wired like
buttons) and the coin meter and lockout, marked as outputs (``→ driver``: each drives a
transistor, never a coil directly). A line the map leaves out is drawn dashed, "not
fitted".

The output is deterministic (integer coordinates, fixed attribute order: :mod:`wiring.svg`
writes every element), so the diagram committed with the docs can be compared with what
the code draws now.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Final

from wiring.colours import GROUND_COLOUR, WireColour, wire_colour
from wiring.header import HEADER, RESERVED, HeaderPin, PinKind
from wiring.pinmap import (
    COIN_INPUTS,
    OPERATOR_CONTROLS,
    PLAYER_BUTTONS,
    Assignment,
    Control,
    Function,
    PinMap,
)
from wiring.svg import circle, ink, line, rect, text
from wiring.table import harness_ground

SVG_NS: Final = "http://www.w3.org/2000/svg"
WIDTH: Final = 1100
HEIGHT: Final = 940

#: How an output is marked, in the header pin's label and under its button.
OUTPUT_MARK: Final = "→ driver"

_FONT: Final = "DejaVu Sans, Arial, Helvetica, sans-serif"
_POWER_FILL: Final = {PinKind.POWER_3V3: "#f6dcb4", PinKind.POWER_5V: "#f0b0b0"}
_RESERVED_FILL: Final = "#d0d0d0"
_FREE_FILL: Final = "#ffffff"
_PANEL_FILL: Final = "#f4f1ea"
_TABLE_FILL: Final = "#e3ddd0"
_OUTPUT_INK: Final = "#b03000"

# Header geometry (px): the two columns' centres, the first row and the row pitch.
_HEADER_X: Final = (215, 245)
_HEADER_Y0: Final = 112
_ROW_PITCH: Final = 24
_PIN_R: Final = 9

# Panel geometry (px): a panel's size and its buttons' places inside it.
_PANEL_W: Final = 290
_PANEL_H: Final = 190
_BUTTON_R: Final = 17
_SLOT_DX: Final = (40, 110, 180, 250)
_PILE_DX: Final = (110, 180)
_NEAR_ROW_DY: Final = 120  # the row nearer the player: slots
_FAR_ROW_DY: Final = 35  # the row towards the screen: piles

# The operator's area (px): its top left, the buttons' row and the coin lines' row.
_DOOR_X: Final = 20
_DOOR_Y: Final = 660
_DOOR_W: Final = 410
_DOOR_H: Final = 200
_DOOR_BUTTON_DX: Final = (70, 205, 340)
_DOOR_BUTTON_DY: Final = 42
_DOOR_COIN_DX: Final = (58, 156, 254, 352)
_DOOR_COIN_DY: Final = 130


def render_svg(pin_map: PinMap, title: str = "default pin map") -> str:
    """The wiring diagram of ``pin_map`` as an SVG document (UTF-8 text, ends with a
    newline). ``title`` names the map in the heading."""
    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "width": str(WIDTH),
            "height": str(HEIGHT),
            "viewBox": f"0 0 {WIDTH} {HEIGHT}",
            "font-family": _FONT,
        },
    )
    ET.SubElement(svg, "title").text = f"Spit cabinet wiring: {title}"
    rect(svg, 0, 0, WIDTH, HEIGHT, fill="#ffffff")
    text(svg, 20, 32, f"Spit cabinet wiring: {title}", size=20, bold=True)
    text(
        svg,
        20,
        54,
        "Every button: COM to ground (black wire), NO to its GPIO. "
        "Internal pull-ups, active low: no resistors.",
        size=13,
    )
    by_physical = {a.physical: a for a in pin_map}
    grounds = _harness_grounds(pin_map)
    _draw_header(svg, by_physical, grounds)
    _draw_operator(svg, pin_map)
    _draw_upright(svg, pin_map)
    _draw_cocktail(svg, pin_map)
    ET.indent(svg, space="  ")
    return ET.tostring(svg, encoding="unicode", xml_declaration=False) + "\n"


# -- header -------------------------------------------------------------------------------


def _harness_grounds(pin_map: PinMap) -> dict[int, str]:
    """Suggested ground pin (physical) -> whose harness uses it."""
    grounds: dict[int, str] = {}
    for player, name in ((0, "P1"), (1, "P2"), (None, "operator")):
        group = [a for a in pin_map if a.control.player == player]
        if group:
            pin = harness_ground(group)
            grounds[pin] = f"{grounds[pin]}, {name}" if pin in grounds else name
    return grounds


def _draw_header(
    svg: ET.Element, by_physical: dict[int, Assignment], grounds: dict[int, str]
) -> None:
    group = ET.SubElement(svg, "g", {"id": "header"})
    text(group, 20, 84, "40-pin header, pin 1 (square pad) at top left", size=14, bold=True)
    top = _HEADER_Y0 - 16
    bottom = _HEADER_Y0 + 19 * _ROW_PITCH + 16
    rect(group, 198, top, 64, bottom - top, fill="#2d2d2d", rx=4)
    for pin in HEADER:
        _draw_pin(group, pin, by_physical.get(pin.physical), grounds)
    _draw_legend(group, bottom + 26)


def _pin_style(pin: HeaderPin, used: Assignment | None) -> tuple[str, str]:
    """(fill colour, label) of a header pin."""
    if used is not None:
        label = f"GPIO{used.bcm} {_short(used.control)}"
        if used.control.function.is_output:
            label += f" {OUTPUT_MARK}"
        return wire_colour(used.control.function).hex, label
    if pin.kind is PinKind.GROUND:
        return GROUND_COLOUR.hex, "GND"
    if pin.kind in _POWER_FILL:
        return _POWER_FILL[pin.kind], pin.label
    assert pin.bcm is not None
    if pin.bcm in RESERVED:
        return _RESERVED_FILL, f"{pin.label} {RESERVED[pin.bcm].bus.value} (keep free)"
    return _FREE_FILL, f"{pin.label} free"


def _draw_pin(
    parent: ET.Element,
    pin: HeaderPin,
    used: Assignment | None,
    grounds: dict[int, str],
) -> None:
    fill, label = _pin_style(pin, used)
    if pin.physical in grounds:
        label += f" ({grounds[pin.physical]} ground)"
    row = (pin.physical - 1) // 2
    odd = pin.physical % 2 == 1
    x = _HEADER_X[0] if odd else _HEADER_X[1]
    y = _HEADER_Y0 + row * _ROW_PITCH
    g = ET.SubElement(parent, "g", {"id": f"pin-{pin.physical}"})
    if pin.physical == 1:
        r = _PIN_R
        rect(g, x - r, y - r, 2 * r, 2 * r, fill=fill, stroke="#888888")
    else:
        pad = circle(g, x, y, _PIN_R, fill)
        stripe = wire_colour(used.control.function).stripe if used is not None else None
        if stripe is not None:  # too small to cross with a stripe: ringed in its colour
            pad.set("stroke", stripe)
            pad.set("stroke-width", "3")
    text(g, x, y + 3, str(pin.physical), size=8, anchor="middle", fill=ink(fill))
    bold = used is not None
    if odd:
        text(g, x - 20, y + 4, label, size=11, anchor="end", bold=bold)
    else:
        text(g, x + 20, y + 4, label, size=11, bold=bold)


def _draw_legend(parent: ET.Element, y: int) -> None:
    entries = (
        (GROUND_COLOUR.hex, "ground"),
        (_POWER_FILL[PinKind.POWER_3V3], "3.3 V"),
        (_POWER_FILL[PinKind.POWER_5V], "5 V"),
        (_RESERVED_FILL, "reserved bus"),
        (_FREE_FILL, "free"),
    )
    x = 30
    for fill, name in entries:
        circle(parent, x, y - 4, 6, fill)
        text(parent, x + 10, y, name, size=11)
        x += 30 + 7 * len(name)
    text(
        parent,
        30,
        y + 18,
        f"A used pin is filled with its wire's colour; {OUTPUT_MARK} marks an output.",
        size=11,
    )


# -- panels -------------------------------------------------------------------------------


def _draw_button(
    parent: ET.Element, ident: str, x: int, y: int, pin_map: PinMap, control: Control
) -> None:
    """A button (or coin line) at (x, y) with its name, GPIO and header pin written under
    it; an output also says ``→ driver``."""
    g = ET.SubElement(parent, "g", {"id": ident})
    bcm = pin_map.bcm(control)
    if bcm is None:
        circle(g, x, y, _BUTTON_R, _FREE_FILL, dashed=True)
        text(g, x, y + _BUTTON_R + 14, _short_function(control), size=11, anchor="middle")
        text(g, x, y + _BUTTON_R + 27, "not fitted", size=10, anchor="middle")
        below = y + _BUTTON_R + 39
    else:
        colour = wire_colour(control.function)
        circle(g, x, y, _BUTTON_R, colour.hex)
        _stripe(g, x, y, _BUTTON_R, colour)
        physical = next(a.physical for a in pin_map if a.control == control)
        name = _short_function(control)
        text(g, x, y + _BUTTON_R + 14, name, size=11, anchor="middle", bold=True)
        text(g, x, y + _BUTTON_R + 27, f"GPIO{bcm}", size=10, anchor="middle")
        text(g, x, y + _BUTTON_R + 39, f"pin {physical}", size=10, anchor="middle")
        below = y + _BUTTON_R + 51
    if control.function.is_output:
        text(g, x, below, OUTPUT_MARK, size=10, anchor="middle", bold=True, fill=_OUTPUT_INK)


def _draw_panel(
    parent: ET.Element,
    ident: str,
    x0: int,
    y0: int,
    pin_map: PinMap,
    player: int,
    *,
    turned: bool,
    piles_left_to_right: tuple[Function, Function],
) -> None:
    """One player's panel in the box at (x0, y0). ``turned``: drawn as seen from across the
    table (the player sits above it), so slot 1 is on the drawing's right and the slot row
    is at the top."""
    g = ET.SubElement(parent, "g", {"id": ident})
    rect(g, x0, y0, _PANEL_W, _PANEL_H, fill=_PANEL_FILL, rx=10)
    slots = PLAYER_BUTTONS[:4]
    if turned:
        slot_y, pile_y = y0 + _FAR_ROW_DY - 10, y0 + _NEAR_ROW_DY - 10
        slot_order = tuple(reversed(slots))
    else:
        slot_y, pile_y = y0 + _NEAR_ROW_DY, y0 + _FAR_ROW_DY
        slot_order = slots
    for dx, function in zip(_SLOT_DX, slot_order, strict=True):
        control = Control(function, player)
        _draw_button(g, f"{ident}-{function.value}", x0 + dx, slot_y, pin_map, control)
    for dx, function in zip(_PILE_DX, piles_left_to_right, strict=True):
        control = Control(function, player)
        _draw_button(g, f"{ident}-{function.value}", x0 + dx, pile_y, pin_map, control)


def _draw_upright(svg: ET.Element, pin_map: PinMap) -> None:
    g = ET.SubElement(svg, "g", {"id": "upright"})
    text(g, 470, 84, "Upright: players side by side, panels seen from the front", 14, bold=True)
    piles = (Function.PILE1, Function.PILE2)
    for player, x0 in ((0, 470), (1, 785)):
        text(g, x0 + _PANEL_W // 2, 112, f"player {player + 1}", 13, anchor="middle", bold=True)
        _draw_panel(
            g,
            f"upright-p{player + 1}",
            x0,
            120,
            pin_map,
            player,
            turned=False,
            piles_left_to_right=piles,
        )
    text(
        g,
        470,
        334,
        "Seen from the players' side: from inside the cabinet, left and right swap.",
        11,
    )


def _draw_cocktail(svg: ET.Element, pin_map: PinMap) -> None:
    g = ET.SubElement(svg, "g", {"id": "cocktail"})
    text(g, 470, 372, "Cocktail: players face to face, table seen from above", 14, bold=True)
    x0, y0, w, h = 470, 400, 605, 470
    rect(g, x0, y0, w, h, fill=_TABLE_FILL, rx=14)
    panel_x = x0 + (w - _PANEL_W) // 2
    text(g, x0 + 12, y0 + 24, "player 2 sits here", 12, bold=True)
    _draw_panel(
        g,
        "cocktail-p2",
        panel_x,
        y0 + 10,
        pin_map,
        1,
        turned=True,
        piles_left_to_right=(Function.PILE1, Function.PILE2),
    )
    screen_y = y0 + 10 + _PANEL_H + 12
    rect(g, panel_x, screen_y, _PANEL_W, 44, fill="#3b4a5a", rx=4)
    for dx, name in zip(_PILE_DX, ("pile 1", "pile 2"), strict=True):
        text(g, panel_x + dx, screen_y + 27, name, 11, anchor="middle", fill="#ffffff")
    _draw_panel(
        g,
        "cocktail-p1",
        panel_x,
        y0 + h - 10 - _PANEL_H,
        pin_map,
        0,
        turned=False,
        piles_left_to_right=(Function.PILE1, Function.PILE2),
    )
    text(g, x0 + 12, y0 + h - 14, "player 1 sits here", 12, bold=True)
    text(
        g,
        x0,
        y0 + h + 20,
        "Player 2's slots run 1 to 4 from their own left; their pile buttons match the piles "
        "(pile 2 on their left).",
        11,
    )


def _draw_operator(svg: ET.Element, pin_map: PinMap) -> None:
    """Inside the door: TEST, SERVICE and the door switch, then the coin inputs and the
    outputs, with how to wire the coin lines written under them."""
    g = ET.SubElement(svg, "g", {"id": "door"})
    x0, y0 = _DOOR_X, _DOOR_Y
    text(g, x0, y0, "Inside the door (operator)", 14, bold=True)
    rect(g, x0, y0 + 8, _DOOR_W, _DOOR_H, fill=_PANEL_FILL, rx=10)
    coin = tuple(f for f in OPERATOR_CONTROLS if f in COIN_INPUTS or f.is_output)
    buttons = tuple(f for f in OPERATOR_CONTROLS if f not in coin)
    for dxs, dy, functions in (
        (_DOOR_BUTTON_DX, _DOOR_BUTTON_DY, buttons),
        (_DOOR_COIN_DX, _DOOR_COIN_DY, coin),
    ):
        for dx, function in zip(dxs, functions, strict=True):
            ident = f"door-{function.value}"
            _draw_button(g, ident, x0 + dx, y0 + dy, pin_map, Control(function))
    notes = (
        "Coin 1, coin 2: the mechanism's COIN signal to the GPIO, its ground",
        "to GND, like a button (open-collector or opto output; docs/pricing.md).",
        f"Meter, lockout are outputs ({OUTPUT_MARK}): GPIO high switches a",
        "transistor or MOSFET driver; never hang a coil on a GPIO.",
    )
    for i, note in enumerate(notes):
        text(g, x0, y0 + _DOOR_H + 30 + 14 * i, note, 11)


# -- small helpers ------------------------------------------------------------------------


def _stripe(parent: ET.Element, x: int, y: int, r: int, colour: WireColour) -> None:
    """A striped wire's stripe across the circle of radius ``r`` at (x, y)."""
    if colour.stripe is None:
        return
    d = r * 7 // 10
    line(parent, x - d, y + d, x + d, y - d, stroke=colour.stripe, width=max(2, r // 4))


def _short(control: Control) -> str:
    """``P1 slot1``, ``TEST``, ``door switch``: a control named in a header pin's label."""
    if control.player is not None:
        return f"P{control.player + 1} {control.function.value}"
    return control.label


def _short_function(control: Control) -> str:
    return control.function.value if control.player is not None else control.label
