"""One cabinet's page: earnings and games over time, audits, health, faults, its last
games and its hall of fame (:mod:`fleet.web.cabinet_data`)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render

from fleet.web.roles import ROLES, requires


@requires(*ROLES)
def cabinet(request: HttpRequest, name: str) -> HttpResponseBase:
    return render(request, "web/cabinet.html", {"name": name})
