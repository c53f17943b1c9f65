"""Bookkeeping: the audits, each counter since its group was last cleared and for the
cabinet's lifetime. A group can be cleared (after a confirm); lifetime totals cannot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cabinet.i18n import Translator
from cabinet.inputs.controls import REQUIRED_CONTROLS
from cabinet.money.pricing import money_text
from cabinet.service.format import control_label, duration, when
from cabinet.service.kit import ConfirmPage, Item, ListPage, Menu
from cabinet.service.screen import Tone
from cabinet.storage.audits import (
    AuditGroup,
    GameCounts,
    GroupAudit,
    HardwareCounts,
    MoneyCounts,
    PlayCounts,
    PowerCounts,
)
from cabinet.storage.pricing_settings import CURRENCY


class BookkeepingPage(ListPage):
    title_key = "service.main.bookkeeping"

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        return [
            Item(
                tr.t(f"service.audit.group.{g.value}"),
                tr.t("service.audit.cleared", value=when(menu.store.audits.group(g).cleared_at)),
                select=_opener(menu, g),
            )
            for g in AuditGroup
        ]


def _opener(menu: Menu, group: AuditGroup) -> Callable[[int], None]:
    return lambda now: menu.push(AuditGroupPage(group))


def _pair(current: object, lifetime: object) -> str:
    return f"{current} · {lifetime}"


class AuditGroupPage(ListPage):
    """One group's counters: *since cleared · lifetime*, and *Clear these counters*."""

    def __init__(self, group: AuditGroup) -> None:
        super().__init__()
        self.group = group

    def title(self, menu: Menu) -> str:
        return menu.tr.t(f"service.audit.group.{self.group.value}")

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        audit = menu.store.audits.group(self.group)
        rows = [
            Item(
                tr.t("service.audit.cleared", value=when(audit.cleared_at)),
                tr.t("service.audit.columns"),
                tone=Tone.HEAD,
            )
        ]
        counters = audit_rows(tr, menu.store.settings.get(CURRENCY), self.group, audit)
        rows.extend(Item(label, value, tone=Tone.HEAD) for label, value in counters)
        rows.append(Item(tr.t("service.audit.clear"), select=self._clear(menu), tone=Tone.WARN))
        return rows

    def _clear(self, menu: Menu) -> Callable[[int], None]:
        group = self.group

        def clear(now_ns: int) -> None:
            menu.store.clear_audits(group)

        question = menu.tr.t(
            "service.confirm.clear", name=menu.tr.t(f"service.audit.group.{group.value}")
        )
        return lambda now: menu.push(ConfirmPage(question, clear))


def _games(tr: Translator, currency: str, c: GameCounts, life: GameCounts) -> list[tuple[str, str]]:
    t = tr.t
    return [
        (t("service.audit.two_player"), _pair(c.two_player, life.two_player)),
        (t("service.audit.vs_cpu"), _pair(c.vs_cpu, life.vs_cpu)),
        (t("service.audit.abandoned"), _pair(c.abandoned, life.abandoned)),
        (t("service.audit.p1_wins"), _pair(c.p1_wins, life.p1_wins)),
        (t("service.audit.p2_wins"), _pair(c.p2_wins, life.p2_wins)),
        (t("service.audit.cpu_wins"), _pair(c.cpu_wins, life.cpu_wins)),
        (t("service.audit.draws"), _pair(c.draws, life.draws)),
        (
            t("service.audit.average_game"),
            _pair(duration(c.average_game_ms), duration(life.average_game_ms)),
        ),
        (
            t("service.audit.longest_game"),
            _pair(duration(c.longest_game_ms), duration(life.longest_game_ms)),
        ),
    ]


