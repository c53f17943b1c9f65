"""Changing one's own password (and so a temporary one an owner gave)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.forms import PasswordChangeForm
from django.contrib.auth.models import User
from django.contrib.auth.views import PasswordChangeView
from django.http import HttpResponse
from django.urls import reverse_lazy

from fleet.web import roles


class PasswordChange(PasswordChangeView):
    template_name = "web/password_change.html"
    success_url = reverse_lazy("route")

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        response = super().form_valid(form)
        assert isinstance(form.user, User)
        roles.set_flag(form.user, roles.NEW_PASSWORD, False)
        messages.success(self.request, "Password changed.")
        return response


password_change = roles.signed_in(PasswordChange.as_view())
