"""What the screens say about money: one plain value the presenter formats."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CreditsShown:
    """What the attract and join screens say about money."""

    free_play: bool
    credits: str
    """``3``, ``1/2``, ``3 1/2``."""
    price: int
    """Credits a game costs (per player, or per match)."""
    per_match: bool
    one_may_start: bool
    """The credits pay for one player's match (against the CPU when it is allowed)."""
    two_may_start: bool
    """The credits pay for a two-player match."""
