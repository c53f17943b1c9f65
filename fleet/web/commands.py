"""``spit-fleet web`` and ``spit-fleet account``: serving the operator's pages, and the
accounts from the shell (:mod:`fleet.web.account_commands`).

::

    spit-fleet web --dir /var/lib/spit-fleet --bind 127.0.0.1:8000
    spit-fleet account add alice --role owner          # prints a temporary password
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from fleet.broker import FleetConfig
from fleet.web import account_commands

DEFAULT_DIR = Path("/var/lib/spit-fleet")
DEFAULT_BIND = "127.0.0.1:8000"


def setup_django(folder: Path, *, https: bool = False) -> None:
    """Django's settings for the fleet in ``folder``, and Django set up on them."""
    FleetConfig.load(folder)  # a clear error when the folder holds no fleet
    os.environ["SPIT_FLEET_DIR"] = str(folder.resolve())
    os.environ["DJANGO_SETTINGS_MODULE"] = "fleet.web.settings"
    if https:
        os.environ["SPIT_FLEET_WEB_HTTPS"] = "1"
    import django

    django.setup()


def migrate() -> None:
    """The fleet's schema (:mod:`fleet.schema`: the pages read its newest tables, and
    log to them) and Django's tables (accounts, sessions, two-factor devices, login
    failures), then the connection closed (gunicorn's workers make their own)."""
    from django.core.management import call_command
    from django.db import connections

    from fleet import store
    from fleet.web.db import fleet_connection

    store.migrate(fleet_connection())
    call_command("migrate", interactive=False, verbosity=0)
    connections.close_all()


def _web(args: argparse.Namespace) -> int:
    setup_django(args.dir, https=args.https)
    migrate()
    argv = [
        sys.executable,
        "-m",
        "gunicorn",
        "fleet.web.wsgi:application",
        "--bind",
        args.bind,
        "--workers",
        str(args.workers),
        "--threads",
        str(args.threads),
        "--worker-class",
        "gthread",
        "--graceful-timeout",
        "10",
        "--no-control-socket",
        "--forwarded-allow-ips",
        args.forwarded_allow_ips,
    ]
    sys.stdout.flush()
    os.execv(sys.executable, argv)  # the same environment: SPIT_FLEET_DIR and the settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``web`` and ``account`` to ``spit-fleet``'s subcommands."""

    def command(
        name: str, summary: str, parent: argparse._SubParsersAction[argparse.ArgumentParser] = sub
    ) -> argparse.ArgumentParser:
        p = parent.add_parser(name, help=summary, description=summary)
        p.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="the fleet's folder")
        return p

    web = command("web", "serve the operator's pages (Django migrations first, then gunicorn)")
    web.add_argument("--bind", default=DEFAULT_BIND, help="address:port to listen on")
    web.add_argument("--workers", type=int, default=2, help="gunicorn's worker processes")
    web.add_argument("--threads", type=int, default=4, help="threads in each worker")
    web.add_argument(
        "--https",
        action="store_true",
        help="served over HTTPS by a reverse proxy (secure cookies, HSTS)",
    )
    web.add_argument(
        "--forwarded-allow-ips",
        default="127.0.0.1,::1",
        help="the proxies whose X-Forwarded-* headers are trusted",
    )
    web.set_defaults(func=_web)

    account_commands.register(sub, command)
