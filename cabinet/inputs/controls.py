"""The cabinet's controls: each player's six buttons, the operator's TEST and SERVICE,
and the coin mechanisms' lines.

A :class:`Control` is one input the input layer reports: a player's button (``player`` 0
or 1, as in :mod:`game.edges`, and its :class:`~game.edges.Button`) or one of the
operator's inputs inside the door (``operator``: ``Function.TEST``, ``Function.SERVICE``,
``Function.COIN1`` or ``Function.COIN2`` of :mod:`wiring.pinmap`). In settings, key maps,
press datagrams, the audits and the logs a control is written by its
:attr:`Control.name`: ``p1.slot1`` … ``p2.pile2``, ``test``, ``service``, ``coin1`` or
``coin2`` (players counted from 1, as on the cabinet's labels). :meth:`Control.parse`
reads that form back:

>>> Control.parse(" P2.Pile1")
Control(1, Button.PILE1)
>>> Control(0, Button.SLOT1).name
'p1.slot1'
>>> TEST.name, TEST.is_operator, TEST.player
('test', True, None)

The names are not spelled out here: a button's is its :class:`~game.edges.Button` value,
an operator control's its :class:`~wiring.pinmap.Function` value. The door switch
(``Function.DOOR``) is no control of the input layer: the service menu reads it itself
(:mod:`cabinet.inputs.door`); the coin meter and lockout are outputs
(:mod:`cabinet.money.outputs`).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.edges import Button
from game.values import is_int
from wiring.pinmap import PLAYERS, Function
from wiring.pinmap import Control as WiredControl

_OPERATOR_FUNCTIONS: tuple[Function, ...] = (
    Function.TEST,
    Function.SERVICE,
    Function.COIN1,
    Function.COIN2,
)
"""The operator's inputs the input layer reports, in table order (not the door)."""


class ControlError(ValueError):
    """Not one of the cabinet's controls: a name other than ``p1.slot1`` … ``p2.pile2``,
    ``test``, ``service``, ``coin1``, ``coin2``, or a player, button or operator function
    out of range."""


@dataclass(frozen=True, slots=True)
class Control:
    """One control: player ``player``'s (0 or 1) ``button``, or the operator's
    ``operator`` input (``Function.TEST``, ``SERVICE``, ``COIN1`` or ``COIN2``; ``player``
    and ``button`` are then ``None``). Build a player's as ``Control(0, Button.SLOT1)``;
    the operator's are :data:`TEST`, :data:`SERVICE`, :data:`COIN1` and :data:`COIN2`."""

    player: int | None = None
    button: Button | None = None
    operator: Function | None = None

    def __post_init__(self) -> None:
        player, button, operator = self.player, self.button, self.operator
        if operator is None:
            if not is_int(player) or player not in PLAYERS:
                raise ControlError(
                    f"a player's button needs player 0 or 1 (player 1 or 2), got {player!r}"
                )
            if not isinstance(button, Button):
                raise ControlError(f"a player's button needs a Button, got {button!r}")
        elif operator not in _OPERATOR_FUNCTIONS:
            raise ControlError(
                f"the operator's controls are {', '.join(f.value for f in _OPERATOR_FUNCTIONS)}, "
                f"got {operator!r}"
            )
        elif player is not None or button is not None:
            raise ControlError(
                f"{operator.value} is the operator's: it has no player or button, "
                f"got {player!r}, {button!r}"
            )

    @property
    def is_operator(self) -> bool:
        """TEST, SERVICE or a coin line, not one of the twelve player buttons (``player``
        and ``button`` are ``None``)."""
        return self.operator is not None

    @property
    def is_coin(self) -> bool:
        """A coin mechanism's line."""
        return self.operator in (Function.COIN1, Function.COIN2)

    @property
    def name(self) -> str:
        """``p1.slot1`` … ``p2.pile2``, ``test``, ``service``, ``coin1`` or ``coin2``: the
        name settings, key maps, audits and logs know the control by (:meth:`parse` reads
        it)."""
        if self.player is not None and self.button is not None:
            return f"p{self.player + 1}.{self.button.value}"
        assert self.operator is not None  # __post_init__ sees to it
        return self.operator.value

    @classmethod
    def parse(cls, text: str) -> Control:
        """The control named ``text`` (case and surrounding spaces ignored); the inverse
        of :attr:`name`. Raises :class:`ControlError` for any other text."""
        control = _BY_NAME.get(text.strip().lower()) if isinstance(text, str) else None
        if control is None:
            raise ControlError(f"unknown control {text!r}: expected one of {', '.join(_BY_NAME)}")
        return control

    @classmethod
    def from_wiring(cls, wired: WiredControl) -> Control | None:
        """The control a pin map's (:mod:`wiring.pinmap`) control is, or ``None`` for
        the door switch and the coin meter and lockout outputs, which the input layer
        does not report."""
        function = wired.function
        if function.is_player_button:
            return cls(wired.player, Button(function.value))
        if function in _OPERATOR_FUNCTIONS:
            return cls(operator=function)
        return None

    def __repr__(self) -> str:
        if self.operator is not None:
            return f"Control(operator=Function.{self.operator.name})"
        return f"Control({self.player!r}, {self.button!s})"


TEST = Control(operator=Function.TEST)
"""The operator's TEST button: opens the service menu, selects in it."""
SERVICE = Control(operator=Function.SERVICE)
"""The operator's SERVICE button: the next row in the service menu; outside it, a service
credit."""
COIN1 = Control(operator=Function.COIN1)
"""Coin mechanism 1's line: one low pulse per coin."""
COIN2 = Control(operator=Function.COIN2)
"""Coin mechanism 2's line."""

PLAYER_CONTROLS: tuple[Control, ...] = tuple(Control(p, b) for p in PLAYERS for b in Button)
"""The twelve player buttons, player 1's first, each player's slots then piles."""

OPERATOR_CONTROLS: tuple[Control, ...] = (TEST, SERVICE)
"""The operator's two buttons inside the door."""

COIN_CONTROLS: tuple[Control, ...] = (COIN1, COIN2)
"""The coin mechanisms' lines (either may be left unwired)."""

ALL_CONTROLS: tuple[Control, ...] = (*PLAYER_CONTROLS, *OPERATOR_CONTROLS, *COIN_CONTROLS)
"""Every control the input backends report: twelve player buttons, TEST, SERVICE and the
two coin lines."""

REQUIRED_CONTROLS: tuple[Control, ...] = (*PLAYER_CONTROLS, *OPERATOR_CONTROLS)
"""The controls every pin map wires (the coin lines are optional)."""

_BY_NAME: dict[str, Control] = {c.name: c for c in ALL_CONTROLS}
