"""Rollouts (owners only; docs/releases.md, "Rollouts"): the release the fleet serves
rolled out to the whole route, a venue or a list of cabinets, a canary share first; the
newest rollout cabinet by cabinet (offered, downloading, verified, waiting for a safe
moment, installing, installed, rolled back or refused, with the reason), and a button
that halts it. The controller is ingest's (:func:`fleet.rollouts.tick`): this page only
starts and halts. Collectors and technicians get 403."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from fleet import rollouts
from fleet.broker import FleetConfig, FleetError
from fleet.release_repository import current_release
from fleet.rollouts import RolloutError
from fleet.web.db import fleet_connection
from fleet.web.fmt import stamp
from fleet.web.roles import Role, requires

STEPS = {
    "pending": "not offered yet",
    "offered": "offered",
    "downloading": "downloading",
    "verified": "verified",
    "waiting": "waiting for a safe moment",
    "installing": "installing",
    "installed": "installed",
    "rolled_back": "rolled back",
    "refused": "refused",
}
"""Each step as the page says it (:data:`fleet.wire.UPDATE_STATES`, and not offered)."""
ROLLOUT_STATES = {
    "canary": "canaries first",
    "rest": "the rest follow",
    "halting": "halting",
    "done": "done",
    "halted": "halted",
}


def _published() -> tuple[str, str]:
    """The release the fleet serves (``spit-fleet release publish``) and its address."""
    folder = settings.FLEET_DIR
    try:
        _, manifest = current_release(folder / "releases" / "metadata")
    except (OSError, ValueError):
        manifest = None
    try:
        host = FleetConfig.load(folder).hosts[0]
    except (FleetError, IndexError):
        host = "localhost"
    return (manifest.release if manifest is not None else "", f"https://{host}:8443/releases/")


def _groups(conn: Any) -> list[tuple[str, str]]:
    rows = conn.execute(
        "SELECT DISTINCT location FROM cabinets WHERE revoked_at IS NULL ORDER BY location"
    ).fetchall()
    return [
        ("all", "The whole route"),
        *((f"location:{r[0]}", f"Venue: {r[0]}") for r in rows),
        ("list", "These cabinets:"),
    ]


class RolloutForm(forms.Form):
    release = forms.CharField(label="Release", max_length=40)
    url = forms.CharField(label="Served at", max_length=300)
    group = forms.ChoiceField(label="To")
    cabinets = forms.CharField(
        label="Cabinets", required=False, max_length=4000,
        help_text="With 'These cabinets': their ids, separated by commas.",
    )  # fmt: skip
    canary_share = forms.IntegerField(
        label="Canaries (% of the cabinets, first)", min_value=1, max_value=100, initial=10
    )
    healthy_minutes = forms.IntegerField(
        label="Healthy for (minutes) before the rest", min_value=0, max_value=10080, initial=60
    )

    def target(self) -> str:
        group = str(self.cleaned_data["group"])
        return f"list:{self.cleaned_data['cabinets']}" if group == "list" else group


def target_title(target: str) -> str:
    """A rollout's group as the page says it."""
    if target.startswith("location:"):
        return target.removeprefix("location:")
    if target.startswith("list:"):
        return target.removeprefix("list:").replace(",", ", ")
    return "the whole route"


@dataclass(frozen=True)
class Row:
    m: rollouts.Member
    step: str
    at: str


@requires(Role.OWNER)
def rollouts_page(request: HttpRequest) -> HttpResponseBase:
    """Start a rollout; the newest, cabinet by cabinet; the ones before."""
    conn = fleet_connection()
    release, url = _published()
    form = RolloutForm(request.POST or None, initial={"release": release, "url": url})
    group = form.fields["group"]
    assert isinstance(group, forms.ChoiceField)
    group.choices = _groups(conn)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                with conn.transaction():
                    started = rollouts.start(
                        conn, form.cleaned_data["release"], form.cleaned_data["url"],
                        form.target(), form.cleaned_data["canary_share"],
                        form.cleaned_data["healthy_minutes"], request.user.get_username(),
                    )  # fmt: skip
            except RolloutError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, f"Rollout {started} started: the canaries first.")
                return HttpResponseRedirect(reverse("rollouts"))
        status = 400
    every = rollouts.rollouts(conn)
    newest = every[0] if every else None
    rows = [] if newest is None else [
        Row(m, STEPS.get(m.state, m.state), stamp(m.changed_at))
        for m in rollouts.members(conn, newest.id)
    ]  # fmt: skip
    context = {
        "form": form,
        "newest": newest,
        "newest_state": ROLLOUT_STATES.get(newest.state, "") if newest else "",
        "newest_target": target_title(newest.target) if newest else "",
        "under_way": newest is not None and newest.state in ("canary", "rest"),
        "rows": rows,
        "earlier": every[1:10],
        "published": release,
    }
    return render(request, "web/rollouts.html", context, status=status)


@require_POST
@requires(Role.OWNER)
def rollout_halt(request: HttpRequest, rollout: int) -> HttpResponseBase:
    """Halt rollout ``rollout``: ingest withdraws the offers not being installed."""
    conn = fleet_connection()
    with conn.transaction():
        rollouts.ask_halt(conn, rollout, request.user.get_username())
    messages.success(request, f"Rollout {rollout} halts: the offers not being installed go.")
    return HttpResponseRedirect(reverse("rollouts"))
