"""``spit-fleet account``: the web application's accounts from the server's shell (the
first owner's above all, and an owner locked out of the pages).

::

    spit-fleet account add alice --role owner          # prints a temporary password
    echo "$PASSWORD" | spit-fleet account add bob --role collector --password-stdin
    spit-fleet account list
    spit-fleet account reset-password bob              # a new temporary password
    spit-fleet account reset-two-factor bob            # a lost phone: codes set up anew
    spit-fleet account disable bob
    spit-fleet account enable bob
    spit-fleet account log [bob]

Every change is logged (:mod:`fleet.web.account_log`, who: ``shell:`` and the user) in
the transaction that makes it. Resetting a password or two-factor codes, and disabling,
also sign the account out wherever it is signed in.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from fleet.broker import FleetError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    # How ``spit-fleet`` adds a subcommand: its name, its summary, the parser's actions.
    Command = Callable[
        [str, str, argparse._SubParsersAction[argparse.ArgumentParser]], argparse.ArgumentParser
    ]


def _open(args: argparse.Namespace) -> None:
    """Django on the fleet in ``--dir``, its tables and the fleet's schema up to date."""
    from fleet.web.commands import migrate, setup_django

    setup_django(args.dir)
    migrate()


def _find(name: str) -> User:
    from django.contrib.auth.models import User

    user = User.objects.filter(username__iexact=name).first()
    if user is None:
        raise FleetError(f"there is no account {name!r} (spit-fleet account list shows them)")
    return user


def _password_from_stdin(name: str) -> str:
    from django.contrib.auth.models import User
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    password = sys.stdin.readline().rstrip("\n")
    try:
        validate_password(password, User(username=name))
    except ValidationError as exc:
        raise FleetError(" ".join(exc.messages)) from None
    return password


def end_sessions(user: User) -> int:
    """Sign ``user`` out wherever it is signed in (its sessions deleted); returns how
    many it had."""
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    ended = 0
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get("_auth_user_id") == str(user.pk):
            session.delete()
            ended += 1
    return ended


def _add(args: argparse.Namespace) -> int:
    _open(args)
    from django.contrib.auth.models import User
    from django.core.exceptions import ValidationError
    from django.db import transaction

    from fleet.web import account_log, roles
    from fleet.web.accounts import add_account, new_password

    if User.objects.filter(username__iexact=args.name).exists():
        raise FleetError(f"there is an account {args.name!r} already")
    try:
        User.username_validator(args.name)
    except ValidationError:
        raise FleetError("an account's name is letters, digits and @ . + - _") from None
    password = _password_from_stdin(args.name) if args.password_stdin else new_password()
    with transaction.atomic():
        user = add_account(
            args.name, roles.Role(args.role), password, two_factor=not args.no_two_factor
        )
        if args.password_stdin:
            roles.set_flag(user, roles.NEW_PASSWORD, False)
        detail = f"{args.role}, two-factor {'waived' if args.no_two_factor else 'required'}"
        account_log.log(user.username, account_log.ADD, account_log.shell_user(), detail)
    if args.password_stdin:
        print(f"account {args.name} ({args.role}) added")
    else:
        print(f"account {args.name} ({args.role}) added; temporary password: {password}")
        print("it is to be changed at the first login")
    return 0


def _role(user: User) -> str:
    from fleet.web import roles

    names = set(user.groups.values_list("name", flat=True))
    return next((r.value for r in roles.ROLES if r.value in names), "none")


def _two_factor(user: User) -> str:
    from django_otp import user_has_device  # type: ignore[import-untyped]

    from fleet.web import roles

    required = "required" if roles.two_factor_required(user) else "not required"
    return required + (", set up" if user_has_device(user, confirmed=True) else "")


def _list(args: argparse.Namespace) -> int:
    _open(args)
    from django.contrib.auth.models import User

    from fleet.web import roles
    from fleet.web.fmt import stamp

    heads = ("NAME", "ROLE", "STATE", "TWO-FACTOR", "PASSWORD", "LAST LOGIN")
    table = [heads]
    for user in User.objects.order_by("username").prefetch_related("groups"):
        table.append(
            (
                user.username,
                _role(user),
                "enabled" if user.is_active else "disabled",
                _two_factor(user),
                "temporary" if roles.must_change_password(user) else "own",
                stamp(user.last_login) or "never",
            )
        )
    if len(table) == 1:
        print("no accounts yet: spit-fleet account add NAME --role owner")
        return 0
    widths = [max(len(row[i]) for row in table) for i in range(len(heads))]
    for row in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    return 0


