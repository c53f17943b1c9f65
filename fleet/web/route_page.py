"""The route page: every cabinet in one table (:mod:`fleet.web.route_table`)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render

from fleet.web.roles import ROLES, requires


@requires(*ROLES)
def route(request: HttpRequest) -> HttpResponseBase:
    return render(request, "web/route.html", {"rows": []})
