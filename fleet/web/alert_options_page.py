"""The alerts' thresholds and the digest's mail settings (:data:`fleet.options.OPTIONS`,
each checked by :func:`fleet.options.set_option`), and each location's opening hours and
time zone (:func:`fleet.locations.set_hours`: offline alerts count only those hours).
Owners only."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from fleet import locations, options
from fleet.locations import Hours, LocationError
from fleet.options import OPTIONS, OptionError
from fleet.web.db import fleet_connection
from fleet.web.roles import Role, requires


class OptionsForm(forms.Form):
    """One text field per option, checked by the fleet's own parser."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for key, option in OPTIONS.items():
            self.fields[key] = forms.CharField(
                label=key.replace("_", " ").capitalize(),
                help_text=f"{option.help} (default {option.default or 'none'})",
                required=False,
                max_length=500,
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for key in OPTIONS:
            value = cleaned.get(key)
            if value is None:
                continue
            try:
                options.parse(key, value or OPTIONS[key].default)
            except OptionError as exc:
                self.add_error(key, str(exc))
        return cleaned


class HoursForm(forms.Form):
    location = forms.CharField(widget=forms.HiddenInput, max_length=200)
    opens = forms.CharField(label="Opens", max_length=5, help_text="HH:MM")
    closes = forms.CharField(label="Closes", max_length=5, help_text="HH:MM (as opens: all day)")
    timezone = forms.CharField(label="Time zone", max_length=64, help_text="e.g. Europe/London")

    def hours(self) -> Hours:
        """The hours entered (:class:`LocationError` if they are not hours)."""
        data = self.cleaned_data
        zone = str(data["timezone"]).strip()
        locations.zone(zone)
        return Hours(
            locations.parse_time(data["opens"]), locations.parse_time(data["closes"]), zone
        )


def _stored(conn: Any) -> dict[str, str]:
    rows = conn.execute("SELECT key, value FROM fleet_options").fetchall()
    return {str(k): str(v) for k, v in rows}


def _location_forms(conn: Any, bound: HoursForm | None) -> list[tuple[str, HoursForm]]:
    """Each location's name and hours form (``bound``, with its errors, for the one just
    posted)."""
    found = []
    for name, hours in sorted(locations.hours(conn).items()):
        if bound is not None and bound.data.get("location") == name:
            found.append((name, bound))
            continue
        initial = {
            "location": name,
            "opens": hours.opens.strftime("%H:%M"),
            "closes": hours.closes.strftime("%H:%M"),
            "timezone": hours.timezone,
        }
        found.append((name, HoursForm(initial=initial)))
    return found


@requires(Role.OWNER)
def alert_options(request: HttpRequest) -> HttpResponseBase:
    conn = fleet_connection()
    stored = _stored(conn)
    form = OptionsForm(initial={k: stored.get(k, o.default) for k, o in OPTIONS.items()})
    bound: HoursForm | None = None
    status = 200
    if request.method == "POST" and request.POST.get("action") == "options":
        form = OptionsForm(request.POST)
        if form.is_valid():
            try:
                for key in OPTIONS:
                    value = form.cleaned_data.get(key) or OPTIONS[key].default
                    if stored.get(key, OPTIONS[key].default) != value:
                        options.set_option(conn, key, value)
            except OptionError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, "Options saved.")
                return HttpResponseRedirect(reverse("alert_options"))
        status = 400
    elif request.method == "POST":
        bound = HoursForm(request.POST)
        if bound.is_valid():
            known = locations.hours(conn)
            try:
                if bound.cleaned_data["location"] not in known:
                    raise LocationError("no such location in this fleet")
                locations.set_hours(conn, bound.cleaned_data["location"], bound.hours())
            except LocationError as exc:
                bound.add_error(None, str(exc))
            else:
                messages.success(request, f"Hours of {bound.cleaned_data['location']} saved.")
                return HttpResponseRedirect(reverse("alert_options"))
        status = 400
    context = {"form": form, "locations": _location_forms(conn, bound)}
    return render(request, "web/alert_options.html", context, status=status)
