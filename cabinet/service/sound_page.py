"""The sound test: each effect on demand, at the volume set."""

from __future__ import annotations

from collections.abc import Callable

from cabinet.service.kit import Item, ListPage, Menu
from cabinet.service.screen import Tone
from cabinet.sound import EFFECTS
from cabinet.storage.setting_table import VOLUME


class SoundTestPage(ListPage):
    title_key = "service.tests.sound"

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        sounds = menu.context.sounds
        volume = menu.store.settings.get(VOLUME)

        def player(name: str) -> Callable[[int], None]:
            def play(now: int) -> None:
                sounds.volume_percent = menu.store.settings.get(VOLUME)
                sounds.play(name)

            return play

        items = [Item(tr.t(f"service.sound.{name}"), select=player(name)) for name in EFFECTS]
        items.append(Item(tr.t("service.setting.volume"), f"{volume} %", tone=Tone.HEAD))
        return items

    def hint(self, menu: Menu, item: Item | None) -> str:
        if not menu.context.sounds.available:
            return menu.tr.t("service.sound.no_device")
        return ""
