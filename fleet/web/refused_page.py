"""The route's refused messages (owners and technicians): every cabinet's messages that
ingest refused, counted by refusal (:mod:`fleet.web.refused_data`), the latest first, each
with when it began and the last one's reason. A cabinet's own are on its page too."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render

from fleet.web import fmt, refused_data
from fleet.web.db import fleet_connection
from fleet.web.roles import SERVICE, requires


@requires(*SERVICE)
def refused(request: HttpRequest) -> HttpResponseBase:
    rows = refused_data.of_route(fleet_connection())
    return render(
        request,
        "web/refused.html",
        {
            "rows": [(r, fmt.stamp(r.first_at), fmt.stamp(r.last_at)) for r in rows],
            "total": sum(r.count for r in rows),
            "limit": refused_data.ROUTE_LIMIT,
        },
    )
