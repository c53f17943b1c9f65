"""The three roles, as Django groups, and the checks every view makes.

- ``owner``: everything, the accounts too;
- ``collector``: the route and cabinets with their money, and collections;
- ``technician``: the route and cabinets without money: health, faults, versions, and
  (with owners) the messages ingest refused.

Every view says who may see it, with :func:`requires` (a role among those named) or
:func:`signed_in` (any account: its own password and two-factor, logging out); the
:class:`~fleet.web.middleware.RoleGate` refuses a view that says neither, so a page
added without a check is shut rather than open.

An account can also be made to use two-factor codes (the ``two-factor`` group): until it
has set them up it reaches nothing but the set-up page and logging out.

>>> sorted(r.value for r in Role)
['collector', 'owner', 'technician']
>>> Role.COLLECTOR in MONEY
True
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import wraps
from typing import Any, Protocol

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase


class Role(StrEnum):
    OWNER = "owner"
    COLLECTOR = "collector"
    TECHNICIAN = "technician"


ROLES = tuple(Role)
MONEY = frozenset({Role.OWNER, Role.COLLECTOR})
"""The roles that see earnings, audits of money and collections."""
SERVICE = frozenset({Role.OWNER, Role.TECHNICIAN})
"""The roles that look after the cabinets' link: they see the messages ingest refused."""
TWO_FACTOR = "two-factor"
"""The group of accounts that must use two-factor codes."""
NEW_PASSWORD = "new-password"
"""The group of accounts given a temporary password, to be changed at the next login."""
ANY = "signed-in"
"""A view's :attr:`roles` when any signed-in account may see it."""

View = Callable[..., HttpResponseBase]


class Checked(Protocol):
    """A view that says who may see it."""

    web_roles: frozenset[Role] | str

    def __call__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase: ...


UserLike = AbstractBaseUser | AnonymousUser


def _groups(user: User) -> frozenset[str]:
    """The account's group names, looked up once a request."""
    cached: frozenset[str] | None = getattr(user, "_web_groups", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True))
        user._web_groups = cached  # type: ignore[attr-defined]
    return cached


def role_of(user: UserLike) -> Role | None:
    """The account's role (its group), or ``None`` (an account with none sees nothing)."""
    if not isinstance(user, User) or not user.is_authenticated or not user.is_active:
        return None
    names = _groups(user)
    return next((r for r in ROLES if r.value in names), None)


def sees_money(user: UserLike) -> bool:
    """Whether the account may see earnings, audits of money and collections."""
    return role_of(user) in MONEY


def sees_refused(user: UserLike) -> bool:
    """Whether the account sees the messages ingest refused (:data:`SERVICE`)."""
    return role_of(user) in SERVICE


def two_factor_required(user: User) -> bool:
    return TWO_FACTOR in _groups(user)


def must_change_password(user: User) -> bool:
    return NEW_PASSWORD in _groups(user)


def set_flag(user: User, group: str, on: bool) -> None:
    """Put ``user`` in (or take it out of) the flag group ``group``."""
    found = Group.objects.get_or_create(name=group)[0]
    if on:
        user.groups.add(found)
    else:
        user.groups.remove(found)
    vars(user).pop("_web_groups", None)


def set_role(user: User, role: Role) -> None:
    """Give ``user`` ``role`` (and no other)."""
    user.groups.remove(*Group.objects.filter(name__in=[r.value for r in ROLES]))
    user.groups.add(Group.objects.get_or_create(name=role.value)[0])
    vars(user).pop("_web_groups", None)


def ensure_groups(app_config: object = None, **kwargs: object) -> None:
    """Make the roles' groups (after ``migrate`` has made auth's tables)."""
    if getattr(app_config, "label", "auth") != "auth":
        return
    for name in (*(r.value for r in ROLES), TWO_FACTOR, NEW_PASSWORD):
        Group.objects.get_or_create(name=name)


def requires(*roles: Role) -> Callable[[View], Checked]:
    """Let only accounts with one of ``roles`` see the view (403 for the others)."""
    if not roles:
        raise ValueError("requires() names at least one role (signed_in: any account)")
    allowed = frozenset(roles)

    def decorate(view: View) -> Checked:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if role_of(request.user) not in allowed:
                raise PermissionDenied
            return view(request, *args, **kwargs)

        checked.web_roles = allowed  # type: ignore[attr-defined]
        return checked  # type: ignore[return-value]

    return decorate


def signed_in(view: View) -> Checked:
    """Let any signed-in account see the view (its own password, two-factor, logging
    out); the login itself is checked by Django's ``LoginRequiredMiddleware``."""
    view.web_roles = ANY  # type: ignore[attr-defined]
    return view  # type: ignore[return-value]


def context(request: HttpRequest) -> dict[str, object]:
    """The templates' ``role``, ``sees_money`` and ``sees_refused``."""
    return {
        "role": role_of(request.user),
        "sees_money": sees_money(request.user),
        "sees_refused": sees_refused(request.user),
    }
