"""``spit-fleet account`` on the real PostgreSQL, each command a process of its own as
the operator runs it: adding and listing accounts, a new password (temporary or given,
its login unlocked), two-factor codes removed for a lost phone, disabling and enabling
(never the last owner), each change in the accounts' log with who made it, and a clear
error for an account that is not there. What a command did is read back through Django
in a process of its own too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fleet.services import ROOT, Postgres, free_port, init_fleet

GOOD = "correct horse battery staple"


@pytest.fixture(scope="module")
def fleet(postgres: Postgres, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("accounts") / "fleet"
    init_fleet(folder, postgres.new_database(f"accounts_{os.getpid()}"), free_port())
    yield folder


def account(fleet: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``spit-fleet account ARGS --dir FLEET``, run by ``carol`` through sudo."""
    return subprocess.run(
        [sys.executable, "-m", "fleet.cli", "account", *args, "--dir", str(fleet)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "SUDO_USER": "carol"},
        check=False,
    )


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


def rows(fleet: Path) -> dict[str, list[str]]:
    """``account list``'s rows by name, each cell (two spaces part the columns)."""
    lines = ok(account(fleet, "list")).splitlines()[1:]
    cells = [[c.strip() for c in line.split("  ") if c.strip()] for line in lines]
    return {row[0]: row for row in cells}


STATE = """
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django_otp import devices_for_user
from axes.models import AccessAttempt
from fleet.web import roles
user = User.objects.get(username=NAME)
print(json.dumps({
    "active": user.is_active,
    "password": PASSWORD is not None and user.check_password(PASSWORD),
    "temporary": roles.must_change_password(user),
    "devices": len(list(devices_for_user(user, confirmed=None))),
    "sessions": sum(
        s.get_decoded().get("_auth_user_id") == str(user.pk) for s in Session.objects.all()
    ),
    "lockouts": AccessAttempt.objects.filter(username=NAME).count(),
}))
"""

SIGNED_IN = """
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django_otp.plugins.otp_totp.models import TOTPDevice
from axes.models import AccessAttempt
user = User.objects.get(username=NAME)
TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
session = SessionStore()
session["_auth_user_id"] = str(user.pk)
session.create()
AccessAttempt.objects.create(
    username=NAME, ip_address="192.0.2.1", user_agent="t", http_accept="", path_info="/login/",
    get_data="", post_data="", failures_since_start=5,
)
print("{}")
"""


