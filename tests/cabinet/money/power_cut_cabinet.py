"""The cabinet of the money power-cut test (``test_power_cut.py``): plays games and takes
coins until it is killed.

Run as ``python -m tests.cabinet.money.power_cut_cabinet DATA_DIR SEED [--crash NAME:N]
[--plant credit-before-commit] [--drain]`` from the repository. It is a whole headless
cabinet (:class:`cabinet.display.app.CabinetApp`, the dummy video driver) on a virtual clock, with
both coin lines and the SERVICE button on gpiozero mock pins driven by timed pulses (a
seeded mix of good coins, too short and too long pulses, service credits), two simulated
players who start a game with their pile buttons whenever the credits cover it, and the
meter on a mock output pin. Coins come only while the keeper lets them in (the lockout).
It prints, each line flushed after what it says happened::

    ready <units_in> <meter_owed>   the store is open (the counts found)
    pulse <mech> <ms>               a coin line's pulse is about to end
    step <name> <coins> <units_in> <meter_done> <credits_spent>
                                    the keeper passed a checkpoint (counts as committed)
    drained <meter_done>            --drain: every owed meter pulse was given

``--crash NAME:N`` sends itself SIGKILL at the N-th time the keeper reaches checkpoint
NAME (``coin-seen``, ``coin-committed``, ``meter-started``, ``meter-ended``,
``meter-committed``, ``paid``); the test also kills it from outside. ``--plant
credit-before-commit`` runs a keeper with a planted bug: it keeps the credit before the
coin is committed.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
from gpiozero.pins.mock import MockFactory

from cabinet.display.app import CabinetApp
from cabinet.display.app_settings import AppSettings
from cabinet.display.games import StoredGames
from cabinet.display.parts import CabinetParts
from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.controls import COIN1, COIN2, SERVICE, Control
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.gpio import DEFAULT_PINS
from cabinet.inputs.mock import MockInput
from cabinet.money.coins import Coin
from cabinet.money.keeper import MoneyKeeper, MoneyStep
from cabinet.money.ledger import Ledger
from cabinet.money.outputs import GpioCoinLines
from cabinet.sound import SoundBoard
from cabinet.storage.pricing_settings import (
    BONUS_CREDITS,
    BONUS_UNITS,
    COIN2_UNITS,
    FREE_PLAY,
    MAX_CREDITS,
)
from cabinet.storage.setting_table import IDLE_TIMEOUT_S, JOIN_CPU_WAIT_S
from cabinet.storage.store import CabinetStore
from cabinet.table.autoplay import AutoPlayers
from game.edges import Button
from game.units import MS

FRAME = 16_666_667
COIN2_GPIO = 7
"""Coin 2 on SPI0's GPIO7, as docs/pricing.md wires it."""


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


CREDIT_GRANTED = "credit-granted"
"""The planted keeper's own step, between its two commits."""


class PlantedKeeper(MoneyKeeper):
    """The planted bug: the credit is kept (committed) before the coin is."""

    def _coin(self, coin: Coin) -> None:
        self.checkpoint(MoneyStep.COIN_SEEN)
        before = self.ledger
        units = self.pricing.units_of(coin.mech)
        after = before.insert(coin.mech, self.pricing, units=units, pending=self.in_service)
        credit_only = dataclasses.replace(
            before,
            credits=after.credits,
            credits_paid=after.credits_paid,
            credits_bonus=after.credits_bonus,
            bonus_progress=after.bonus_progress,
        )
        self._commit(credit_only)
        self.checkpoint(CREDIT_GRANTED)
        self._commit(after, self._counted(coin.mech, units, before, after))
        self.checkpoint(MoneyStep.COIN_COMMITTED)
        self.meter.queue(units)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    parser.add_argument("seed", type=int)
    parser.add_argument("--crash", default=None)
    parser.add_argument("--plant", choices=("credit-before-commit",), default=None)
    parser.add_argument("--drain", action="store_true")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    store = priced_store(Path(args.data))
    factory = MockFactory()
    lines = GpioCoinLines(21, None, pin_factory=factory)
    keeper_type = PlantedKeeper if args.plant else MoneyKeeper
    keeper = keeper_type(store, lines=lines, checkpoint=crashing_checkpoint(store, args.crash))
    say(f"ready {keeper.ledger.units_in} {keeper.ledger.meter_owed}")
    cabinet = HeadlessCabinet.open(store, keeper, args.seed)
    if args.drain:
        cabinet.drain()
        return 0
    cabinet.play(rng)


