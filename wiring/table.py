"""The installer's wiring table: function, player, GPIO, header pin and wire colour.

:func:`table_rows` gives the rows as data (one per wired control, plus one ground row per
harness; the coin lines are in the operator's harness); :func:`format_table` lays them out
as the plain text ``spit-cabinet wiring`` prints, with notes on how to wire the coin
mechanisms and the two outputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from wiring.colours import GROUND_COLOUR, wire_colour
from wiring.header import PHYSICAL_PIN, RESERVED, Bus, ground_for
from wiring.pinmap import (
    COIN_INPUTS,
    OPERATOR_CONTROLS,
    OPTIONAL,
    OUTPUTS,
    PLAYERS,
    Assignment,
    Control,
    Function,
    PinMap,
)

#: Column headings of the table.
HEADINGS: Final[tuple[str, str, str, str, str]] = ("function", "player", "BCM", "pin", "wire")


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table, as text: ``Row("slot1", "1", "GPIO17", "11", "brown")``.

    ``pin`` is the physical header pin (1-40).
    """

    function: str
    player: str
    bcm: str
    pin: str
    wire: str

    def cells(self) -> tuple[str, str, str, str, str]:
        return (self.function, self.player, self.bcm, self.pin, self.wire)


def function_name(control: Control) -> str:
    """The table's name for a control's function: ``slot1``, ``TEST``, ``door switch``,
    ``coin 1``, ``coin meter``."""
    if control.function.is_player_button:
        return control.function.value
    return control.label


def harness_name(player: int | None) -> str:
    """``1``, ``2`` or ``operator``: whose harness a wire belongs to."""
    return "operator" if player is None else str(player + 1)


def harness_ground(assignments: list[Assignment]) -> int:
    """The ground pin (physical) suggested for a harness: the one nearest its GPIO pins."""
    return ground_for([a.physical for a in assignments])


def table_rows(pin_map: PinMap) -> list[Row]:
    """Player 1's buttons and ground, player 2's, then the operator's, in panel order."""
    rows: list[Row] = []
    for player in (*PLAYERS, None):
        group = [a for a in pin_map if a.control.player == player]
        if not group:
            continue
        for a in group:
            rows.append(
                Row(
                    function_name(a.control),
                    harness_name(player),
                    f"GPIO{a.bcm}",
                    str(a.physical),
                    wire_colour(a.control.function).name,
                )
            )
        ground = harness_ground(group)
        rows.append(
            Row("ground (COM)", harness_name(player), "GND", str(ground), GROUND_COLOUR.name)
        )
    return rows


def format_table(pin_map: PinMap, title: str = "default pin map") -> str:
    """The table as aligned text, with notes on how to wire, which GPIOs are free and which
    optional lines are not wired."""
    rows = [Row(*HEADINGS), *table_rows(pin_map)]
    widths = [max(len(r.cells()[i]) for r in rows) for i in range(len(HEADINGS))]
    lines = [
        f"Spit cabinet wiring: {title}",
        "Each button: COM to ground, NO to its GPIO (BCM number).",
        "The Pi's internal pull-ups hold each GPIO high until its button closes: no resistors.",
        "",
    ]
    for r in rows:
        cells = r.cells()
        lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip())
    lines.append("")
    lines.append("Free: " + (_free(pin_map) or "none"))
    used_reserved = sorted(a.bcm for a in pin_map if a.bcm in RESERVED)
    if used_reserved:
        lines.append(
            "Reserved GPIOs in use (allow_reserved): "
            + "; ".join(f"GPIO{b}, {RESERVED[b].description}" for b in used_reserved)
        )
    lines.append("Kept free for their buses: " + _reserved_summary(pin_map))
    if pin_map.bcm(Control(Function.DOOR)) is None:
        lines.append("No door switch.")
    unwired = [
        Control(f).label
        for f in OPERATOR_CONTROLS
        if f in OPTIONAL and f is not Function.DOOR and pin_map.bcm(Control(f)) is None
    ]
    if unwired:
        lines.append("Not wired: " + ", ".join(unwired) + ".")
    wired = {a.control.function for a in pin_map}
    if wired & set(COIN_INPUTS):
        lines.extend(COIN_NOTE)
    if wired & OUTPUTS:
        lines.extend(OUTPUT_NOTE)
    return "\n".join(lines) + "\n"


#: The note under a table that has a coin input.
COIN_NOTE: Final[tuple[str, ...]] = (
    "Coin inputs are wired like the buttons: the mechanism's COIN signal to its GPIO, the",
    "mechanism's ground to GND, no resistors. The signal must be an open-collector or opto",
    "output (or a micro-switch); a mechanism with a 12 V pull-up on its output must not be",
    "wired straight to a GPIO (docs/pricing.md).",
)

#: The note under a table that has an output.
OUTPUT_NOTE: Final[tuple[str, ...]] = (
    "Coin meter and coin lockout are outputs (GPIO high = coil on): each GPIO drives a",
    "transistor or MOSFET driver that switches the coil, never a coil directly",
    "(docs/pricing.md).",
)


def _free(pin_map: PinMap) -> str:
    return ", ".join(f"GPIO{b} (pin {PHYSICAL_PIN[b]})" for b in pin_map.free_gpios())


def _reserved_summary(pin_map: PinMap) -> str:
    used = {a.bcm for a in pin_map}
    parts = []
    for bus in Bus:
        bcms = [r.bcm for r in RESERVED.values() if r.bus is bus and r.bcm not in used]
        if bcms:
            parts.append(f"{bus.value} " + ", ".join(f"GPIO{b}" for b in bcms))
    return "; ".join(parts) if parts else "none"
