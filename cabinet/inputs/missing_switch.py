"""The missing-switch audit: a button nobody pressed in N games while the buttons beside
it were (after the Mission Pinball Framework's audit of the same name). A dead
microswitch or a loose wire shows as just that: players keep playing around it.

A game says something about a button only when its player pressed a neighbour of it
(the slot or pile next to it, on the same panel); a game in which that player pressed
nothing near it leaves its count alone. Pure: :meth:`cabinet.storage.store.CabinetStore.record_game`
keeps the counts in the database and reports a fault when one reaches the setting.

>>> counts = {}
>>> from game.edges import Button
>>> for _ in range(3):
...     counts = silence_after({(0, Button.SLOT1), (0, Button.SLOT3)}, (0,), counts)
>>> counts["p1.slot2"], counts.get("p1.slot1", 0), counts.get("p1.pile1", 0)
(3, 0, 0)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from cabinet.inputs.controls import Control
from game.edges import Button, Edge

SLOTS = (Button.SLOT1, Button.SLOT2, Button.SLOT3, Button.SLOT4)
PILES = (Button.PILE1, Button.PILE2)


def neighbours(button: Button) -> tuple[Button, ...]:
    """The buttons beside ``button`` on its player's panel (slots in a row, piles in a
    pair)."""
    row = PILES if button.is_pile else SLOTS
    i = row.index(button)
    return tuple(row[j] for j in (i - 1, i + 1) if 0 <= j < len(row))


def pressed(edges: Iterable[Edge]) -> set[tuple[int, Button]]:
    """``(player, button)`` of every press among ``edges``."""
    return {(e.player, e.button) for e in edges if e.is_press}


def silence_after(
    pressed_in_game: Collection[tuple[int, Button]],
    people: Iterable[int],
    counts: Mapping[str, int],
) -> dict[str, int]:
    """Each button's count of games silent beside pressed neighbours, after one more game
    in which ``pressed_in_game`` were pressed; only seats in ``people`` (not the CPU's)
    count. Keys are control names (``p1.slot2``); a count of 0 is left out."""
    out = {name: n for name, n in counts.items() if n}
    for player in people:
        for button in Button:
            name = Control(player, button).name
            if (player, button) in pressed_in_game:
                out.pop(name, None)
            elif any((player, b) in pressed_in_game for b in neighbours(button)):
                out[name] = out.get(name, 0) + 1
    return out


def missing(counts: Mapping[str, int], games: int) -> list[str]:
    """The buttons whose count has reached ``games``, in name order."""
    return sorted(name for name, n in counts.items() if n >= games)
