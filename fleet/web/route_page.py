"""The route page: every cabinet in one table (:mod:`fleet.web.route_table`), sorted by
any column and filtered by location through the query string (no script needed);
without money columns for an account that may not see money."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe

from fleet.web import fmt, route_table
from fleet.web.db import fleet_connection
from fleet.web.roles import ROLES, requires, sees_money
from fleet.web.route_table import MONEY_COLUMNS, RouteRow

LABELS = {
    "cabinet": "Cabinet",
    "location": "Location",
    "state": "Online",
    "last_seen": "Last seen",
    "version": "Version",
    "earnings_today": "Today",
    "earnings_week": "Week",
    "earnings_since": "Since collection",
    "games_today": "Games today",
    "games_week": "Games week",
    "faults": "Open faults",
}
NUMERIC = MONEY_COLUMNS | {"games_today", "games_week"}
DESCENDING_FIRST = NUMERIC | {"last_seen", "faults"}


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    label: str
    href: str
    sorted: str
    """``asc``, ``desc`` or empty."""
    numeric: bool


def _cell(text: str, css: str = "", title: str = "", href: str = "") -> str:
    inner = f'<a href="{escape(href)}">{escape(text)}</a>' if href else escape(text)
    attrs = (f' class="{css}"' if css else "") + (f' title="{escape(title)}"' if title else "")
    return f"<td{attrs}>{inner}</td>"


def _row(row: RouteRow, columns: list[str], now: datetime.datetime) -> str:
    """One cabinet's row, written here rather than by the template engine: 500 rows of
    eleven cells are the page's whole time otherwise."""
    cells = []
    for key in columns:
        if key == "cabinet":
            cells.append(_cell(row.cabinet, "name", href=reverse("cabinet", args=[row.cabinet])))
        elif key == "state":
            cells.append(_cell(row.state, row.state))
        elif key == "last_seen":
            cells.append(_cell(fmt.ago(row.last_seen, now), title=fmt.stamp(row.last_seen)))
        elif key == "faults":
            text = f"{len(row.faults)}: {', '.join(row.faults)}" if row.faults else "0"
            cells.append(_cell(text, "fault" if row.faults else ""))
        elif key in MONEY_COLUMNS:
            title = f"collected {fmt.stamp(row.collected_at)}" if key == "earnings_since" else ""
            cells.append(_cell(fmt.money(getattr(row, key)), "num", title))
        else:
            cells.append(_cell(str(getattr(row, key)), "num" if key in NUMERIC else ""))
    return f"<tr>{''.join(cells)}</tr>"


@requires(*ROLES)
def route(request: HttpRequest) -> HttpResponseBase:
    money = sees_money(request.user)
    columns = [c for c in route_table.COLUMNS if money or c not in MONEY_COLUMNS]
    sort = request.GET.get("sort", "cabinet")
    if sort not in columns:
        sort = "cabinet"
    default_dir = "desc" if sort in DESCENDING_FIRST else "asc"
    direction = request.GET.get("dir", default_dir)
    if direction not in ("asc", "desc"):
        direction = default_dir
    conn = fleet_connection()
    places = route_table.locations(conn)
    location = request.GET.get("location") or None
    if location not in places:
        location = None
    rows = route_table.route_rows(conn, location=location, money=money)
    rows.sort(key=route_table.sort_key(sort), reverse=direction == "desc")
    now = datetime.datetime.now(datetime.UTC)
    base = {"location": location} if location else {}
    heads = []
    for key in columns:
        first = "desc" if key in DESCENDING_FIRST else "asc"
        flip = ("asc" if direction == "desc" else "desc") if key == sort else first
        query = urlencode({**base, "sort": key, "dir": flip})
        heads.append(
            Column(key, LABELS[key], f"?{query}", direction if key == sort else "", key in NUMERIC)
        )
    return render(
        request,
        "web/route.html",
        {
            "columns": heads,
            "rows": mark_safe("\n".join(_row(r, columns, now) for r in rows)),  # escaped above
            "locations": places,
            "location": location or "",
            "sort": sort,
            "dir": direction,
            "online": sum(r.state == "online" for r in rows),
            "total": len(rows),
            "money_total": fmt.money(sum(r.earnings_today or 0 for r in rows)) if money else "",
        },
    )