def _reset_password(args: argparse.Namespace) -> int:
    _open(args)
    from axes.utils import reset as reset_lockouts  # type: ignore[import-untyped]
    from django.db import transaction

    from fleet.web import account_log, roles
    from fleet.web.accounts import new_password

    user = _find(args.name)
    password = _password_from_stdin(user.username) if args.password_stdin else new_password()
    with transaction.atomic():
        user.set_password(password)
        user.save(update_fields=["password"])
        roles.set_flag(user, roles.NEW_PASSWORD, not args.password_stdin)
        detail = "password given" if args.password_stdin else "temporary password"
        who = account_log.shell_user()
        account_log.log(user.username, account_log.RESET_PASSWORD, who, detail)
        ended = end_sessions(user)
    reset_lockouts(username=user.username)
    said = (
        "password set"
        if args.password_stdin
        else f"temporary password {password} (to be changed at the next login)"
    )
    print(f"{user.username}: {said}; signed out of {ended} session(s), its login unlocked")
    return 0


def _reset_two_factor(args: argparse.Namespace) -> int:
    _open(args)
    from django.db import transaction
    from django_otp import devices_for_user

    from fleet.web import account_log, roles

    user = _find(args.name)
    with transaction.atomic():
        devices = list(devices_for_user(user, confirmed=None))
        if not devices:
            print(f"{user.username} has no two-factor codes set up: nothing to reset")
            return 0
        for device in devices:
            device.delete()
        detail = f"{len(devices)} device(s) removed"
        account_log.log(
            user.username, account_log.RESET_TWO_FACTOR, account_log.shell_user(), detail
        )
        ended = end_sessions(user)
    then = (
        "it sets up new codes at its next login"
        if roles.two_factor_required(user)
        else "it signs in with its password alone until it sets up codes again"
    )
    print(f"{user.username}: two-factor codes removed, signed out of {ended} session(s); {then}")
    return 0


def _disable(args: argparse.Namespace) -> int:
    _open(args)
    from django.contrib.auth.models import User
    from django.db import transaction

    from fleet.web import account_log, roles

    user = _find(args.name)
    if not user.is_active:
        print(f"{user.username} is disabled already")
        return 0
    others = User.objects.filter(is_active=True, groups__name=roles.Role.OWNER.value)
    if _role(user) == roles.Role.OWNER and not others.exclude(pk=user.pk).exists():
        raise FleetError(
            f"{user.username} is the only enabled owner: add or enable another owner first"
        )
    with transaction.atomic():
        user.is_active = False
        user.save(update_fields=["is_active"])
        account_log.log(user.username, account_log.DISABLE, account_log.shell_user())
        ended = end_sessions(user)
    print(f"{user.username} disabled; signed out of {ended} session(s)")
    return 0


def _enable(args: argparse.Namespace) -> int:
    _open(args)
    from django.db import transaction

    from fleet.web import account_log

    user = _find(args.name)
    if user.is_active:
        print(f"{user.username} is enabled already")
        return 0
    with transaction.atomic():
        user.is_active = True
        user.save(update_fields=["is_active"])
        account_log.log(user.username, account_log.ENABLE, account_log.shell_user())
    print(f"{user.username} enabled")
    return 0


def _log(args: argparse.Namespace) -> int:
    _open(args)
    from fleet.web import account_log
    from fleet.web.fmt import stamp

    if args.name is not None:
        _find(args.name)
    lines = account_log.entries(args.name, args.limit)
    if not lines:
        print("nothing logged yet")
    for e in lines:
        detail = f"  ({e.detail})" if e.detail else ""
        print(f"{stamp(e.at)}  {e.account}  {e.action}  by {e.done_by}{detail}")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser], command: Command) -> None:
    """Add ``account`` and its actions to ``spit-fleet``'s subcommands (``command``: how
    ``spit-fleet`` adds one, ``--dir`` included)."""
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
    add.set_defaults(func=_add)
    command("list", "every account: role, enabled, two-factor, last login", actions).set_defaults(
        func=_list
    )
    reset = command("reset-password", "a new temporary password (printed, or read)", actions)
    reset.add_argument("name")
    reset.add_argument(
        "--password-stdin", action="store_true", help="read the new password from standard input"
    )
    reset.set_defaults(func=_reset_password)
    for name, summary, func in (
        ("reset-two-factor", "remove its two-factor codes (a lost phone)", _reset_two_factor),
        ("disable", "shut the account out (signed out at once)", _disable),
        ("enable", "let a disabled account in again", _enable),
    ):
        one = command(name, summary, actions)
        one.add_argument("name")
        one.set_defaults(func=func)
    log = command("log", "the latest changes to the accounts, newest first", actions)
    log.add_argument("name", nargs="?", help="one account's changes only")
    log.add_argument("--limit", type=int, default=50, help="how many lines (default 50)")
    log.set_defaults(func=_log)
