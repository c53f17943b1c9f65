"""Which ranks play onto which (R7, with R2's ace beside the king when the rules say so),
as the lookup tables the engine and the CPU players read on every play.

>>> sorted(fitting_ranks(True)[1]), sorted(fitting_ranks(False)[1])
([2, 13], [2])
>>> sorted(either_table(fitting_ranks(True))[1][5])
[2, 4, 6, 13]
"""

from __future__ import annotations

import functools

from game.cards import ACE, KING


@functools.cache
def fitting_ranks(ace_wraps: bool) -> tuple[frozenset[int], ...]:
    """For each rank (index 1..13), the ranks that may be played onto it (R7, R2)."""
    table: list[frozenset[int]] = [frozenset()]
    for rank in range(ACE, KING + 1):
        near = {rank - 1, rank + 1}
        if ace_wraps:
            near = {(r - ACE) % KING + ACE for r in near}
        table.append(frozenset(r for r in near if ACE <= r <= KING))
    return tuple(table)


@functools.cache
def either_table(fits: tuple[frozenset[int], ...]) -> tuple[tuple[frozenset[int], ...], ...]:
    """``table[a][b]``: the ranks playable onto a pile topped by ``a`` or one topped by ``b``."""
    return tuple(tuple(fa | fb for fb in fits) for fa in fits)
