"""The route's open alerts (:func:`fleet.alerts.open_alerts`), on a page of their own and
as a section of the route page (``{% alerts_section %}``, :mod:`fleet.web.templatetags`);
an alert that reveals money (:attr:`fleet.alerts.Alert.money`) is left out for a
technician.

Working the alerts out reads a route's whole recent history (the low-earnings rule reads
each cabinet's weeks): seconds with a year of 500 cabinets (bench/README.md, "The
route"). The alerts page works them out at each request; the route page shows the
newest *snapshot* a process holds (made by the alerts page or in the background), and
when that is older than :data:`SNAPSHOT_S`, starts one thread to make a new one and
shows the old one meanwhile, with its time: the route page never waits on it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
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
    AlertKind.ROLLOUT_HALTED: "Rollout halted",
}

SNAPSHOT_S = 300.0
"""How old the route page's snapshot of the alerts may be before a new one is made (the
alerts' thresholds are hours)."""


@dataclass(frozen=True)
class Snapshot:
    at: datetime
    alerts: tuple[Alert, ...]


class _Held:
    """This process's newest snapshot, and whether a thread is making the next one."""

    lock = threading.Lock()
    snapshot: Snapshot | None = None
    making = False


def work_out() -> Snapshot:
    """The alerts now, on this thread's connection; kept as the process's snapshot."""
    now = timezone.now()
    made = Snapshot(now, tuple(alerts.open_alerts(fleet_connection(), now)))
    with _Held.lock:
        if _Held.snapshot is None or _Held.snapshot.at < made.at:
            _Held.snapshot = made
    return made


def _in_background() -> None:
    try:
        work_out()
    finally:
        connection.close()  # the thread's own
        with _Held.lock:
            _Held.making = False


def snapshot() -> Snapshot | None:
    """The newest snapshot (``None``: none yet); a new one started in the background when
    it is missing or older than :data:`SNAPSHOT_S`."""
    with _Held.lock:
        held = _Held.snapshot
        stale = held is None or timezone.now() - held.at > timedelta(seconds=SNAPSHOT_S)
        if stale and not _Held.making:
            _Held.making = True
            threading.Thread(target=_in_background, name="alerts", daemon=True).start()
    return held


@dataclass(frozen=True)
class Row:
    a: Alert
    title: str
    since: str
    ago: str


def rows(request: HttpRequest, found: Snapshot) -> list[Row]:
    """The alerts of ``found`` the request's account may see, as the pages write them."""
    money = sees_money(request.user)
    return [
        Row(a, TITLES.get(a.kind, str(a.kind)), stamp(a.since), ago(a.since, found.at))
        for a in found.alerts
        if money or not a.money
    ]


def section_context(request: HttpRequest) -> dict[str, Any]:
    """What ``web/alerts_section.html`` shows: the snapshot's alerts and its time."""
    held = snapshot()
    if held is None:
        return {"alerts": [], "pending": True}
    return {"alerts": rows(request, held), "pending": False, "at": stamp(held.at)}


@requires(*ROLES)
def alerts_page(request: HttpRequest) -> HttpResponseBase:
    """Every open alert the account may see, worked out now."""
    made = work_out()
    return render(request, "web/alerts.html", {"alerts": rows(request, made)})
