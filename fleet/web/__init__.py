"""The operator's web application (``spit-fleet web``): the route's cabinets on a phone,
for owners, collectors and technicians (docs/fleet.md, "The operator's route").

A Django project and its one app: :mod:`~fleet.web.settings` reads the fleet's folder,
:mod:`~fleet.web.roles` says who sees what, :mod:`~fleet.web.db` hands the fleet's own
queries the connection under Django's. Importing the package imports no Django:

>>> from fleet.web import commands
>>> commands.DEFAULT_BIND
'127.0.0.1:8000'
"""

__all__ = [
    "account_commands",
    "account_log",
    "accounts",
    "alert_options_page",
    "alerts_page",
    "apps",
    "cabinet_data",
    "cabinet_page",
    "collections_page",
    "commands",
    "db",
    "documents_page",
    "fairness_data",
    "fmt",
    "login",
    "middleware",
    "password",
    "refused_data",
    "refused_page",
    "roles",
    "rollouts_page",
    "route_page",
    "route_table",
    "settings",
    "templatetags",
    "two_factor",
    "urls",
    "wsgi",
]
