"""The cabinet's controls: each player's six buttons, and the operator's TEST and SERVICE.

A :class:`Control` is one physical button the input layer reports: a player's button
(``player`` 0 or 1, as in :mod:`game.edges`, and its :class:`~game.edges.Button`) or one
of the operator's two buttons inside the door (``operator``: ``Function.TEST`` or
``Function.SERVICE`` of :mod:`wiring.pinmap`). In settings, key maps, press datagrams,
the audits and the logs a control is written by its :attr:`Control.name`: ``p1.slot1`` …
``p2.pile2``, ``test`` or ``service`` (players counted from 1, as on the cabinet's
labels). :meth:`Control.parse` reads that form back:

>>> Control.parse(" P2.Pile1")
Control(1, Button.PILE1)
>>> Control(0, Button.SLOT1).name
'p1.slot1'
>>> TEST.name, TEST.is_operator, TEST.player
('test', True, None)

The names are not spelled out here: a button's is its :class:`~game.edges.Button` value,
an operator control's its :class:`~wiring.pinmap.Function` value. The door switch
(``Function.DOOR``) is no control of the input layer: the service menu reads it itself
(:mod:`cabinet.inputs.door`).
"""

from __future__ import annotations

from dataclasses import dataclass

from game.edges import Button
from wiring.pinmap import PLAYERS, Function
from wiring.pinmap import Control as WiredControl

_OPERATOR_FUNCTIONS: tuple[Function, ...] = (Function.TEST, Function.SERVICE)
"""The operator's controls the input layer reports, in table order (not the door)."""


class ControlError(ValueError):
    """Not one of the cabinet's controls: a name other than ``p1.slot1`` … ``p2.pile2``,
    ``test``, ``service``, or a player, button or operator function out of range."""


@dataclass(frozen=True, slots=True)
class Control:
    """One control: player ``player``'s (0 or 1) ``button``, or the operator's
    ``operator`` button (``Function.TEST`` or ``Function.SERVICE``; ``player`` and
    ``button`` are then ``None``). Build a player's as ``Control(0, Button.SLOT1)``; the
    operator's are :data:`TEST` and :data:`SERVICE`."""

    player: int | None = None
    button: Button | None = None
    operator: Function | None = None

    def __post_init__(self) -> None:
        player, button, operator = self.player, self.button, self.operator
        if operator is None:
            if not isinstance(player, int) or isinstance(player, bool) or player not in PLAYERS:
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
        """TEST or SERVICE, not one of the twelve player buttons (``player`` and
        ``button`` are ``None``)."""
        return self.operator is not None

    @property
    def name(self) -> str:
        """``p1.slot1`` … ``p2.pile2``, ``test`` or ``service``: the name settings, key
        maps, audits and logs know the control by (:meth:`parse` reads it)."""
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
        the door switch, which the input layer does not report."""
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
"""The operator's SERVICE button: the next row in the service menu."""

PLAYER_CONTROLS: tuple[Control, ...] = tuple(Control(p, b) for p in PLAYERS for b in Button)
"""The twelve player buttons, player 1's first, each player's slots then piles."""

OPERATOR_CONTROLS: tuple[Control, ...] = (TEST, SERVICE)
"""The operator's two buttons inside the door."""

ALL_CONTROLS: tuple[Control, ...] = (*PLAYER_CONTROLS, *OPERATOR_CONTROLS)
"""Every control the input backends report: twelve player buttons, TEST and SERVICE."""

_BY_NAME: dict[str, Control] = {c.name: c for c in ALL_CONTROLS}