def django(fleet: Path, script: str, name: str, password: str | None = None) -> dict[str, object]:
    """Run ``script`` with Django set up on ``fleet`` (``NAME``, ``PASSWORD`` given); the
    JSON it prints."""
    prelude = (
        "import json, sys\nfrom pathlib import Path\nfrom fleet.web.commands import setup_django\n"
        f"setup_django(Path({str(fleet)!r}))\nNAME = {name!r}\nPASSWORD = {password!r}\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", prelude + script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_accounts_are_added_listed_and_their_changes_logged(fleet: Path) -> None:
    ok(account(fleet, "add", "alice", "--role", "owner", "--password-stdin", stdin=GOOD + "\n"))
    said = ok(account(fleet, "add", "bob", "--role", "collector", "--no-two-factor"))
    assert said.startswith("account bob (collector) added; temporary password: ")
    listing = ok(account(fleet, "list")).splitlines()
    assert listing[0].split() == [
        "NAME",
        "ROLE",
        "STATE",
        "TWO-FACTOR",
        "PASSWORD",
        "LAST",
        "LOGIN",
    ]
    assert listing[1].split() == ["alice", "owner", "enabled", "required", "own", "never"]
    assert listing[2].split() == [
        "bob",
        "collector",
        "enabled",
        "not",
        "required",
        "temporary",
        "never",
    ]
    log = ok(account(fleet, "log")).splitlines()
    assert log[0].endswith("  bob  add  by shell:carol  (collector, two-factor waived)")
    assert log[1].endswith("  alice  add  by shell:carol  (owner, two-factor required)")
    assert account(fleet, "add", "Alice", "--role", "owner").returncode == 1


def test_a_password_reset_is_temporary_or_given_and_unlocks_the_login(fleet: Path) -> None:
    ok(account(fleet, "add", "dan", "--role", "technician", "--password-stdin", stdin=GOOD + "\n"))
    django(fleet, SIGNED_IN, "dan")
    said = ok(account(fleet, "reset-password", "dan"))
    temporary = said.split("temporary password ", 1)[1].split(" ", 1)[0]
    assert said.endswith("signed out of 1 session(s), its login unlocked\n")
    state = django(fleet, STATE, "dan", temporary)
    assert state["password"] and state["temporary"]
    assert state["sessions"] == 0 and state["lockouts"] == 0
    weak = account(fleet, "reset-password", "dan", "--password-stdin", stdin="dan\n")
    assert weak.returncode == 1 and "too short" in weak.stderr
    ok(account(fleet, "reset-password", "DAN", "--password-stdin", stdin=GOOD + "!\n"))
    state = django(fleet, STATE, "dan", GOOD + "!")
    assert state["password"] and not state["temporary"]
    log = ok(account(fleet, "log", "dan")).splitlines()
    assert [line.split("  ", 1)[1] for line in log] == [
        "dan  reset-password  by shell:carol  (password given)",
        "dan  reset-password  by shell:carol  (temporary password)",
        "dan  add  by shell:carol  (technician, two-factor required)",
    ]


def test_two_factor_codes_removed_sign_the_account_out(fleet: Path) -> None:
    ok(account(fleet, "add", "erin", "--role", "collector", "--password-stdin", stdin=GOOD + "\n"))
    django(fleet, SIGNED_IN, "erin")
    assert "required, set up" in ok(account(fleet, "list"))
    said = ok(account(fleet, "reset-two-factor", "erin"))
    assert said == (
        "erin: two-factor codes removed, signed out of 1 session(s); it sets up new codes at "
        "its next login\n"
    )
    state = django(fleet, STATE, "erin")
    assert state["devices"] == 0 and state["sessions"] == 0
    again = ok(account(fleet, "reset-two-factor", "erin"))
    assert again == "erin has no two-factor codes set up: nothing to reset\n"
    log = ok(account(fleet, "log", "erin")).splitlines()
    assert log[0].endswith("erin  reset-two-factor  by shell:carol  (1 device(s) removed)")
    assert len(log) == 2  # the add, and the one reset: nothing logged for nothing done


def test_disable_and_enable_but_never_the_last_owner(fleet: Path) -> None:
    ok(account(fleet, "add", "olga", "--role", "owner", "--password-stdin", stdin=GOOD + "\n"))
    ok(account(fleet, "add", "fred", "--role", "collector", "--password-stdin", stdin=GOOD + "\n"))
    django(fleet, SIGNED_IN, "fred")
    assert ok(account(fleet, "disable", "fred")) == "fred disabled; signed out of 1 session(s)\n"
    state = django(fleet, STATE, "fred")
    assert state["active"] is False and state["sessions"] == 0
    assert ok(account(fleet, "disable", "fred")) == "fred is disabled already\n"
    assert rows(fleet)["fred"][:3] == ["fred", "collector", "disabled"]
    assert ok(account(fleet, "enable", "fred")) == "fred enabled\n"
    assert django(fleet, STATE, "fred")["active"] is True
    owners = [name for name, row in rows(fleet).items() if row[1] == "owner"]
    for owner in owners[:-1]:
        ok(account(fleet, "disable", owner))
    last = account(fleet, "disable", owners[-1])
    assert last.returncode == 1
    assert last.stderr == (
        f"spit-fleet: {owners[-1]} is the only enabled owner: add or enable another owner first\n"
    )
    log = ok(account(fleet, "log", "fred")).splitlines()
    assert [line.split("  ")[2] for line in log] == ["enable", "disable", "add"]


@pytest.mark.parametrize(
    "action", ["reset-password", "reset-two-factor", "disable", "enable", "log"]
)
def test_an_account_that_is_not_there_is_said_clearly(fleet: Path, action: str) -> None:
    done = account(fleet, action, "nobody")
    assert done.returncode == 1
    assert done.stderr == (
        "spit-fleet: there is no account 'nobody' (spit-fleet account list shows them)\n"
    )
