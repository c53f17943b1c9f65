"""Settings documents (owners only): the settings for the whole route or for one
location, TOML as ``spit-cabinet settings export`` writes, edited in a text area and saved
with :func:`fleet.documents.save_document` (its refusal shown in the form), and where each
cabinet is with each document (:func:`fleet.documents.states`: the version it applied,
refused and why, or pending). Collectors and technicians get 403."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from fleet import documents
from fleet.documents import DocumentError, DocumentState
from fleet.web.db import fleet_connection
from fleet.web.fmt import stamp
from fleet.web.roles import Role, requires
from fleet.wire_down import MAX_DOCUMENT_CHARS

EXAMPLE = "[game]\nbest_of = 3\n"


class DocumentForm(forms.Form):
    body = forms.CharField(
        label="Settings (TOML, as spit-cabinet settings export writes)",
        max_length=MAX_DOCUMENT_CHARS,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false", "class": "code"}),
        help_text="Settings left out keep each cabinet's own values.",
    )


@dataclass(frozen=True)
class Document:
    """One document the route has or may have: its id, title, location (``None``: the
    route's) and current version (``None``: none saved yet)."""

    id: str
    title: str
    location: str | None
    version: int | None
    edited: str


def _documents(conn: Any) -> list[Document]:
    saved = {
        str(row[0]): (int(row[1]), f"{stamp(row[3])} by {row[2]}")
        for row in conn.execute(
            "SELECT id, version, edited_by, edited_at FROM settings_documents"
        ).fetchall()
    }
    listed = [Document("route", "The whole route", None, *_saved(saved, "route"))]
    for id_, name in conn.execute("SELECT id, name FROM locations ORDER BY name").fetchall():
        document = f"location-{int(id_)}"
        listed.append(Document(document, str(name), str(name), *_saved(saved, document)))
    return listed


def _saved(saved: dict[str, tuple[int, str]], document: str) -> tuple[int | None, str]:
    version, edited = saved.get(document, (None, ""))
    return version, edited


@requires(Role.OWNER)
def documents_list(request: HttpRequest) -> HttpResponseBase:
    """The route's document and each location's, with their versions."""
    return render(request, "web/documents.html", {"documents": _documents(fleet_connection())})


@dataclass(frozen=True)
class StateRow:
    s: DocumentState
    state: str
    at: str


def _state_row(s: DocumentState) -> StateRow:
    if s.version is None:
        state = "pending: no report yet"
    elif s.pending:
        state = f"pending (last {s.result} version {s.version})"
    else:
        state = f"{s.result} version {s.version}"
    return StateRow(s, state, stamp(s.at))


@requires(Role.OWNER)
def document_edit(request: HttpRequest, document: str) -> HttpResponseBase:
    """Edit one document (``route`` or ``location-<id>``) and see each cabinet's state."""
    conn = fleet_connection()
    found = next((d for d in _documents(conn) if d.id == document), None)
    if found is None:
        raise Http404("no such settings document")
    current = documents.document(conn, document)
    initial = {"body": current.text if current is not None else EXAMPLE}
    form = DocumentForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                saved = documents.save_document(
                    conn, found.location, form.cleaned_data["body"], request.user.get_username()
                )
            except DocumentError as exc:
                form.add_error("body", str(exc))
            else:
                messages.success(
                    request, f"Saved as version {saved.version}; sent to the cabinets."
                )
                return HttpResponseRedirect(reverse("document_edit", args=[document]))
        status = 400
    rows = [_state_row(s) for s in documents.states(conn, document)]
    context = {"document": found, "form": form, "rows": rows}
    return render(request, "web/document_edit.html", context, status=status)
