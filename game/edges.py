"""Button edges: what the input backends hand the referee.

An edge is one press or release of one player's button, stamped with the moment it
happened (``t_ns``: the kernel's hardware timestamp for GPIO, the key event's time for a
keyboard, a virtual time for CPU players) and, once the referee has taken it in, the
referee's clock at that moment (``delivered_ns``). Both are integer nanoseconds on
CLOCK_MONOTONIC (``time.monotonic_ns()``), or match-relative in a record.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Button(enum.Enum):
    """A player's buttons: four layout slots (R3, left to right) and two piles (R4).

    ``button.index`` is the 0-based slot (0..3) or pile (0..1) number, ``button.is_pile``
    whether it is a pile button: plain attributes, read on every edge.
    """

    index: int
    is_pile: bool

    SLOT1 = "slot1"
    SLOT2 = "slot2"
    SLOT3 = "slot3"
    SLOT4 = "slot4"
    PILE1 = "pile1"
    PILE2 = "pile2"

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    @classmethod
    def slot(cls, index: int) -> Button:
        """The button of layout slot ``index`` (0-based)."""
        return _SLOTS[index]

    @classmethod
    def pile(cls, index: int) -> Button:
        """The button of centre pile ``index`` (0-based)."""
        return _PILES[index]


_SLOTS = (Button.SLOT1, Button.SLOT2, Button.SLOT3, Button.SLOT4)
_PILES = (Button.PILE1, Button.PILE2)
for _i, _b in enumerate(_SLOTS):
    _b.index, _b.is_pile = _i, False
for _i, _b in enumerate(_PILES):
    _b.index, _b.is_pile = _i, True


class EdgeKind(enum.Enum):
    """A button going down (press) or coming back up (release)."""

    PRESS = "press"
    RELEASE = "release"

    __hash__ = object.__hash__


@dataclass(frozen=True, slots=True)
class Edge:
    """One press or release. ``player`` is 0 or 1 (the rules' player 1 or 2).

    Built on the hot path (every button edge), so it is not re-validated here: the
    types say what goes in, and match records are checked when they are read.
    """

    player: int
    button: Button
    edge: EdgeKind
    t_ns: int
    """When it happened (ns)."""
    delivered_ns: int | None = None
    """The referee's clock when it took the edge in (ns); ``None`` until then."""

    @property
    def is_press(self) -> bool:
        return self.edge is EdgeKind.PRESS

    def delivered(self, delivered_ns: int) -> Edge:
        """This edge, stamped as taken in at ``delivered_ns``."""
        return Edge(self.player, self.button, self.edge, self.t_ns, delivered_ns)

    @classmethod
    def press(cls, player: int, button: Button, t_ns: int) -> Edge:
        return cls(player, button, EdgeKind.PRESS, t_ns)

    @classmethod
    def release(cls, player: int, button: Button, t_ns: int) -> Edge:
        return cls(player, button, EdgeKind.RELEASE, t_ns)
