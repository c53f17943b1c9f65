"""The hall of fame in the service menu: each category with its entries, cleared one
category at a time or all at once, each after a confirm that starts on *No*. Clearing is
saved at once (it is not a setting: leaving the menu does not undo it)."""

from __future__ import annotations

from collections.abc import Callable

from cabinet.halloffame.board import Category
from cabinet.halloffame.words import category_title
from cabinet.service.kit import ConfirmPage, Item, ListPage, Menu
from cabinet.service.screen import Tone


class HallOfFamePage(ListPage):
    title_key = "service.main.hall_of_fame"

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        board = menu.store.fame
        rows = [
            Item(
                category_title(tr, category),
                tr.t("service.value.entries", count=len(board.top(category))),
                select=self._clear(menu, category),
            )
            for category in Category
        ]
        rows.append(
            Item(tr.t("service.fame.clear_all"), select=self._clear(menu, None), tone=Tone.WARN)
        )
        return rows

    def _clear(self, menu: Menu, category: Category | None) -> Callable[[int], None]:
        tr = menu.tr

        def clear(now_ns: int) -> None:
            menu.store.clear_fame(category)
            self.notice = tr.t("service.fame.cleared")

        if category is None:
            question = tr.t("service.confirm.clear_fame_all")
        else:
            question = tr.t("service.confirm.clear_fame", name=category_title(tr, category))
        return lambda now: menu.push(ConfirmPage(question, clear))