def _play(tr: Translator, currency: str, c: PlayCounts, life: PlayCounts) -> list[tuple[str, str]]:
    t = tr.t
    return [
        (t("service.audit.plays"), _pair(c.plays, life.plays)),
        (t("service.audit.spits"), _pair(c.spits, life.spits)),
        (t("service.audit.races_under_1ms"), _pair(c.races_under_1ms, life.races_under_1ms)),
        (t("service.audit.races_under_10ms"), _pair(c.races_under_10ms, life.races_under_10ms)),
        (
            t("service.audit.races_under_100ms"),
            _pair(c.races_under_100ms, life.races_under_100ms),
        ),
        (
            t("service.audit.races_100ms_or_more"),
            _pair(c.races_100ms_or_more, life.races_100ms_or_more),
        ),
        (t("service.audit.ties"), _pair(c.ties, life.ties)),
        (t("service.audit.late_edges"), _pair(c.late_edges, life.late_edges)),
    ]


def _hardware(
    tr: Translator, currency: str, c: HardwareCounts, life: HardwareCounts
) -> list[tuple[str, str]]:
    rows = [
        (tr.t("service.audit.link_drops"), _pair(c.led_link_drops, life.led_link_drops)),
        (tr.t("service.audit.table_restarts"), _pair(c.table_restarts, life.table_restarts)),
    ]
    rows.append((tr.t("service.audit.per_button"), tr.t("service.audit.per_button_columns")))
    for control in REQUIRED_CONTROLS:  # the coin lines' troubles are in the money group
        rows.append(
            (
                control_label(tr, control),
                f"{_pair(c.stuck[control], life.stuck[control])}"
                f"  |  {_pair(c.chatter[control], life.chatter[control])}",
            )
        )
    return rows


def _power(
    tr: Translator, currency: str, c: PowerCounts, life: PowerCounts
) -> list[tuple[str, str]]:
    t = tr.t
    return [
        (t("service.audit.power_ons"), _pair(c.power_ons, life.power_ons)),
        (t("service.audit.uptime"), _pair(duration(c.uptime_ms), duration(life.uptime_ms))),
        (t("service.audit.rollbacks"), _pair(c.rollbacks, life.rollbacks)),
    ]


def _money(
    tr: Translator, currency: str, c: MoneyCounts, life: MoneyCounts
) -> list[tuple[str, str]]:
    t = tr.t
    return [
        (t("service.input.coin", n=1), _pair(c.coins1, life.coins1)),
        (t("service.input.coin", n=2), _pair(c.coins2, life.coins2)),
        (t("service.audit.coin_units"), _pair(c.coin_units, life.coin_units)),
        (
            t("service.audit.earnings"),
            _pair(
                money_text(c.earnings_cents, currency), money_text(life.earnings_cents, currency)
            ),
        ),
        (t("service.audit.paid_credits"), _pair(c.paid_credits, life.paid_credits)),
        (t("service.audit.bonus_credits"), _pair(c.bonus_credits, life.bonus_credits)),
        (t("service.audit.service_credits"), _pair(c.service_credits, life.service_credits)),
        (t("service.audit.credits_spent"), _pair(c.credits_spent, life.credits_spent)),
        (t("service.audit.credits_cleared"), _pair(c.credits_cleared, life.credits_cleared)),
        (t("service.audit.paid_games"), _pair(c.paid_games, life.paid_games)),
        (t("service.audit.free_play_games"), _pair(c.free_play_games, life.free_play_games)),
        (t("service.audit.coin_errors", n=1), _pair(c.coin_errors1, life.coin_errors1)),
        (t("service.audit.coin_errors", n=2), _pair(c.coin_errors2, life.coin_errors2)),
    ]


Counters = Callable[[Translator, str, Any, Any], list[tuple[str, str]]]

_COUNTERS: dict[AuditGroup, Counters] = {
    AuditGroup.GAMES: _games,
    AuditGroup.PLAY: _play,
    AuditGroup.HARDWARE: _hardware,
    AuditGroup.POWER: _power,
    AuditGroup.MONEY: _money,
}


def audit_rows(
    tr: Translator, currency: str, group: AuditGroup, audit: GroupAudit[Any]
) -> list[tuple[str, str]]:
    """One group's counters as the operator reads them, ``(label, "current · lifetime")``
    each: the service menu's page and ``spit-cabinet audits`` both show these."""
    return _COUNTERS[group](tr, currency, audit.current, audit.lifetime)
