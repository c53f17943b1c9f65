"""Trace a scripted session frame by frame, to show that a change kept what players see.

A headless cabinet (SDL's dummy driver, a virtual clock, a seeded table, a store on disk
with a fixed wall clock) watches attract, two people join and play by scripted presses,
and the games go on to their ends, game over and the hall of fame. The players look at
the display list: at each seeded moment one of them mostly presses a slot whose card fits
a pile, then that pile, and now and then a button at random. For every frame it writes
one JSON line: the display list (each item's kind, rectangle, player, index, card, text,
rotation and style), the lights, the sounds started since the last frame, and a hash of
the screen's pixels.

Run it on two checkouts and compare the files::

    python scripts/frame_trace.py --seconds 150 --out before.jsonl   # in the old tree
    python scripts/frame_trace.py --seconds 150 --out after.jsonl    # in the new tree
    cmp before.jsonl after.jsonl

It finds its way round the one difference in how a cabinet is put together between
issue 22's tree and issue 23's (``CabinetParts`` and the package moves).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.controls import Control
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.mock import MockInput
from cabinet.sound import SoundBoard
from cabinet.storage.store import CabinetStore
from game.edges import Button

FRAME_NS = 1_000_000_000 // 60
T0 = 10**12
BUTTONS = (Button.SLOT1, Button.SLOT2, Button.SLOT3, Button.SLOT4, Button.PILE1, Button.PILE2)


def make_app(screen: pygame.Surface, edges: EdgeQueue, store: CabinetStore, clock: Any) -> Any:
    """The cabinet, as either tree builds one."""
    sounds = SoundBoard.silent()
    try:  # issue 23's tree: the display process in cabinet/display/, parts in one object
        from cabinet.display.app import CabinetApp
        from cabinet.display.app_settings import AppSettings
        from cabinet.display.games import StoredGames
        from cabinet.display.lights_output import LightsOutput
        from cabinet.display.parts import CabinetParts

        lights = LightsOutput()
        parts = CabinetParts(store=store, games=StoredGames(store), sounds=sounds, lights=lights)
        app = CabinetApp(
            screen,
            edges,
            AppSettings.from_stored(store.settings),
            parts,
            clock=clock,
            threaded=False,
            seed=7,
        )
    except ImportError:  # issue 22's tree
        from cabinet.app import CabinetApp
        from cabinet.app_settings import AppSettings
        from cabinet.lights_output import LightsOutput
        from cabinet.records import StoredRecords

        lights = LightsOutput()
        app = CabinetApp(
            screen,
            edges,
            AppSettings.from_stored(store.settings),
            clock=clock,
            threaded=False,
            seed=7,
            store=store,
            records=StoredRecords(store),
            sounds=sounds,
            lights=lights,
        )
    return app, sounds, lights


def item_json(item: Any) -> list[Any]:
    rect = item.rect
    box = [rect.x, rect.y, rect.w, rect.h] if hasattr(rect, "x") else list(rect)
    card = None if item.card is None else str(item.card)
    return [
        item.kind,
        box,
        item.player,
        item.index,
        card,
        item.text,
        item.rotation,
        list(item.style),
    ]


def lights_json(state: Any) -> Any:
    return repr(state)


def sound_json(played: Any) -> list[Any]:
    """A sound started (its effect's value: a string in one tree, an enum in the other)."""
    name = getattr(played.name, "value", played.name)
    return [name, played.in_attract, played.audible]


def fits(a: int, b: int) -> bool:
    """Whether ranks ``a`` and ``b`` are one apart (the ace on the king and the two)."""
    return abs(a - b) in (1, 12)


def presses(items: Any, rng: random.Random) -> list[Control]:
    """What one player presses next, seen from the display list: a slot whose card fits a
    pile and that pile, or (one time in five, or when nothing fits) one button at random."""
    player = rng.randrange(2)
    piles = {i.index: i.card for i in items if i.kind == "pile" and i.card is not None}
    slots = [i for i in items if i.kind == "slot" and i.player == player and i.card is not None]
    moves = [
        (slot.index, pile)
        for slot in slots
        for pile, card in sorted(piles.items())
        if fits(slot.card.rank, card.rank)
    ]
    if moves and rng.random() < 0.8:
        slot, pile = rng.choice(moves)
        return [Control(player, BUTTONS[slot]), Control(player, BUTTONS[4 + pile])]
    return [Control(player, rng.choice(BUTTONS))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=150.0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size", default="1280x720")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.split("x"))
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((width, height))
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as data:
        store = CabinetStore.open(Path(data), wall_clock=lambda: datetime(2025, 3, 1, tzinfo=UTC))
        clock = VirtualClock(T0)
        edges = EdgeQueue()
        mock = MockInput(edges, clock=clock)
        mock.open()
        app, sounds, lights = make_app(screen, edges, store, clock)
        heard = 0
        releases: list[tuple[int, Control]] = []
        next_press = T0 + 3 * 10**9
        frames = int(args.seconds * 60)
        with args.out.open("w", encoding="utf-8") as out:
            for frame in range(frames):
                now = clock.advance(FRAME_NS)
                for at, control in [r for r in releases if r[0] <= now]:
                    mock.release(control, at)
                    releases.remove((at, control))
                if now >= next_press:
                    for k, control in enumerate(presses(app.renderer.display_list, rng)):
                        at = now + k * 90_000_000
                        if all(c != control for _, c in releases):
                            mock.press(control, at)
                            releases.append((at + 60_000_000, control))
                    next_press = now + rng.randrange(150, 500) * 1_000_000
                app.step(now)
                played = list(sounds.played)
                new, heard = played[heard:] if len(played) >= heard else played, len(played)
                pixels = hashlib.sha256(pygame.image.tobytes(screen, "RGB")).hexdigest()[:16]
                line = {
                    "frame": frame,
                    "phase": str(getattr(app.flow, "phase", None)),
                    "items": [item_json(i) for i in app.renderer.display_list],
                    "lights": lights_json(lights.state),
                    "sounds": [sound_json(p) for p in new],
                    "pixels": pixels,
                }
                out.write(json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n")
        app.stop()
        mock.close()
        store.close()
    pygame.display.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
