"""The Fleet page: the link to the operator's fleet as ``spit-cabinet fleet status`` says
it (joined or not, connected, queued, last acknowledged, the last error, what the outbox
dropped) and the buttons reported as missing switches. Read only: joining and leaving
are done with the command, from the operator's stick."""

from __future__ import annotations

from cabinet.link.status import LinkStatus, read_status
from cabinet.service.kit import Item, ListPage, Menu
from cabinet.service.screen import Tone
from game.units import S


class FleetPage(ListPage):
    title_key = "service.main.fleet"

    def __init__(self) -> None:
        super().__init__()
        self._status: LinkStatus | None = None
        self._read_ns: int | None = None

    def _current(self, menu: Menu, now_ns: int) -> LinkStatus:
        # Once a second: the page is drawn every frame, the outbox counted each read.
        if self._status is None or self._read_ns is None or now_ns - self._read_ns >= S:
            self._status = read_status(menu.store.db.connection)
            self._read_ns = now_ns
        return self._status

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        state = self._current(menu, now_ns)
        missing = ", ".join(menu.store.missing_switches) or tr.t("service.value.none")
        switches = Item(
            tr.t("service.fleet.missing_switches"),
            missing,
            tone=Tone.WARN if menu.store.missing_switches else Tone.NORMAL,
        )
        if state.join is None:
            return [Item(tr.t("service.main.fleet"), tr.t("service.fleet.none")), switches]
        dropped = sum(state.dropped.values())
        return [
            Item(tr.t("service.main.fleet"), state.join.fleet),
            Item(tr.t("service.fleet.cabinet"), f"{state.join.cabinet} · {state.join.location}"),
            Item(
                tr.t("service.fleet.connected"),
                tr.t("service.value.on" if state.connected else "service.value.off"),
                tone=Tone.NORMAL if state.connected else Tone.WARN,
            ),
            Item(tr.t("service.fleet.queued"), str(state.queued)),
            Item(tr.t("service.fleet.acked"), str(state.acked)),
            Item(tr.t("service.fleet.error"), state.error or tr.t("service.value.none")),
            Item(
                tr.t("service.fleet.dropped"),
                str(dropped),
                tone=Tone.WARN if dropped else Tone.NORMAL,
            ),
            switches,
        ]
