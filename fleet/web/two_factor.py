"""Setting up two-factor codes (TOTP): a QR code (inline SVG, drawn by segno) and its
key for the phone's authenticator app, confirmed by one code from it."""

from __future__ import annotations

from base64 import b32encode

import segno
from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.cache import never_cache
from django_otp import login as otp_login  # type: ignore[import-untyped]
from django_otp.plugins.otp_totp.models import TOTPDevice  # type: ignore[import-untyped]

from fleet.web.login import CodeForm
from fleet.web.roles import signed_in, two_factor_required


class RemoveForm(forms.Form):
    remove = forms.BooleanField(required=True)


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an SVG element to put inline in a page.

    >>> qr_svg("otpauth://totp/x?secret=AAAA").startswith("<svg")
    True
    """
    return str(segno.make(text, error="m").svg_inline(scale=5, border=2, omitsize=False))


def pretty_key(device: TOTPDevice) -> str:
    key = b32encode(device.bin_key).decode()
    return " ".join(key[i : i + 4] for i in range(0, len(key), 4))


@signed_in
@never_cache
def two_factor(request: HttpRequest) -> HttpResponseBase:
    """Set up the account's two-factor codes, or remove them."""
    user = request.user
    assert isinstance(user, User)
    confirmed = TOTPDevice.objects.devices_for_user(user, confirmed=True).first()
    if confirmed is not None:
        if request.method == "POST" and RemoveForm(request.POST).is_valid():
            confirmed.delete()
            messages.success(request, "Two-factor codes removed from this account.")
            return HttpResponseRedirect(reverse("two_factor"))
        return render(
            request,
            "web/two_factor.html",
            {"confirmed": True, "required": two_factor_required(user)},
        )
    device = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name="phone", confirmed=False)
    form = CodeForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        if device.verify_token(form.cleaned_data["code"]):
            device.confirmed = True
            device.save()
            otp_login(request, device)
            messages.success(request, "Two-factor codes are set up: the login asks for one.")
            return HttpResponseRedirect(reverse("route"))
        form.add_error("code", "That code is not right: check the phone's clock and try again.")
    return render(
        request,
        "web/two_factor.html",
        {
            "confirmed": False,
            "required": two_factor_required(user),
            "form": form,
            "qr": mark_safe(qr_svg(device.config_url)),  # segno's own SVG
            "key": pretty_key(device),
        },
    )
