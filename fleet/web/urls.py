"""The application's pages. Every view says who may see it (:mod:`fleet.web.roles`);
each section's pages are listed together below: add a section's lines beside the
others."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from fleet.web import accounts, cabinet_page, login, password, route_page, two_factor

urlpatterns: list[URLPattern | URLResolver] = [
    # Signing in and out, one's own password and two-factor codes.
    path("login/", login.login, name="login"),
    path("login/code/", login.login_code, name="login_code"),
    path("logout/", login.logout, name="logout"),
    path("password/", password.password_change, name="password_change"),
    path("two-factor/", two_factor.two_factor, name="two_factor"),
    # The owner's accounts page.
    path("accounts/", accounts.accounts, name="accounts"),
    path("accounts/<int:pk>/", accounts.change, name="account_change"),
    path("accounts/two-factor/", accounts.require_all, name="accounts_require_all"),
    # The route and its cabinets.
    path("", route_page.route, name="route"),
    path("cabinets/<str:name>/", cabinet_page.cabinet, name="cabinet"),
]

handler404 = "fleet.web.login.not_found"
