"""The settings pages: every setting of the storage table, changed with its own
``step()`` and checked by its own validation; and the editors for the three settings that
do not step (the operator PIN, the LED port, the keyboard map).

Changes go to ``store.settings`` at once (the menu speaks a new language at once) and are
saved, in one transaction, when the operator leaves the menu.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cabinet.i18n import LANGUAGE_NAMES, Translator
from cabinet.inputs.controls import ALL_CONTROLS, Control
from cabinet.inputs.debounce import OperatorEdge
from cabinet.inputs.feed import FeedEvent
from cabinet.money.pricing import money_text
from cabinet.service.effects import NEXT_START
from cabinet.service.format import control_label
from cabinet.service.keys import MenuKey, pin_digit
from cabinet.service.kit import ConfirmPage, Item, ListPage, Menu, Page
from cabinet.service.screen import MenuScreen, Row, Tone
from cabinet.storage.pricing_settings import CURRENCY
from cabinet.storage.setting_table import in_group
from cabinet.storage.setting_types import (
    AUTO,
    KeyMapOverrides,
    Pin,
    SerialPort,
    Setting,
    SettingGroup,
    SettingValueError,
)

_GROUPS: dict[SettingGroup, tuple[SettingGroup, ...]] = {
    SettingGroup.GAME: (SettingGroup.GAME,),
    SettingGroup.CABINET: (SettingGroup.CABINET, SettingGroup.OPERATOR),
    SettingGroup.PRICING: (SettingGroup.PRICING,),
}
"""The operator's own settings (PIN, games kept) are listed with the cabinet's."""

_UNITS = {"ms": "ms", "s": "s", "%": "%"}


def setting_label(tr: Translator, setting: Setting[Any]) -> str:
    return tr.t(f"service.setting.{setting.name}")


def value_text(tr: Translator, setting: Setting[Any], value: Any, currency: str = "") -> str:
    """A setting's value as the menu shows it, in the menu's language (an amount of money
    in ``currency``)."""
    name = setting.name
    if isinstance(setting, Pin):
        return (
            tr.t("service.value.pin_set", count=len(value)) if value else tr.t("service.value.none")
        )
    if isinstance(setting, KeyMapOverrides):
        return tr.t("service.value.keys_changed", count=len(value))
    if value == AUTO:
        return tr.t("service.value.auto")
    if name == "bonus_units" and value == 0:
        return tr.t("service.value.off")
    if isinstance(value, bool):
        return tr.t("service.value.on" if value else "service.value.off")
    if name == "language":
        return LANGUAGE_NAMES[value]
    if name == "best_of":
        return tr.t("gameover.best_of", n=value)
    if name == "cpu_level":
        return f"{value} · {tr.t(f'cpu.level.{value}')}"
    if name == "records_kept":
        return tr.t("service.value.games", count=value)
    if name in (
        "orientation",
        "tie_rule",
        "led_type",
        "input_backend",
        "display_backend",
        "price_per",
    ):
        return tr.t(f"service.value.{value}")
    unit_name = getattr(setting, "unit", "")
    if unit_name in ("units", "credits", "entries"):
        return tr.t(f"service.value.{unit_name}", count=value)
    if unit_name == "hundredths":
        return money_text(value, currency)
    unit = _UNITS.get(getattr(setting, "unit", ""), "")
    shown = tr.decimal(value, 1) if isinstance(value, float) else str(value)
    return f"{shown} {unit}".strip()


class SettingsPage(ListPage):
    """The game settings, or the cabinet's (with the operator's)."""

    def __init__(self, group: SettingGroup) -> None:
        super().__init__()
        self.group = group
        self.settings: tuple[Setting[Any], ...] = tuple(
            s for g in _GROUPS[group] for s in in_group(g)
        )

    def title(self, menu: Menu) -> str:
        return menu.tr.t(f"service.main.{self.group.value}")

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        values = menu.store.settings
        return [
            Item(
                setting_label(tr, s),
                value_text(tr, s, values.get(s), values.get(CURRENCY)),
                select=self._editor(menu, s),
                step=self._stepper(menu, s),
            )
            for s in self.settings
        ]

    def _stepper(self, menu: Menu, setting: Setting[Any]) -> Callable[[int], None] | None:
        if isinstance(setting, SerialPort):
            return lambda direction: step_port(menu, setting, direction)
        if not setting.steppable:
            return None

        def step(direction: int) -> None:
            settings = menu.store.settings
            settings.set(setting, setting.step(settings.get(setting), direction))

        return step

    def _editor(self, menu: Menu, setting: Setting[Any]) -> Callable[[int], None] | None:
        if isinstance(setting, Pin):
            return lambda now: menu.push(PinEditPage(setting))
        if isinstance(setting, KeyMapOverrides):
            return lambda now: menu.push(KeyMapPage(setting))
        return None

    def hint(self, menu: Menu, item: Item | None) -> str:
        index = self.cursor
        if index >= len(self.settings):
            return menu.tr.t("service.settings.saved_on_exit")
        setting = self.settings[index]
        if setting.name in NEXT_START:
            return f"{menu.tr.t('service.restart_note')} · {setting.description}"
        return setting.description


def step_port(menu: Menu, setting: Setting[Any], direction: int) -> None:
    """The LED port steps through *auto* and the serial devices present."""
    settings = menu.store.settings
    choices = [AUTO, *menu.context.serial_ports()]
    current = settings.get(setting)
    if current not in choices:
        choices.append(current)
    i = choices.index(current)
    settings.set(setting, choices[(i + direction) % len(choices)])


class PinEditPage(Page):
    """Key a new PIN on player 1's buttons; TEST saves it (none keyed: no PIN), SERVICE
    leaves it as it was."""

    captures_players = True

    def __init__(self, setting: Setting[str]) -> None:
        self.setting = setting
        self.entered = ""
        self.message = ""

    def feed(self, menu: Menu, item: FeedEvent, now_ns: int) -> None:
        if isinstance(item, OperatorEdge):
            return
        digit = pin_digit(item)
        if digit is not None and len(self.entered) < 8:
            self.entered += digit
            self.message = ""

    def key(self, menu: Menu, key: MenuKey, now_ns: int) -> None:
        if key is MenuKey.SELECT:  # TEST: keep it
            if not self.entered and menu.store.settings.get(self.setting):
                # Nothing keyed removes the PIN: destructive, so it asks first (No first).
                def remove(now: int) -> None:
                    menu.store.settings.set(self.setting, "")
                    menu.pop(now)

                question = menu.tr.t("service.confirm.remove_pin")
                menu.push(ConfirmPage(question, remove))
                return
            try:
                menu.store.settings.set(self.setting, self.entered)
            except SettingValueError:
                self.message = menu.tr.t("service.pin_edit.too_short")
                self.entered = ""
                return
            menu.pop(now_ns)
        elif key is MenuKey.NEXT:  # SERVICE: leave it
            menu.pop(now_ns)

    def screen(self, menu: Menu, now_ns: int) -> MenuScreen:
        tr = menu.tr
        return MenuScreen(
            setting_label(tr, self.setting),
            (Row(tr.t("service.pin.prompt"), self.entered or "–"),),
            None,
            tr.t("service.help.pin_edit"),
            self.message,
        )


class KeyMapPage(ListPage):
    """Each control's key; select one, then press its new key on the keyboard."""

    def __init__(self, setting: Setting[Any]) -> None:
        super().__init__()
        self.setting = setting
        self.listening: Control | None = None

    @property
    def wants_keys(self) -> bool:  # type: ignore[override]
        return self.listening is not None

    def title(self, menu: Menu) -> str:
        return setting_label(menu.tr, self.setting)

    def _names(self, menu: Menu) -> dict[str, str]:
        from cabinet.inputs.keyboard import KeyMap

        return KeyMap.from_names(menu.store.settings.get(self.setting)).names()

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        names = self._names(menu)
        rows = [
            Item(
                control_label(tr, c),
                names[c.name],
                select=self._listen(c),
            )
            for c in ALL_CONTROLS
        ]
        rows.append(Item(tr.t("service.keys.default"), select=self._defaults(menu), tone=Tone.WARN))
        return rows

    def _listen(self, control: Control) -> Callable[[int], None]:
        def listen(now_ns: int) -> None:
            self.listening = control
            self.notice = ""

        return listen

    def _defaults(self, menu: Menu) -> Callable[[int], None]:
        def reset(now_ns: int) -> None:
            menu.store.settings.reset(self.setting)

        return lambda now: menu.push(ConfirmPage(menu.tr.t("service.confirm.default_keys"), reset))

    def raw_key(self, menu: Menu, code: int, now_ns: int) -> None:
        import pygame

        control = self.listening
        if control is None:
            return
        self.listening = None
        overrides = dict(menu.store.settings.get(self.setting))
        overrides[control.name] = pygame.key.name(code)
        try:
            menu.store.settings.set(self.setting, overrides)
        except SettingValueError:
            self.notice = menu.tr.t("service.keys.refused")

    def key(self, menu: Menu, key: MenuKey, now_ns: int) -> None:
        if self.listening is not None:
            if key in (MenuKey.SELECT, MenuKey.NEXT):  # TEST or SERVICE: cancel
                self.listening = None
            return
        super().key(menu, key, now_ns)

    def feed(self, menu: Menu, item: FeedEvent, now_ns: int) -> None:
        return None

    def hint(self, menu: Menu, item: Item | None) -> str:
        if self.listening is not None:
            return menu.tr.t("service.keys.press", name=control_label(menu.tr, self.listening))
        return self.notice or menu.tr.t("service.restart_note")
