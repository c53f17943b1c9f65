"""One cabinet's page: earnings and games over time (charts), its audits and money
counts, health over time (online, table restarts, rollbacks, light board link drops),
faults (open ones first), the messages of it ingest refused (owners and technicians:
:mod:`fleet.web.refused_data`), its last games with their closest races, its hall of fame
(:mod:`fleet.web.cabinet_data`) and its newest fairness certificate
(:mod:`fleet.web.fairness_data`). An account that sees no money gets no earnings and no
money counters: they are not even read."""

from __future__ import annotations

import datetime

from django.http import Http404, HttpRequest, HttpResponseBase
from django.shortcuts import render

from fleet.web import cabinet_data as data
from fleet.web import fmt, refused_data
from fleet.web.db import fleet_connection
from fleet.web.fairness_data import STALE_DAYS, latest_fairness
from fleet.web.roles import ROLES, requires, sees_money, sees_refused
from fleet.wire_common import NAME_PATTERN


def _span(request: HttpRequest) -> int:
    try:
        days = int(request.GET.get("days", "90"))
    except ValueError:
        return 90
    return days if days in data.SPANS else 90


@requires(*ROLES)
def cabinet(request: HttpRequest, name: str) -> HttpResponseBase:
    if NAME_PATTERN.fullmatch(name) is None:
        raise Http404("no such cabinet")
    conn = fleet_connection()
    found = data.cabinet(conn, name)
    if found is None:
        raise Http404("no such cabinet")
    money = sees_money(request.user)
    days = _span(request)
    now = datetime.datetime.now(datetime.UTC)
    audited_at, counters = data.latest_audits(conn, name, money=money)
    open_faults, recent_faults = data.faults(conn, name)
    games = data.last_games(conn, name)
    refused = refused_data.of_cabinet(conn, name) if sees_refused(request.user) else []
    return render(
        request,
        "web/cabinet.html",
        {
            "cabinet": found,
            "seen": fmt.ago(found.presence_at, now),
            "seen_at": fmt.stamp(found.presence_at),
            "days": days,
            "spans": data.SPANS,
            "charts": {
                "daily": data.daily(conn, name, days, money=money).to_json(),
                "health": data.health(conn, name, days).to_json(),
                "online": data.online(conn, name, days).to_json(),
            },
            "audited_at": fmt.stamp(audited_at),
            "counters": counters,
            "money_counts": [
                (fmt.stamp(at), fmt.money(cents), c1, c2)
                for at, cents, c1, c2 in (data.money_counts(conn, name) if money else [])
            ],
            "changes": [(s, fmt.stamp(at)) for s, at in data.presence_changes(conn, name)],
            "open_faults": [(f.fault, fmt.stamp(f.at)) for f in open_faults],
            "recent_faults": [(f.fault, f.state, fmt.stamp(f.at)) for f in recent_faults],
            "refused": [(r, fmt.stamp(r.first_at), fmt.stamp(r.last_at)) for r in refused],
            "games": [
                (
                    fmt.stamp(g.at),
                    g.game,
                    g.seats,
                    g.result,
                    fmt.margin(g.closest_margin_ns),
                    "" if g.closest_winner is None else f"player {g.closest_winner + 1}",
                )
                for g in games
            ],
            "fame": data.hall_of_fame(conn, name),
            "fairness": latest_fairness(conn, name, now),
            "fairness_stale_days": STALE_DAYS,
        },
    )
