"""The cabinet's controls: each player's six buttons, and the operator's TEST and SERVICE.

A *control* is one physical button. The twelve player buttons are named by
``(player, Button)`` (player 0 or 1, as in :mod:`game.edges`); the operator's two
buttons inside the door by the strings ``"test"`` and ``"service"``. In settings, key
maps and pin maps a control is written ``p1.slot1`` … ``p2.pile2``, ``test`` or
``service`` (players counted from 1, as on the cabinet's labels):
:func:`parse_control` reads that form and :func:`control_name` writes it.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from game.edges import Button

OperatorControl: TypeAlias = Literal["test", "service"]
PlayerControl: TypeAlias = tuple[int, Button]
Control: TypeAlias = PlayerControl | OperatorControl

TEST: OperatorControl = "test"
SERVICE: OperatorControl = "service"

PLAYER_CONTROLS: tuple[PlayerControl, ...] = tuple((p, b) for p in (0, 1) for b in Button)
"""The twelve player buttons, player 1's first, each player's slots then piles."""

ALL_CONTROLS: tuple[Control, ...] = (*PLAYER_CONTROLS, TEST, SERVICE)
"""Every control the input backends report: twelve player buttons, TEST and SERVICE."""


class ControlError(ValueError):
    """A control name is not one of ``p1.slot1`` … ``p2.pile2``, ``test``, ``service``."""


def control_name(control: Control) -> str:
    """``(0, Button.SLOT1)`` → ``"p1.slot1"``; ``"test"`` → ``"test"``."""
    if isinstance(control, str):
        return control
    player, button = control
    return f"p{player + 1}.{button.value}"


_BY_NAME: dict[str, Control] = {control_name(c): c for c in ALL_CONTROLS}


def parse_control(text: str) -> Control:
    """Read a control name (case and surrounding spaces ignored); the inverse of
    :func:`control_name`."""
    control = _BY_NAME.get(text.strip().lower()) if isinstance(text, str) else None
    if control is None:
        raise ControlError(f"unknown control {text!r}: expected one of {', '.join(_BY_NAME)}")
    return control


def is_player_control(control: Control) -> bool:
    """Whether ``control`` is one of the twelve player buttons (not TEST or SERVICE)."""
    return not isinstance(control, str)
