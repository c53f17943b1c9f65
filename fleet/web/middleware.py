"""The application's middleware: its time on each response, its security headers, and
the gate every view passes (who may see it, and two-factor first where required)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.contrib.auth import logout
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase, HttpResponseRedirect
from django.urls import reverse
from django_otp import user_has_device  # type: ignore[import-untyped]

from fleet.web import roles

Handler = Callable[[HttpRequest], HttpResponseBase]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


class ServerTiming:
    """``Server-Timing: app;dur=<ms>``: the time the application took (the bench reads it)."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        start = time.perf_counter()
        response = self.get_response(request)
        response["Server-Timing"] = f"app;dur={(time.perf_counter() - start) * 1000:.1f}"
        return response


class SecurityHeaders:
    """A strict content security policy (the pages load nothing from elsewhere and run
    no inline script), and pages never cached (they show money and accounts)."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        response.setdefault("Cache-Control", "no-store")
        return response


#: The views an account that must first set up two-factor (or choose a new password) may
#: still reach: those pages themselves and logging out.
SETUP_VIEWS = frozenset({"two_factor", "password_change", "logout"})


class RoleGate:
    """Refuse every view that does not say who may see it (:mod:`fleet.web.roles`), and
    keep an account that must use two-factor codes, or choose a new password, to those
    pages until it has."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponseBase],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> HttpResponseBase | None:
        if getattr(view, "login_required", True) is False:
            return None
        if getattr(view, "web_roles", None) is None:
            raise PermissionDenied("this page says nobody may see it")
        user = request.user
        if not isinstance(user, User) or not user.is_authenticated:
            return None  # LoginRequiredMiddleware has sent it to the login already
        match = request.resolver_match
        name = match.url_name if match is not None else None
        has_device = bool(user_has_device(user, confirmed=True))
        if has_device and not user.is_verified():  # type: ignore[attr-defined]
            logout(request)  # a device set up elsewhere since: sign in with it
            return HttpResponseRedirect(reverse("login"))
        if name in SETUP_VIEWS:
            return None
        if not has_device and roles.two_factor_required(user):
            return HttpResponseRedirect(reverse("two_factor"))
        if roles.must_change_password(user):
            return HttpResponseRedirect(reverse("password_change"))
        return None
