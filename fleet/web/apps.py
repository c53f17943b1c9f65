"""The web application as a Django app: its templates and static files, and the roles'
groups made after every ``migrate``."""

from __future__ import annotations

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class WebConfig(AppConfig):
    name = "fleet.web"
    label = "web"
    verbose_name = "The operator's route"

    def ready(self) -> None:
        from fleet.web.roles import ensure_groups

        post_migrate.connect(ensure_groups, dispatch_uid="fleet.web.groups")
