"""Numbers, times and names as the menu shows them (in the menu's language)."""

from __future__ import annotations

from datetime import datetime

from cabinet.i18n import Translator
from cabinet.inputs.controls import Control
from game.edges import Button
from game.units import MS


def control_label(tr: Translator, control: Control) -> str:
    """``Player 1 · Slot 1``; TEST and SERVICE as printed on their buttons; ``Coin 1``."""
    player, button = control.player, control.button
    if control.is_coin:
        return tr.t("service.input.coin", n=int(control.name[-1]))
    if player is None or button is None:
        return control.name.upper()
    return f"{tr.t('play.player', player=player + 1)} · {button_label(tr, button)}"


def button_label(tr: Translator, button: Button) -> str:
    """ "Slot 2", "Pile 1": a button as players read it."""
    return tr.t("button.pile" if button.is_pile else "button.slot", n=button.index + 1)


def duration(ms: float | None) -> str:
    """``1:05`` (minutes:seconds) under an hour, ``2 h 05 min`` beyond; ``–`` for none."""
    if ms is None:
        return "–"
    seconds = int(ms // 1000)
    if seconds < 3600:
        return f"{seconds // 60}:{seconds % 60:02d}"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def stamp_ms(tr: Translator, t_ns: int, places: int = 3) -> str:
    """A timestamp as milliseconds with ``places`` decimals (``500.001``): a replay's
    times count from the game's start, so a microsecond shows."""
    return tr.decimal(t_ns / MS, places)


def when(moment: datetime) -> str:
    """A date and time as the operator reads it: ``2025-03-01 12:00`` (local time)."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")
