"""The accounts page (owners only): every account, its role and two-factor; adding one
with a temporary password (changed at its first login), changing a role, requiring
two-factor codes (of one account, or of all), disabling and enabling. Each change is
logged (:mod:`fleet.web.account_log`, by the owner's name) in its own transaction."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_otp import user_has_device  # type: ignore[import-untyped]

from fleet.web import account_log, roles
from fleet.web.roles import Role, requires

ROLE_CHOICES = [(r.value, r.value.capitalize()) for r in roles.ROLES]
NAME_HELP = "Letters, digits and @ . + - _ only, at most 150."


def new_password() -> str:
    """A temporary password: 16 characters a phone keyboard types easily.

    >>> len(new_password())
    16
    """
    return secrets.token_urlsafe(12)


def add_account(username: str, role: Role, password: str, *, two_factor: bool) -> User:
    """Make an account (with a temporary password it must change at its first login)."""
    with transaction.atomic():
        user = User.objects.create_user(username=username, password=password)
        roles.set_role(user, role)
        roles.set_flag(user, roles.TWO_FACTOR, two_factor)
        roles.set_flag(user, roles.NEW_PASSWORD, True)
    return user


class AddForm(forms.Form):
    username = forms.CharField(label="Name", max_length=150, help_text=NAME_HELP)
    role = forms.ChoiceField(choices=ROLE_CHOICES)
    password = forms.CharField(
        label="Temporary password",
        required=False,
        max_length=128,
        strip=False,
        help_text="Leave it empty for one made up for you (shown once).",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    two_factor = forms.BooleanField(label="Require two-factor codes", required=False, initial=True)

    def clean_username(self) -> str:
        name = str(self.cleaned_data["username"]).strip()
        try:
            User.username_validator(name)
        except ValidationError:
            raise ValidationError(NAME_HELP) from None
        if User.objects.filter(username__iexact=name).exists():
            raise ValidationError("There is an account of that name already.")
        return name

    def clean(self) -> dict[str, object] | None:
        data = super().clean() or {}
        password = str(data.get("password") or "")
        if password and "username" in data:
            try:
                validate_password(password, User(username=str(data["username"])))
            except ValidationError as exc:
                self.add_error("password", exc)
        return data


class ChangeForm(forms.Form):
    action = forms.ChoiceField(
        choices=[(a, a) for a in ("role", "require", "waive", "disable", "enable", "reset")]
    )
    role = forms.ChoiceField(choices=ROLE_CHOICES, required=False)


class AllForm(forms.Form):
    everyone = forms.BooleanField(required=True)


@dataclass(frozen=True, slots=True)
class Row:
    user: User
    role: Role | None
    two_factor_required: bool
    two_factor_set_up: bool


@requires(Role.OWNER)
def accounts(request: HttpRequest) -> HttpResponseBase:
    """The accounts, and the form that adds one."""
    form = AddForm(request.POST if request.method == "POST" else None)
    made: tuple[str, str] | None = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        password = data["password"] or new_password()
        with transaction.atomic():
            add_account(
                data["username"], Role(data["role"]), password, two_factor=data["two_factor"]
            )
            two_factor = "required" if data["two_factor"] else "waived"
            detail = f"{data['role']}, two-factor {two_factor}"
            account_log.log(data["username"], account_log.ADD, _who(request), detail)
        made = (data["username"], password)
        form = AddForm()
    rows = [
        Row(u, roles.role_of(u), roles.two_factor_required(u), bool(user_has_device(u)))
        for u in User.objects.order_by("username").prefetch_related("groups")
    ]
    return render(
        request,
        "web/accounts.html",
        {"rows": rows, "form": form, "made": made, "role_choices": ROLE_CHOICES},
        status=400 if request.method == "POST" and form.errors else 200,
    )


@requires(Role.OWNER)
@require_POST
def change(request: HttpRequest, pk: int) -> HttpResponseBase:
    """One account's role, two-factor, enabled or not, or a new temporary password."""
    user = get_object_or_404(User, pk=pk)
    form = ChangeForm(request.POST)
    if not form.is_valid() or (
        form.cleaned_data["action"] == "role" and not form.cleaned_data["role"]
    ):
        messages.error(request, "That change was not understood.")
        return HttpResponseRedirect(reverse("accounts"))
    action = form.cleaned_data["action"]
    if user.pk == request.user.pk and action in ("role", "disable"):
        messages.error(request, "You cannot change your own role or disable yourself.")
        return HttpResponseRedirect(reverse("accounts"))
    with transaction.atomic():
        done = _apply(request, user, action, form.cleaned_data["role"])
    messages.success(request, done)
    return HttpResponseRedirect(reverse("accounts"))


def _who(request: HttpRequest) -> str:
    return str(request.user.get_username())


LOGGED = {
    "role": account_log.ROLE,
    "require": account_log.REQUIRE_TWO_FACTOR,
    "waive": account_log.WAIVE_TWO_FACTOR,
    "disable": account_log.DISABLE,
    "enable": account_log.ENABLE,
    "reset": account_log.RESET_PASSWORD,
}
"""Each action of the page as the accounts' log names it."""


def _apply(request: HttpRequest, user: User, action: str, role: str) -> str:
    """Make the change ``action`` to ``user`` and log it; returns what to tell the owner."""
    said, detail = f"{user.username}: {action} done.", ""
    if action == "role":
        roles.set_role(user, Role(role))
        detail = role
    elif action in ("require", "waive"):
        roles.set_flag(user, roles.TWO_FACTOR, action == "require")
    elif action in ("disable", "enable"):
        user.is_active = action == "enable"
        user.save(update_fields=["is_active"])
    else:  # reset: a new temporary password, shown once
        password = new_password()
        user.set_password(password)
        user.save(update_fields=["password"])
        roles.set_flag(user, roles.NEW_PASSWORD, True)
        said, detail = f"{user.username}'s temporary password: {password}", "temporary password"
    account_log.log(user.username, LOGGED[action], _who(request), detail)
    return said


@requires(Role.OWNER)
@require_POST
def require_all(request: HttpRequest) -> HttpResponseBase:
    """Require two-factor codes of every account."""
    if AllForm(request.POST).is_valid():
        with transaction.atomic():
            for user in User.objects.all():
                if not roles.two_factor_required(user):
                    roles.set_flag(user, roles.TWO_FACTOR, True)
                    account_log.log(
                        user.username, account_log.REQUIRE_TWO_FACTOR, _who(request), "of all"
                    )
        messages.success(request, "Every account must now use two-factor codes.")
    return HttpResponseRedirect(reverse("accounts"))
