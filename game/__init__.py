"""Spit (also called Speed) as a library: the rules engine, the referee that decides
races by the presses' own timestamps, CPU players, and match records that replay to the
same result. Pure Python, the standard library only; the rules are docs/rules.md.

A game between two CPU players, and its record replayed:

>>> from game import Rules, level, play_cpu_game, replay
>>> played = play_cpu_game(7, (level(3), level(4)))
>>> again = replay(played.record)
>>> again.summary() == played.summary
True
>>> played.record.rules == Rules()
True

A game of people: :class:`LiveMatch` takes each button :class:`Edge` at its delivery time
and holds it for the race window (R10) before the :class:`Game` sees it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.bots import Level, level
    from game.cards import Card, Suit, parse_cards, shuffled_deck
    from game.cpu_match import CpuGame, play_cpu_game
    from game.edges import Button, Edge, EdgeKind
    from game.engine import Game
    from game.events import Outcome, Termination
    from game.live_match import LiveMatch
    from game.record import MatchRecord, RecordError, replay
    from game.record_parts import RecordMeta, RecordResult
    from game.referee import Referee
    from game.rules import Rules, TieRule
    from game.summary import GameSummary

# Where each public name lives: loaded on first use (PEP 562), so that a command that
# needs one module (``spit-cabinet replay`` reads a record) does not pay for the CPU
# players and the rest at start.
_HOMES = {
    "Button": "game.edges",
    "Card": "game.cards",
    "CpuGame": "game.cpu_match",
    "Edge": "game.edges",
    "EdgeKind": "game.edges",
    "Game": "game.engine",
    "GameSummary": "game.summary",
    "Level": "game.bots",
    "LiveMatch": "game.live_match",
    "MatchRecord": "game.record",
    "Outcome": "game.events",
    "RecordError": "game.record",
    "RecordMeta": "game.record_parts",
    "RecordResult": "game.record_parts",
    "Referee": "game.referee",
    "Rules": "game.rules",
    "Suit": "game.cards",
    "Termination": "game.events",
    "TieRule": "game.rules",
    "level": "game.bots",
    "parse_cards": "game.cards",
    "play_cpu_game": "game.cpu_match",
    "replay": "game.record",
    "shuffled_deck": "game.cards",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'game' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # the next lookup is an ordinary one
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "Button",
    "Card",
    "CpuGame",
    "Edge",
    "EdgeKind",
    "Game",
    "GameSummary",
    "Level",
    "LiveMatch",
    "MatchRecord",
    "Outcome",
    "RecordError",
    "RecordMeta",
    "RecordResult",
    "Referee",
    "Rules",
    "Suit",
    "Termination",
    "TieRule",
    "level",
    "parse_cards",
    "play_cpu_game",
    "replay",
    "shuffled_deck",
]
