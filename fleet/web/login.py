"""Signing in: the password, then (for an account with a confirmed two-factor device)
its code; logging out.

Between the two steps the session holds only who is waiting for a code, and for how
long: the account is not signed in until the code is right. Password failures are
counted by django-axes (per user name and address, :mod:`fleet.web.settings`); code
failures by the device itself (django-otp's throttling, each failure doubling the wait).
"""

from __future__ import annotations

import time

from django import forms
from django.contrib import auth
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.contrib.auth.views import LogoutView
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django_otp import login as otp_login  # type: ignore[import-untyped]
from django_otp import user_has_device
from django_otp.plugins.otp_totp.models import TOTPDevice  # type: ignore[import-untyped]

from fleet.web.roles import signed_in

PENDING = "web_pending_login"
PENDING_S = 300
"""How long a right password waits for its code."""


class CodeForm(forms.Form):
    code = forms.CharField(
        label="Code from your phone",
        max_length=8,
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "one-time-code", "autofocus": True}
        ),
    )

    def clean_code(self) -> str:
        code = "".join(str(self.cleaned_data["code"]).split())
        if not code.isdigit() or len(code) != 6:
            raise forms.ValidationError("The code is six digits.")
        return code


def _next(request: HttpRequest, wanted: str | None) -> str:
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return reverse("route")


@login_not_required
@sensitive_post_parameters("password")
@csrf_protect
@never_cache
def login(request: HttpRequest) -> HttpResponseBase:
    """The user name and password; the code next if the account has a device."""
    wanted = request.POST.get("next") or request.GET.get("next")
    form = AuthenticationForm(request, data=request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        user = form.get_user()
        if user_has_device(user, confirmed=True):
            request.session.cycle_key()
            request.session[PENDING] = {
                "user": user.pk,
                "backend": getattr(user, "backend", ""),
                "at": time.time(),
                "next": _next(request, wanted),
            }
            return HttpResponseRedirect(reverse("login_code"))
        auth.login(request, user)
        return HttpResponseRedirect(_next(request, wanted))
    return render(request, "web/login.html", {"form": form, "next": wanted or ""})


@login_not_required
@csrf_protect
@never_cache
def login_code(request: HttpRequest) -> HttpResponseBase:
    """The two-factor code, after the right password."""
    pending = request.session.get(PENDING)
    if not isinstance(pending, dict) or time.time() - float(pending.get("at", 0)) > PENDING_S:
        request.session.pop(PENDING, None)
        return HttpResponseRedirect(reverse("login"))
    user = User.objects.filter(pk=pending["user"], is_active=True).first()
    device = None if user is None else TOTPDevice.objects.devices_for_user(user).first()
    if user is None or device is None:
        request.session.pop(PENDING, None)
        return HttpResponseRedirect(reverse("login"))
    form = CodeForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        allowed, _ = device.verify_is_allowed()
        if not allowed:
            form.add_error("code", "Too many wrong codes: wait a little, then try again.")
        elif device.verify_token(form.cleaned_data["code"]):
            del request.session[PENDING]
            auth.login(request, user, backend=str(pending["backend"]))
            otp_login(request, device)
            return HttpResponseRedirect(str(pending.get("next") or reverse("route")))
        else:
            form.add_error("code", "That code is not right (or has been used already).")
    return render(request, "web/login_code.html", {"form": form, "username": user.username})


class Logout(LogoutView):
    template_name = "web/logged_out.html"


logout = signed_in(Logout.as_view())


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "web/error.html", {"title": "Not found"}, status=404)


def forbidden(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "web/error.html", {"title": "Not for this account"}, status=403)
