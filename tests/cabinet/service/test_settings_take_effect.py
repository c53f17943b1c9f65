"""Every setting takes effect where it should when the operator leaves the menu, and is
saved: one test per setting of the storage table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cabinet.commands.release import update_policy
from cabinet.i18n import Translator
from cabinet.money.keeper import MoneyKeeper
from cabinet.money.pricing import PricePer, Pricing
from cabinet.service.setting_pages import setting_label
from cabinet.storage import fleet_documents
from cabinet.storage.setting_table import SETTINGS, in_group
from cabinet.storage.setting_types import Setting, SettingGroup
from cabinet.storage.store import CabinetStore
from fleet.wire_down import SettingsDocument
from game.edges import Button
from game.rules import TieRule
from game.units import MS
from tests.cabinet.service.conftest import Cabinet

Check = Callable[[Cabinet], bool]


def rules(cab: Cabinet) -> Any:
    return cab.app.flow.settings.rules


def money(cab: Cabinet) -> MoneyKeeper:
    assert cab.app.money is not None
    return cab.app.money


def pricing(cab: Cabinet) -> Pricing:
    return money(cab).pricing


EFFECTS: dict[str, tuple[object, Check]] = {
    "spit_delay_ms": (1600, lambda c: rules(c).spit_delay_ms == 1600),
    "race_window_ms": (8.5, lambda c: rules(c).race_window_ms == 8.5),
    "beaten_window_ms": (550, lambda c: rules(c).beaten_window_ms == 550),
    "tie_rule": ("random", lambda c: rules(c).tie_rule is TieRule.RANDOM),
    "ace_wraps": (False, lambda c: rules(c).ace_wraps is False),
    "best_of": (3, lambda c: rules(c).best_of == 3),
    "button_hints": (False, lambda c: c.app.settings.hints is False),
    "cpu_opponent": (False, lambda c: c.app.flow.settings.cpu_allowed is False),
    "cpu_level": (4, lambda c: c.app.flow.settings.cpu_level == 4),
    "join_cpu_wait_s": (11, lambda c: c.app.flow.settings.join_wait_s == 11),
    "idle_timeout_s": (75, lambda c: c.app.flow.settings.idle_timeout_s == 75),
    "attract_sound": (True, lambda c: c.sounds.attract_sound is True),
    "language": ("it", lambda c: c.app.tr.language == "it"),
    "orientation": ("cocktail", lambda c: c.app.renderer.orientation.value == "cocktail"),
    "resolution": ("800x480", lambda c: c.app.screen.get_size() == (800, 480)),
    "volume": (85, lambda c: c.sounds.volume_percent == 85),
    "light_brightness": (
        5,
        lambda c: (
            c.app.settings.brightness_percent == 5
            and c.lights.state["p1_slot1"].colour[2] == 255 * 5 // 100
        ),  # attract's blue, dimmed
    ),
    "led_port": ("/dev/ttyACM7", lambda c: "led_port" in c.app.restart_needed),
    "led_type": ("pwm", lambda c: "led_type" in c.app.restart_needed),
    "input_backend": ("gpio", lambda c: "input_backend" in c.app.restart_needed),
    "display_backend": ("software", lambda c: "display_backend" in c.app.restart_needed),
    "keyboard_map": ({"p1.slot1": "q"}, lambda c: "keyboard_map" in c.app.restart_needed),
    "operator_pin": ("1234", lambda c: _asks_for_pin(c)),
    "records_kept": (10, lambda c: c.store.records.count() == 10),
    "missing_switch_games": (5, lambda c: _judges_missing_switches_at(c, 5)),
    "remote_settings": (True, lambda c: _takes_pricing_from_the_fleet(c)),
    "unsigned_updates": (True, lambda c: _lets_unsigned_updates_through(c)),
    "hall_of_fame": (False, lambda c: c.app.flow.settings.hall_of_fame is False),
    "hall_of_fame_size": (6, lambda c: c.store.fame.size == 6),
    "free_play": (False, lambda c: pricing(c).free_play is False),
    "units_per_credit": (2, lambda c: pricing(c).units_per_credit == 2),
    "credits_per_game": (2, lambda c: pricing(c).credits_per_game == 2),
    "price_per": ("match", lambda c: pricing(c).price_per is PricePer.MATCH),
    "cpu_game_costs": (False, lambda c: pricing(c).cpu_game_costs is False),
    "bonus_units": (1, lambda c: pricing(c).bonus_units == 1),
    "bonus_credits": (2, lambda c: pricing(c).bonus_credits == 2),
    "max_credits": (31, lambda c: pricing(c).max_credits == 31),
    "coin1_units": (2, lambda c: pricing(c).coin_units[0] == 2),
    "coin2_units": (3, lambda c: pricing(c).coin_units[1] == 3),
    "currency": ("USD", lambda c: pricing(c).currency == "USD"),
    "coin1_cents": (105, lambda c: pricing(c).coin_cents[0] == 105),
    "coin2_cents": (205, lambda c: pricing(c).coin_cents[1] == 205),
    "coin_pulse_min_ms": (25, lambda c: money(c).detector.min_ns == 25 * MS),
    "coin_pulse_max_ms": (160, lambda c: money(c).detector.max_ns == 160 * MS),
    "meter_on_ms": (60, lambda c: money(c).meter.on_ns == 60 * MS),
    "meter_off_ms": (60, lambda c: money(c).meter.off_ns == 60 * MS),
}


def _takes_pricing_from_the_fleet(cab: Cabinet) -> bool:
    """A route document setting a price, held by the link, reaches the running cabinet."""
    version = 1 + len(fleet_documents.decisions(cab.store.db.connection))  # newer each look
    document = SettingsDocument("route", version, None, "[pricing]\nmax_credits = 42\n")
    with cab.store.db.transaction() as conn:
        fleet_documents.hold(conn, document)
    cab.frames(1.1)  # the display looks once a second
    return pricing(cab).max_credits == 42


def _lets_unsigned_updates_through(cab: Cabinet) -> bool:
    """The updater's check (``spit-cabinet release verify``, reading the saved settings)
    now lets bare wheels through."""
    assert cab.store.path is not None
    return update_policy(cab.store.path.parent)[1]


def _asks_for_pin(cab: Cabinet) -> bool:
    cab.test()
    asked = cab.shown.title == "Operator PIN"
    if asked:
        cab.service()  # cancel
    else:
        cab.choose("Save and exit")
    assert not cab.app.in_service
    return asked


def test_every_setting_has_its_effect_test() -> None:
    assert set(EFFECTS) == {s.name for s in SETTINGS}


def _page(setting: Setting[Any]) -> str:
    if setting.group is SettingGroup.PRICING:
        return "Pricing"
    return "Game settings" if setting.group is SettingGroup.GAME else "Cabinet settings"


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.name)
def test_a_setting_changed_in_the_menu_takes_effect_on_leaving(
    setting: Setting[Any], cabinet: Cabinet, open_store: Callable[[], CabinetStore]
) -> None:
    cab = cabinet
    value, check = EFFECTS[setting.name]
    if setting.name == "records_kept":
        from tests.cabinet.service.test_books import record_cpu_games

        record_cpu_games(cab.store, 12)
    if setting.name == "resolution":
        import pygame

        cab.app._set_mode = lambda res: pygame.display.set_mode(
            tuple(int(v) for v in res.split("x"))
        )
    cab.frames(0.1)
    assert not check(cab), "the effect must not be there before the change"
    cab.test()
    cab.choose(_page(setting))
    cab.go_to(setting_label(Translator("en"), setting))
    if setting.steppable and setting.step(setting.default, 1) == value:
        cab.p1(Button.SLOT4)
    else:
        cab.store.settings.set(setting, value)
    assert cab.store.settings.get(setting) == setting.check(value)
    cab.p1(Button.PILE2)
    cab.p1(Button.PILE2)  # leave: saved and applied
    assert not cab.app.in_service
    cab.frames(0.1)
    assert check(cab)
    reopened = open_store()
    assert reopened.settings.get(setting) == setting.check(value)


def test_every_setting_is_on_a_page() -> None:
    listed = [*in_group(SettingGroup.GAME), *in_group(SettingGroup.CABINET)]
    listed += [*in_group(SettingGroup.OPERATOR), *in_group(SettingGroup.PRICING)]
    assert sorted(s.name for s in listed) == sorted(s.name for s in SETTINGS)


def _judges_missing_switches_at(c: Any, games: int) -> bool:
    """A button silent for ``games`` games is missing; one game fewer is not."""
    c.store.silence["p1.slot2"] = games - 1
    fewer = c.store.missing_switches
    c.store.silence["p1.slot2"] = games
    return fewer == [] and c.store.missing_switches == ["p1.slot2"]
