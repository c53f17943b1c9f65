"""The settings table is the one source of defaults: the dataclasses the display process
runs on start from exactly what a cabinet with no stored settings has."""

from __future__ import annotations

import dataclasses

from cabinet.display.app_settings import AppSettings
from cabinet.display.flow import FlowSettings
from cabinet.storage.settings import Settings
from game.rules import Rules


def test_every_dataclass_default_equals_the_settings_table() -> None:
    from_table = AppSettings.from_stored(Settings())
    assert AppSettings() == from_table
    assert FlowSettings() == from_table.flow
    assert Rules() == from_table.flow.rules


def test_the_comparison_sees_a_changed_default() -> None:
    """Equality looks at every field: one setting off by one makes them differ."""
    from_table = AppSettings.from_stored(Settings())
    assert dataclasses.replace(from_table, hints=not from_table.hints) != AppSettings()
    for name in ("join_wait_s", "idle_timeout_s", "cpu_level"):
        changed = dataclasses.replace(from_table.flow, **{name: getattr(from_table.flow, name) + 1})
        assert changed != FlowSettings()
