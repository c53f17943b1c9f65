"""The route's open alerts (:func:`fleet.alerts.open_alerts`), on a page of their own and
as a section of the route page (``{% alerts_section %}``, :mod:`fleet.web.templatetags`);
an alert that reveals money (:attr:`fleet.alerts.Alert.money`) is left out for a
technician."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render
from django.utils import timezone

from fleet import alerts
from fleet.alerts import Alert, AlertKind
from fleet.web.db import fleet_connection
from fleet.web.fmt import ago, stamp
from fleet.web.roles import ROLES, requires, sees_money

TITLES = {
    AlertKind.OFFLINE: "Offline",
    AlertKind.MISSING_SWITCH: "Missing switch",
    AlertKind.COIN_ERRORS: "Coin errors",
    AlertKind.DOOR_OPEN: "Door opened",
    AlertKind.LOW_EARNINGS: "Low earnings",
}


@dataclass(frozen=True)
class Row:
    a: Alert
    title: str
    since: str
    ago: str


def visible_alerts(request: HttpRequest) -> list[Row]:
    """The open alerts the request's account may see, now."""
    now = timezone.now()
    money = sees_money(request.user)
    return [
        Row(a, TITLES.get(a.kind, str(a.kind)), stamp(a.since), ago(a.since, now))
        for a in alerts.open_alerts(fleet_connection(), now)
        if money or not a.money
    ]


def section_context(request: HttpRequest) -> dict[str, Any]:
    """What ``web/alerts_section.html`` shows."""
    return {"alerts": visible_alerts(request)}


@requires(*ROLES)
def alerts_page(request: HttpRequest) -> HttpResponseBase:
    """Every open alert the account may see."""
    return render(request, "web/alerts.html", {"alerts": visible_alerts(request)})
