"""Screenshots of the cabinet's real screens, made headless, for the README and docs.

    python scripts/screenshots.py [OUT_DIR]      # default: docs/screenshots

Each screen is the real cabinet (``CabinetApp``) on SDL's dummy video driver, driven by a
virtual clock and simulated presses: attract, join, play in both orientations, game over,
the service menu, a paid cabinet (attract with credits, the Pricing page and the money
audits), and the hall of fame (entering initials after a game, and its turn in attract).
The same seed gives the same pictures.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from cabinet.display.app import CabinetApp
from cabinet.display.app_settings import AppSettings
from cabinet.display.flow import FlowSettings
from cabinet.display.frame_loop import FRAME_NS
from cabinet.display.games import StoredGames
from cabinet.display.parts import CabinetParts
from cabinet.drawing.fame_views import FameBoardView
from cabinet.drawing.geometry import Orientation
from cabinet.inputs.controls import COIN1, Control
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from cabinet.service.bookkeeping import AuditGroupPage
from cabinet.service.money_pages import PricingPage
from cabinet.shared.phase import Phase
from cabinet.storage.audits import AuditGroup
from cabinet.storage.pricing_settings import FREE_PLAY, UNITS_PER_CREDIT
from cabinet.storage.store import CabinetStore
from cabinet.table.autoplay import AutoPlayers
from game.edges import Button
from game.units import S

SIZE = (1280, 720)
PHOTO_TIME = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
"""The wall clock of the paid cabinet's books (their "last cleared" line)."""


class Shoot:
    """One cabinet on a virtual clock, with simulated people."""

    def __init__(
        self, orientation: Orientation, seed: int = 7, store: CabinetStore | None = None
    ) -> None:
        self.screen = pygame.display.set_mode(SIZE)
        self.now = 10**12
        self.edges = EdgeQueue()
        settings = AppSettings(
            flow=FlowSettings(join_wait_s=3, game_over_s=30), orientation=orientation
        )
        self.app = CabinetApp(
            self.screen,
            self.edges,
            settings,
            CabinetParts(
                store=store,
                games=StoredGames(store) if store is not None else None,
            ),
            clock=lambda: self.now,
            threaded=False,
            seed=seed,
        )
        self.people = AutoPlayers(self._press, seed=seed, join_after_ns=10**18)

    def _press(self, control: Control, pressed: bool, t_ns: int) -> None:
        self.edges.put(RawEdge(control, pressed, t_ns))

    def run(self, seconds: float, until: Callable[[], bool] | None = None) -> None:
        end = self.now + int(seconds * S)
        while self.now < end and not (until is not None and until()):
            self.now += FRAME_NS
            self.people.act(self.now, self.app.flow.phase, self.app.flow.match)  # type: ignore[arg-type]
            self.app.step(self.now)

    def join(self, *players: int) -> None:
        for player in players:
            self.people.tap(Control(player, Button.PILE1), self.now)
        self.run(0.3)

    def coin(self) -> None:
        """A coin in mechanism 1: its line low for 60 ms."""
        self.edges.put(RawEdge(COIN1, True, self.now))
        self.edges.put(RawEdge(COIN1, False, self.now + 60_000_000))
        self.run(0.3)

    def save(self, path: Path) -> None:
        pygame.image.save(self.screen, str(path))
        print(path)


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    pygame.font.init()
    shoot_a_game(out)
    shoot_cocktail(out)
    shoot_service_menu(out)
    shoot_paid_cabinet(out)
    shoot_hall_of_fame(out)
    pygame.display.quit()
    return 0


def shoot_a_game(out: Path) -> None:
    """Attract, a player joining, play (upright) and the game over screen, in one game of
    two simulated people."""
    shoot = Shoot(Orientation.UPRIGHT)
    shoot.run(12)
    shoot.save(out / "attract.png")
    shoot.join(0)
    shoot.run(1)
    shoot.save(out / "join.png")
    shoot.join(1)
    shoot.run(25)
    shoot.save(out / "play-upright.png")
    shoot.run(600, until=lambda: shoot.app.flow.phase is Phase.GAME_OVER)
    shoot.run(1)
    shoot.save(out / "game-over.png")


def shoot_cocktail(out: Path) -> None:
    """Play on a cocktail cabinet (the players face each other)."""
    cocktail = Shoot(Orientation.COCKTAIL, seed=8)
    cocktail.run(2)
    cocktail.join(0, 1)
    cocktail.run(20)
    cocktail.save(out / "play-cocktail.png")


def shoot_service_menu(out: Path) -> None:
    """The service menu's first page, on a cabinet with a store of its own."""
    with tempfile.TemporaryDirectory() as data:
        store = CabinetStore.open(Path(data))
        menu = Shoot(Orientation.UPRIGHT, seed=9, store=store)
        menu.run(1)
        menu.app.open_service(menu.now)
        menu.run(0.5)
        menu.save(out / "service-menu.png")
        store.close()


def shoot_paid_cabinet(out: Path) -> None:
    """A cabinet set to 2 coins a credit, after three coins: attract with its credits, the
    Pricing page and the money audits."""
    with tempfile.TemporaryDirectory() as data:
        store = CabinetStore.open(Path(data), wall_clock=lambda: PHOTO_TIME)
        store.settings.set(FREE_PLAY, False)
        store.settings.set(UNITS_PER_CREDIT, 2)
        store.save_settings()
        paid = Shoot(Orientation.UPRIGHT, seed=10, store=store)
        paid.run(1)
        for _ in range(3):
            paid.coin()
        paid.run(10.2)  # the prompt shown, not blinked off
        paid.save(out / "attract-paid.png")
        paid.app.open_service(paid.now)
        service = paid.app.service
        assert service is not None
        service.push(PricingPage())
        paid.run(0.5)
        paid.save(out / "service-pricing.png")
        service.pop(paid.now)
        service.push(AuditGroupPage(AuditGroup.MONEY))
        paid.run(0.5)
        paid.save(out / "service-money.png")
        store.close()


def shoot_hall_of_fame(out: Path) -> None:
    """The hall of fame: a player entering initials after beating the CPU, then the board
    in its turn in attract."""
    with tempfile.TemporaryDirectory() as data:
        store = CabinetStore.open(Path(data), wall_clock=lambda: PHOTO_TIME)
        fame = Shoot(Orientation.UPRIGHT, seed=11, store=store)
        fame.run(1)
        fame.join(0)  # against the CPU
        fame.run(900, until=lambda: fame.app.flow.phase is Phase.INITIALS)
        fame.run(0.3)
        for button in (Button.SLOT1, Button.PILE1, Button.SLOT2, Button.SLOT2):
            fame.people.tap(Control(0, button), fame.now)
            fame.run(0.2)
        fame.save(out / "initials.png")
        for button in (Button.PILE1, Button.SLOT1, Button.SLOT1, Button.PILE1):
            fame.people.tap(Control(0, button), fame.now)
            fame.run(0.2)
        fame.run(60, until=lambda: isinstance(fame.app.last_view, FameBoardView))
        fame.run(0.5)
        fame.save(out / "attract-fame.png")
        store.close()


if __name__ == "__main__":
    sys.exit(main())
