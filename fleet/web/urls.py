"""The application's pages. Every view says who may see it (:mod:`fleet.web.roles`);
each section's pages are listed together below: add a section's lines beside the
others."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from fleet.web import (
    accounts,
    alert_options_page,
    alerts_page,
    cabinet_page,
    collections_page,
    documents_page,
    login,
    password,
    refused_page,
    rollouts_page,
    route_page,
    two_factor,
)

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
    # Collections (collectors and owners), with the bookkeeper's CSV.
    path("collections/", collections_page.collections_page, name="collections"),
    path("collections/export.csv", collections_page.collections_csv, name="collections_csv"),
    path(
        "collections/<str:name>/",
        collections_page.cabinet_collections,
        name="collections_cabinet",
    ),
    # Alerts, and the owner's thresholds and opening hours.
    path("alerts/", alerts_page.alerts_page, name="alerts"),
    path("alerts/options/", alert_options_page.alert_options, name="alert_options"),
    # Settings documents for the route or a location (owners).
    path("settings/", documents_page.documents_list, name="documents"),
    path("settings/<str:document>/", documents_page.document_edit, name="document_edit"),
    # Rollouts of signed releases (owners).
    path("rollouts/", rollouts_page.rollouts_page, name="rollouts"),
    path("rollouts/<int:rollout>/halt/", rollouts_page.rollout_halt, name="rollout_halt"),
    # The messages ingest refused (owners and technicians).
    path("refused/", refused_page.refused, name="refused"),
]

handler403 = "fleet.web.login.forbidden"
handler404 = "fleet.web.login.not_found"