def priced_store(data: Path) -> CabinetStore:
    """The store in ``data``; on the first run (free play), set to take coins: coin 2
    worth 3 units, a bonus credit every 4, at most 12 credits, short idle and join
    times."""
    store = CabinetStore.open(data)
    if store.settings.get(FREE_PLAY):
        for setting, value in (
            (FREE_PLAY, False),
            (COIN2_UNITS, 3),
            (BONUS_UNITS, 4),
            (BONUS_CREDITS, 1),
            (MAX_CREDITS, 12),
            (IDLE_TIMEOUT_S, 15),
            (JOIN_CPU_WAIT_S, 3),
        ):
            store.settings.set(setting, value)
        store.save_settings()
    return store


def crashing_checkpoint(
    store: CabinetStore, crash: str | None
) -> Callable[[MoneyStep | str], None]:
    """The keeper's checkpoint: says the counts as committed in ``store``, and sends this
    process SIGKILL at ``crash`` (``NAME:N``: the N-th time at checkpoint NAME)."""
    crash_name, _, crash_n = (crash or "::").partition(":")
    counts: dict[str, int] = {}

    def checkpoint(step: MoneyStep | str) -> None:
        name = step.value if isinstance(step, MoneyStep) else step
        ledger = Ledger.from_rows(store.money)
        say(
            f"step {name} {ledger.coins1 + ledger.coins2} {ledger.units_in} "
            f"{ledger.meter_done} {ledger.credits_spent}"
        )
        counts[name] = counts.get(name, 0) + 1
        if name == crash_name and str(counts[name]) == crash_n:
            os.kill(os.getpid(), signal.SIGKILL)

    return checkpoint


@dataclasses.dataclass
class HeadlessCabinet:
    """The cabinet on the dummy video driver and a virtual clock, its coin lines and
    buttons on mock pins, and two simulated players."""

    app: CabinetApp
    keeper: MoneyKeeper
    clock: VirtualClock
    mock: MockInput
    players: AutoPlayers

    @classmethod
    def open(cls, store: CabinetStore, keeper: MoneyKeeper, seed: int) -> HeadlessCabinet:
        pygame.display.init()
        screen = pygame.display.set_mode((320, 240))
        clock = VirtualClock(10**12)
        edges = EdgeQueue()
        mock = MockInput(edges, pins={**DEFAULT_PINS, COIN2: COIN2_GPIO}, clock=clock)
        mock.open()
        players = AutoPlayers(
            lambda control, pressed, t: mock.change(control, pressed, t),
            skill=5,
            seed=seed,
            join_after_ns=10**18,  # the players below start games themselves, when paid for
        )
        app = CabinetApp(
            screen,
            edges,
            AppSettings.from_stored(store.settings),
            CabinetParts(
                store=store,
                games=StoredGames(store),
                sounds=SoundBoard.silent(),
                money=keeper,
            ),
            clock=clock,
            threaded=False,
            seed=seed,
        )
        return cls(app, keeper, clock, mock, players)

    def drain(self) -> None:
        """Run frames until every owed meter pulse is given; say so."""
        while self.keeper.ledger.meter_owed:
            self.app.step(self.clock.advance(FRAME))
        say(f"drained {self.keeper.ledger.meter_done}")

    def play(self, rng: random.Random) -> NoReturn:
        """Run frames for ever: coins and SERVICE presses at seeded moments while the keeper
        lets them in, and a game started whenever the credits cover it."""
        app, keeper, clock, mock = self.app, self.keeper, self.clock, self.mock
        pulse: tuple[Control, int] | None = None  # a line low, and when it comes up
        next_at = clock() + 200 * MS
        while True:
            now = clock.advance(FRAME)
            if pulse is not None and now >= pulse[1]:
                mock.release(pulse[0], pulse[1])
                pulse = None
            elif pulse is None and now >= next_at and keeper.accepting:  # the lockout
                pulse = self.coin_or_service(rng, now)
                next_at = now + rng.randrange(150, 1500) * MS
            flow = app.flow
            if flow.phase.value == "attract" and keeper.credits >= 2:
                for player in (0, 1):
                    mock.press(Control(player, Button.PILE1), now + player * MS)
                    mock.release(Control(player, Button.PILE1), now + (60 + player) * MS)
            self.players.act(now, flow.phase, flow.match)  # type: ignore[arg-type]
            app.step(now)

    def coin_or_service(self, rng: random.Random, now: int) -> tuple[Control, int] | None:
        """A SERVICE press (one time in ten), or a coin line pulled low for a seeded length
        (said first); returns the line and when it comes up."""
        roll = rng.random()
        if roll < 0.1:
            self.mock.press(SERVICE, now)
            self.mock.release(SERVICE, now + 50 * MS)
            return None
        line = COIN1 if roll < 0.7 else COIN2
        length = rng.choice((5, 30, 60, 60, 60, 120, 140, 300))
        say(f"pulse {line.name[-1]} {length}")
        self.mock.press(line, now)
        return (line, now + length * MS)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
