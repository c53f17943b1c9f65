"""Where each setting takes effect when the menu closes.

Most settings apply at once (:meth:`cabinet.display.app.CabinetApp.apply_settings`): the language
on the translator, orientation and resolution on the screen, volume and attract sound on
the sound board, brightness and hints on the lights, rules, CPU, join and idle times on
the flow (from the next game). The ones in :data:`NEXT_START` choose hardware that opens
once, at start: the menu says so, and they apply when the cabinet next starts.
"""

from __future__ import annotations

from cabinet.storage.setting_table import (
    DISPLAY_BACKEND,
    INPUT_BACKEND,
    KEYBOARD_MAP,
    LED_PORT,
    LED_TYPE,
)

NEXT_START: frozenset[str] = frozenset(
    s.name for s in (INPUT_BACKEND, DISPLAY_BACKEND, KEYBOARD_MAP, LED_PORT, LED_TYPE)
)
"""Settings that take effect at the next start."""
