"""Collections (collectors and owners): the cash counted at a cabinet, entered with its
note, set against the cabinet's books since its last collection
(:mod:`fleet.collections`), the difference shown; "estimated" while the fleet may still
lack some of the cabinet's coins, with since when it has been offline. Each cabinet's
history and the route's, and the bookkeeper's CSV. Technicians see none of it (403)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from fleet import collections
from fleet.collections import CollectionError, Reconciliation
from fleet.web.db import fleet_connection
from fleet.web.fmt import money, stamp
from fleet.web.roles import MONEY, requires

ROUTE_ROWS = 25
"""The route's latest collections shown on the collections page."""
CABINET_ROWS = 100
"""A cabinet's collections shown (and exported) at most, newest first."""
CSV_ROWS = 500
"""The route's collections the CSV holds at most, newest first: about a month of a
500-cabinet route (each row's books are summed on its own: fleet.collections.history)."""


def cabinet_choices(conn: Any) -> list[tuple[str, str]]:
    """Every active cabinet, ``(name, "name · location")``, by name."""
    rows = conn.execute(
        "SELECT name, location FROM cabinets WHERE revoked_at IS NULL ORDER BY name"
    ).fetchall()
    return [(str(name), f"{name} · {location}") for name, location in rows]


class CollectionForm(forms.Form):
    cabinet = forms.ChoiceField(label="Cabinet")
    amount = forms.DecimalField(
        label="Cash counted",
        min_value=Decimal(0),
        max_value=Decimal("10000000"),
        max_digits=10,
        decimal_places=2,
        help_text="In the currency, with its cents: 123.45",
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    note = forms.CharField(
        label="Note", required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["cabinet"].choices = [("", "Choose a cabinet"), *choices]  # type: ignore[attr-defined]

    def cents(self) -> int:
        return int(Decimal(self.cleaned_data["amount"]) * 100)


@dataclass(frozen=True)
class Row:
    """A reconciliation as the page writes it."""

    r: Reconciliation
    books: str
    counted: str
    difference: str
    verdict: str
    since: str
    until: str
    offline_since: str


def _row(r: Reconciliation) -> Row:
    if r.difference_cents is None:
        verdict = ""
    elif r.difference_cents == 0:
        verdict = "matches"
    elif r.difference_cents < 0:
        verdict = f"short {money(-r.difference_cents)}"
    else:
        verdict = f"over {money(r.difference_cents)}"
    return Row(
        r,
        money(r.books_cents),
        money(r.counted_cents),
        money(r.difference_cents),
        verdict,
        stamp(r.since) or "the start",
        stamp(r.until),
        stamp(r.offline_since),
    )


@requires(*MONEY)
def collections_page(request: HttpRequest) -> HttpResponseBase:
    """The form, and the route's latest collections."""
    conn = fleet_connection()
    choices = cabinet_choices(conn)
    initial = {"cabinet": request.GET.get("cabinet", "")}
    form = CollectionForm(request.POST or None, choices=choices, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                entered = collections.record(
                    conn,
                    form.cleaned_data["cabinet"],
                    form.cents(),
                    request.user.get_username(),
                    form.cleaned_data["note"],
                    timezone.now(),
                )
            except CollectionError as exc:
                form.add_error(None, str(exc))
            else:
                target = reverse("collections_cabinet", args=[form.cleaned_data["cabinet"]])
                return HttpResponseRedirect(f"{target}?entered={entered}")
        status = 400
    rows = [_row(r) for r in collections.history(conn, None, ROUTE_ROWS)]
    return render(
        request,
        "web/collections.html",
        {"form": form, "rows": rows, "cabinet": None},
        status=status,
    )


@requires(*MONEY)
def cabinet_collections(request: HttpRequest, name: str) -> HttpResponseBase:
    """One cabinet: its books since the last collection, then its collections."""
    conn = fleet_connection()
    if conn.execute("SELECT 1 FROM cabinets WHERE name = %s", (name,)).fetchone() is None:
        raise Http404("no such cabinet")
    opened = _row(collections.open_period(conn, name, timezone.now()))
    rows = [_row(r) for r in collections.history(conn, name, CABINET_ROWS)]
    entered = request.GET.get("entered", "")
    just = next((row for row in rows if str(row.r.collection) == entered), None)
    context = {"cabinet": name, "open": opened, "rows": rows, "entered": just}
    return render(request, "web/collections_cabinet.html", context)


@requires(*MONEY)
def collections_csv(request: HttpRequest) -> HttpResponseBase:
    """The bookkeeper's CSV: the route's collections (or ``?cabinet=``'s), newest first."""
    conn = fleet_connection()
    name = request.GET.get("cabinet") or None
    rows = collections.history(conn, name, CSV_ROWS if name is None else CABINET_ROWS)
    response = HttpResponse(collections.csv_text(conn, rows), content_type="text/csv")
    filename = "collections.csv" if name is None else "collections-cabinet.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
