"""The writer of the power-cut test (``test_power_cut.py``): records games and saves
settings in a loop until killed.

Run as ``python -m tests.cabinet.storage.power_cut_writer DATA_DIR RUN`` from the
repository. It prints, each line flushed only after its transaction returned::

    ready                    the store is open; the loop starts
    game <id>                game <id> and its audits are committed
    attempt <volume>         about to save the settings with this volume
    volume <volume>          that save is committed
    problem <message>        opening found a problem (the test fails on it)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from cabinet.storage.setting_table import RECORDS_KEPT, VOLUME
from cabinet.storage.store import CabinetStore
from game.bots import level
from game.cpu_match import play_cpu_game

KEEP = 2_000
"""More than the test ever writes, so every committed game must still be there."""


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    data, run = Path(argv[0]), int(argv[1])
    games = [play_cpu_game(seed, (level(2), level(5))) for seed in range(3)]
    store = CabinetStore.open(data)
    for problem in store.problems:
        say(f"problem {problem.message}")
    if store.settings.get(RECORDS_KEPT) != KEEP:
        store.settings.set(RECORDS_KEPT, KEEP)
        store.save_settings()
    store.power_on(time.monotonic_ns())
    say("ready")
    i = 0
    while True:
        if i % 5 == 4:
            volume = (run * 7 + i) % 101
            say(f"attempt {volume}")
            store.settings.set(VOLUME, volume)
            store.save(now_ns=time.monotonic_ns())
            say(f"volume {volume}")
        else:
            game = games[i % len(games)]
            game_id = store.record_game(game.record, game.summary, now_ns=time.monotonic_ns())
            say(f"game {game_id}")
        i += 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
