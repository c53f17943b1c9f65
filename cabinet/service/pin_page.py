"""The PIN page: the operator keys the PIN on player 1's buttons before the menu opens."""

from __future__ import annotations

from cabinet.inputs.debounce import OperatorEdge
from cabinet.inputs.feed import FeedEvent
from cabinet.service.keys import MenuKey, pin_digit
from cabinet.service.kit import Menu, Page
from cabinet.service.pin import PinResult
from cabinet.service.screen import MenuScreen, Row
from cabinet.storage.setting_table import OPERATOR_PIN


class PinPage(Page):
    """Digits on player 1's buttons; TEST clears what was keyed, SERVICE cancels (back to
    the game). A right PIN shows the main page; three wrong ones lock for a minute."""

    captures_players = True

    def __init__(self) -> None:
        self.message = ""

    def feed(self, menu: Menu, item: FeedEvent, now_ns: int) -> None:
        if isinstance(item, OperatorEdge):
            return
        digit = pin_digit(item)
        if digit is None:
            return
        gate = menu.gate
        result = gate.key(digit, menu.store.settings.get(OPERATOR_PIN), now_ns)
        if result is PinResult.RIGHT:
            menu.pop(now_ns)  # the main page is under this one
        elif result is PinResult.WRONG:
            if gate.locked_s(now_ns):
                self.message = ""
            else:
                self.message = menu.tr.t("service.pin.wrong", count=gate.tries_left)

    def key(self, menu: Menu, key: MenuKey, now_ns: int) -> None:
        if key is MenuKey.SELECT:  # TEST: start again
            menu.gate.clear()
            self.message = ""
        elif key is MenuKey.NEXT:  # SERVICE: not now
            menu.gate.clear()
            menu.cancel(now_ns)

    def screen(self, menu: Menu, now_ns: int) -> MenuScreen:
        tr = menu.tr
        gate = menu.gate
        locked = gate.locked_s(now_ns)
        rows = [Row(tr.t("service.pin.prompt"), "●" * len(gate.entered) or "–")]
        notice = tr.t("service.pin.locked", seconds=locked) if locked else self.message
        return MenuScreen(
            tr.t("service.pin.title"),
            tuple(rows),
            None,
            tr.t("service.help.pin"),
            notice,
        )
