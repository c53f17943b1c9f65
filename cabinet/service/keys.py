"""What the operator presses in the menu: player 1's buttons, TEST and SERVICE.

Player 1's six buttons move through the menu (slot 1 up, slot 2 down, slot 3 less/left,
slot 4 more/right, pile 1 select, pile 2 back); TEST selects and SERVICE moves to the
next row, so a cabinet can be set up with the two buttons inside the door alone. The
keyboard backend maps the same keys (``cabinet.inputs.keyboard``). For the PIN, player
1's buttons are digits: slots 1–4 are 1–4, piles 1 and 2 are 5 and 6.
"""

from __future__ import annotations

import enum

from cabinet.inputs.controls import SERVICE, TEST
from cabinet.inputs.debounce import OperatorEdge
from cabinet.inputs.feed import FeedEvent, PlayerPress
from game.edges import Button


class MenuKey(enum.Enum):
    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
    SELECT = "select"
    BACK = "back"
    NEXT = "next"
    """SERVICE: the next row (wrapping round), so TEST and SERVICE alone reach everything."""


PLAYER1_KEYS: dict[Button, MenuKey] = {
    Button.SLOT1: MenuKey.UP,
    Button.SLOT2: MenuKey.DOWN,
    Button.SLOT3: MenuKey.LEFT,
    Button.SLOT4: MenuKey.RIGHT,
    Button.PILE1: MenuKey.SELECT,
    Button.PILE2: MenuKey.BACK,
}
"""Player 1's buttons in the menu."""

PIN_DIGITS: dict[Button, str] = {
    Button.SLOT1: "1",
    Button.SLOT2: "2",
    Button.SLOT3: "3",
    Button.SLOT4: "4",
    Button.PILE1: "5",
    Button.PILE2: "6",
}
"""Player 1's buttons as PIN digits (the ``operator_pin`` setting's digits)."""


def menu_key(item: FeedEvent) -> MenuKey | None:
    """The menu key a feed event is, or ``None`` (player 2, releases, game events)."""
    if isinstance(item, OperatorEdge):
        if not item.pressed:
            return None
        if item.control == TEST:
            return MenuKey.SELECT
        if item.control == SERVICE:
            return MenuKey.NEXT
        return None
    if isinstance(item, PlayerPress) and item.player == 0:
        return PLAYER1_KEYS.get(item.edge.button)
    return None


def pin_digit(item: FeedEvent) -> str | None:
    """The PIN digit a player-1 press keys, or ``None``."""
    if isinstance(item, PlayerPress) and item.player == 0:
        return PIN_DIGITS.get(item.edge.button)
    return None
