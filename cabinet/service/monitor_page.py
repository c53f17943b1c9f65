"""The monitor test: colour bars, a crosshatch and the safe area, upright or turned for
the far side of a cocktail table."""

from __future__ import annotations

from cabinet.service.keys import MenuKey
from cabinet.service.kit import Menu, Page
from cabinet.service.screen import MenuScreen

PATTERNS: tuple[str, ...] = ("bars", "crosshatch", "safe")


class MonitorTestPage(Page):
    """Slot 3/4 change the pattern; pile 1 or TEST turns it (upright / cocktail's far
    side); pile 2 or SERVICE goes back."""

    def __init__(self) -> None:
        self.pattern = 0
        self.turned = False

    def key(self, menu: Menu, key: MenuKey, now_ns: int) -> None:
        if key in (MenuKey.LEFT, MenuKey.UP):
            self.pattern = (self.pattern - 1) % len(PATTERNS)
        elif key in (MenuKey.RIGHT, MenuKey.DOWN):
            self.pattern = (self.pattern + 1) % len(PATTERNS)
        elif key is MenuKey.SELECT:
            self.turned = not self.turned
        elif key in (MenuKey.BACK, MenuKey.NEXT):
            menu.pop(now_ns)

    def screen(self, menu: Menu, now_ns: int) -> MenuScreen:
        tr = menu.tr
        pattern = PATTERNS[self.pattern]
        side = "service.value.cocktail" if self.turned else "service.value.upright"
        return MenuScreen(
            f"{tr.t(f'service.monitor.{pattern}')} · {tr.t(side)}",
            (),
            None,
            tr.t("service.help.monitor"),
            "",
            pattern=pattern,
            turned=self.turned,
        )
