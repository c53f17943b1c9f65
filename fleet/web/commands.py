"""``spit-fleet web`` and ``spit-fleet account``: serving the operator's pages, and
making accounts from the shell (the first owner's, above all).

::

    spit-fleet web --dir /var/lib/spit-fleet --bind 127.0.0.1:8000
    spit-fleet account add alice --role owner          # prints a temporary password
    echo "$PASSWORD" | spit-fleet account add bob --role collector --password-stdin
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from fleet.broker import FleetConfig

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
    """Django's tables (accounts, sessions, two-factor devices, login failures), then the
    connection closed (gunicorn's workers make their own)."""
    from django.core.management import call_command
    from django.db import connections

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


def _account_add(args: argparse.Namespace) -> int:
    setup_django(args.dir)
    migrate()
    from django.contrib.auth.models import User
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    from fleet.broker import FleetError
    from fleet.web import roles
    from fleet.web.accounts import add_account, new_password

    if User.objects.filter(username__iexact=args.name).exists():
        raise FleetError(f"there is an account {args.name!r} already")
    try:
        User.username_validator(args.name)
    except ValidationError:
        raise FleetError("an account's name is letters, digits and @ . + - _") from None
    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\n")
        try:
            validate_password(password, User(username=args.name))
        except ValidationError as exc:
            raise FleetError(" ".join(exc.messages)) from None
    else:
        password = new_password()
    user = add_account(
        args.name, roles.Role(args.role), password, two_factor=not args.no_two_factor
    )
    if args.password_stdin:
        roles.set_flag(user, roles.NEW_PASSWORD, False)
        print(f"account {args.name} ({args.role}) added")
    else:
        print(f"account {args.name} ({args.role}) added; temporary password: {password}")
        print("it is to be changed at the first login")
    return 0


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

    account = sub.add_parser("account", help="the web application's accounts")
    actions = account.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = command("add", "add an account (its password printed, or read)", actions)
    add.add_argument("name", help="the account's name")
    add.add_argument("--role", required=True, choices=["owner", "collector", "technician"])
    add.add_argument(
        "--password-stdin", action="store_true", help="read its password from standard input"
    )
    add.add_argument(
        "--no-two-factor", action="store_true", help="do not require two-factor codes of it"
    )
    add.set_defaults(func=_account_add)
