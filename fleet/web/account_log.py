"""The accounts' log (``account_log``, :mod:`fleet.schema` version 4): every change to an
account, made on the owner's accounts page or with ``spit-fleet account``, with when,
which account, what was done and who did it. A change and its line are written in one
transaction (the caller's ``transaction.atomic()``): none is made unlogged.

Who: an account's name for the page; ``shell:`` and the user at the server's shell for
the command (the user ``sudo`` was run by, when it was).
"""

from __future__ import annotations

import datetime
import getpass
import os
from dataclasses import dataclass

from django.db import connection

ADD = "add"
ROLE = "role"
DISABLE = "disable"
ENABLE = "enable"
RESET_PASSWORD = "reset-password"
RESET_TWO_FACTOR = "reset-two-factor"
REQUIRE_TWO_FACTOR = "require-two-factor"
WAIVE_TWO_FACTOR = "waive-two-factor"
ACTIONS = (
    ADD,
    ROLE,
    DISABLE,
    ENABLE,
    RESET_PASSWORD,
    RESET_TWO_FACTOR,
    REQUIRE_TWO_FACTOR,
    WAIVE_TWO_FACTOR,
)
"""What a line of the log says was done."""


@dataclass(frozen=True, slots=True)
class Entry:
    at: datetime.datetime
    account: str
    action: str
    detail: str
    done_by: str


def shell_user() -> str:
    """Who runs ``spit-fleet account`` at the server's shell, as the log says it."""
    try:
        user = os.environ.get("SUDO_USER") or getpass.getuser()
    except (KeyError, OSError):  # a uid with no name
        user = str(os.getuid())
    return f"shell:{user}"


def log(account: str, action: str, done_by: str, detail: str = "") -> None:
    """Keep one line of the log (inside the caller's transaction, if there is one)."""
    if action not in ACTIONS:
        raise ValueError(f"no account action {action!r}")
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO account_log (account, action, detail, done_by) VALUES (%s, %s, %s, %s)",
            [account, action, detail[:500], done_by[:200]],
        )


def entries(account: str | None = None, limit: int = 50) -> list[Entry]:
    """The latest lines of the log (of ``account`` alone, when given), the newest first."""
    where, params = ("WHERE lower(account) = lower(%s) ", [account]) if account else ("", [])
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT at, account, action, detail, done_by FROM account_log "
            + where
            + "ORDER BY at DESC, id DESC LIMIT %s",
            [*params, limit],
        )
        return [Entry(*row) for row in cursor.fetchall()]
