"""Shared fixtures for the storage tests: a data directory, a wall clock the test moves,
and real simulated games."""

from __future__ import annotations

import os

from game.bots import level
from game.cpu_match import CpuGame, play_cpu_game

# The key map setting loads pygame to check key names; keep its greeting out of outputs.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


_GAMES: dict[int, CpuGame] = {}


def cpu_game(seed: int) -> CpuGame:
    """A real CPU-vs-CPU game (levels 3 and 4), played once per seed per session."""
    if seed not in _GAMES:
        _GAMES[seed] = play_cpu_game(seed, (level(3), level(4)))
    return _GAMES[seed]
