"""Who won one race, decided by the referee and the engine themselves (R10).

The fairness test (docs/fairness.md) sends pairs of pile presses, one per player, at known
offsets. Each pair is judged exactly as a game decides a race: a fresh position where both
players hold a card that fits the left pile and beats the other's (two sixes on a five), a
slot selected by each, then the two pile presses with their own timestamps and delivery
times through a :class:`~game.referee.Referee`. Whoever's play the engine accepted won;
a press that came later than the race window is *late* (applied at the horizon, as in a
game), which can lose a race it should have won.

>>> from game.edges import Button, Edge
>>> from game.rules import Rules
>>> a = Edge.press(0, Button.PILE1, 1_000_000).delivered(1_300_000)
>>> b = Edge.press(1, Button.PILE1, 1_000_100).delivered(1_200_000)  # seen first
>>> judge_race(Rules(race_window_ms=2), a, b).winner
0
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from game.cards import ALL_CARDS, Card
from game.edges import Button, Edge
from game.engine import Game
from game.events import LateEdge, Played
from game.referee import Referee
from game.rules import Rules

_SIX_A, _SIX_B, _FIVE = Card.parse("6H"), Card.parse("6D"), Card.parse("5S")
_LEAD_NS = 1_000_000
"""The slot selections come this long before the earlier press (and the position starts
before them)."""


@dataclass(frozen=True, slots=True)
class RaceVerdict:
    """One judged race: the player whose play was accepted (``None``: neither, e.g. a
    press missing), and how many of its presses the referee took as late."""

    winner: int | None
    late: int


def race_position(rules: Rules, t_ns: int) -> Game:
    """Both players' slot 1 holds a six, the left pile shows a five: whoever plays first
    takes it, and the other's six no longer fits (beaten)."""
    rest = Counter({card: 2 for card in ALL_CARDS})
    for card in (_SIX_A, _SIX_B, _FIVE):
        rest[card] -= 1
    others = [c for c in ALL_CARDS for _ in range(rest[c])]
    right_pile = others.pop()
    layouts = ([_SIX_A, *others[0:3]], [_SIX_B, *others[3:6]])
    decks = (others[6:55], others[55:])
    return Game.from_position(
        decks=decks, layouts=layouts, piles=([_FIVE], [right_pile]), rules=rules, t_ns=t_ns
    )


def judge_race(rules: Rules, *presses: Edge, tie_seed: int = 0) -> RaceVerdict:
    """The race between ``presses`` (pile-1 presses, each with ``delivered_ns`` set),
    taken in delivery order as the cabinet takes them."""
    if not presses:
        return RaceVerdict(None, 0)
    earliest = min(e.t_ns for e in presses)
    start = earliest - 2 * _LEAD_NS
    game = race_position(rules, start)
    referee = Referee(game, tie_rng=random.Random(tie_seed), start_ns=start)
    events = []
    for player in sorted({e.player for e in presses}):
        select = Edge.press(player, Button.SLOT1, earliest - _LEAD_NS)
        events += referee.take(select, select.t_ns)
    for edge in sorted(presses, key=_delivered):
        events += referee.take(edge, max(_delivered(edge), referee.now_ns))
    events += referee.tick(
        max(referee.now_ns, _delivered(max(presses, key=_delivered))) + referee.window_ns + 1
    )
    played = next((e for e in events if isinstance(e, Played)), None)
    late = sum(1 for e in events if isinstance(e, LateEdge))
    return RaceVerdict(None if played is None else played.player, late)


def _delivered(edge: Edge) -> int:
    return edge.t_ns if edge.delivered_ns is None else edge.delivered_ns
