"""The writer of the hall-of-fame power-cut test (``test_power_cut.py``): records games
that set records, and fills in initials, until killed.

Run as ``python -m tests.cabinet.halloffame.fame_writer DATA_DIR RUN``. It prints, each
line flushed after its transaction returned::

    game <game id> <entry id> <figure>   the game and its entry, committed together
    initials <entry id> <initials>       the entry's initials, committed
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from cabinet.halloffame.board import Candidate, Category
from cabinet.storage.store import CabinetStore
from game.bots import level
from game.cpu_match import play_cpu_game


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    data, run = Path(argv[0]), int(argv[1])
    game = play_cpu_game(run, (level(2), level(4)))
    store = CabinetStore.open(data)
    k = 0
    while True:
        # Each a new best (more plays): it makes the board and pushes the oldest off.
        figure = 1000 + run * 10_000 + k
        game_id = store.record_game(
            game.record, game.summary, places=[Candidate(0, Category.MOST_PLAYS, figure)]
        )
        for place in store.fame_entries_of(game_id):
            entry_id, stored = place.entry_id, place.figure
            say(f"game {game_id} {entry_id} {stored}")
            initials = "ABCDEFGHIJ"[k % 10] * 3
            store.set_initials(entry_id, initials)
            say(f"initials {entry_id} {initials}")
        k += 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
