"""The web application's test harness, for the web tests and the bench: the real app as
its own process (``spit-fleet web``: migrations, then gunicorn) on a free port, accounts
of each role made with ``spit-fleet account add``, a Playwright page logged in (with a
two-factor code when the account has a device), and two-factor codes worked out from the
key the set-up page shows.

::

    app = WebApp(folder)           # a fleet folder made by tests.fleet.services.init_fleet
    app.start()
    owner = app.account("olive", "owner")
    log_in(page, app, owner)
    page.goto(app.url("/"))
    app.stop()
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from base64 import b32decode
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.fleet.services import ROOT, free_port
from tests.fleet.waiting import Output, wait_for

#: Chromium as Debian installs it, headless, quiet (no network of its own).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "correct horse battery staple"
_names = itertools.count()


def launch_chromium(playwright: Any) -> Any:
    """One headless Chromium (a test session's)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


@dataclass
class Totp:
    """An account's two-factor device as its phone holds it: the key, and the last time
    step a code was given for (a code is good once; the app accepts one step either way)."""

    key: str
    last_step: int = -1

    def code(self) -> str:
        """A code the app takes now and has not taken before: this step's, or the next
        one's (the app allows one step either way). A test takes at most two codes of an
        account in one step; a third is refused here rather than waited for."""
        step = max(self.last_step + 1, int(time.time() // 30))
        if step > time.time() // 30 + 1:
            raise AssertionError(
                "a third two-factor code in one 30-second step: use another account"
            )
        self.last_step = step
        return self._at(step)

    def wrong(self) -> str:
        """A six-digit code the app would not take now (no step used up)."""
        now = int(time.time() // 30)
        taken = {self._at(step) for step in range(now - 2, now + 3)}
        return next(c for c in (f"{n:06d}" for n in range(0, 10**6, 111_111)) if c not in taken)

    def _at(self, step: int) -> str:
        from django_otp.oath import hotp  # type: ignore[import-untyped]

        return f"{hotp(b32decode(self.key.replace(' ', '')), step, 6):06d}"


@dataclass
class Account:
    name: str
    role: str
    password: str = PASSWORD
    totp: Totp | None = None


@dataclass
class WebApp:
    """``spit-fleet web`` on the fleet in ``folder``, on a free loopback port. It is up
    once gunicorn says it listens and the login page answers (the request waits in the
    socket's queue until a worker takes it)."""

    folder: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    output: Output | None = None

    @property
    def log(self) -> Path:
        return self.folder / "web.log"

    def env(self) -> dict[str, str]:
        return {**os.environ, "PYTHONPATH": str(ROOT)}

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def start(self, *, workers: int = 1, threads: int = 4, within_s: float = 60.0) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "fleet.cli",
                "web",
                "--dir",
                str(self.folder),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(workers),
                "--threads",
                str(threads),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=self.env(),
        )
        assert self.process.stdout is not None
        self.output = Output(self.process.stdout, self.log)
        deadline = time.monotonic() + within_s
        try:
            wait_for(
                "the web application to listen",
                self._listening,
                self.output.changes,
                timeout_s=within_s,
            )
            self._answer(max(1.0, deadline - time.monotonic()))
        except BaseException:
            self.stop()
            raise

    def _listening(self) -> bool:
        assert self.output is not None
        if self.output.ended:
            raise AssertionError(f"spit-fleet web exited: {self.log.read_text()[-3000:]}")
        return f"Listening at: {self.url('')}" in self.output.text()

    def _answer(self, timeout_s: float) -> None:
        try:
            with urllib.request.urlopen(self.url("/login/"), timeout=timeout_s) as response:
                status = response.status
        except (urllib.error.URLError, OSError) as exc:
            raise AssertionError(
                f"spit-fleet web does not answer: {exc}: {self.log.read_text()[-3000:]}"
            ) from None
        assert status == 200, f"the login page answered {status}"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.output is not None:
            self.output.join()

    def back_off_over(self, name: str) -> None:
        """Let account ``name``'s two-factor back-off run out, as time would (its device's
        count of wrong codes and their time, cleared in the database)."""
        import psycopg

        from fleet.broker import FleetConfig

        with psycopg.connect(FleetConfig.load(self.folder).database) as conn:
            conn.execute(
                "UPDATE otp_totp_totpdevice SET throttling_failure_count = 0, "
                "throttling_failure_timestamp = NULL "
                "WHERE user_id = (SELECT id FROM auth_user WHERE username = %s)",
                (name,),
            )

    def account(
        self, name: str, role: str, *, two_factor: bool = False, password: str = PASSWORD
    ) -> Account:
        """Make an account with ``spit-fleet account add`` (its password given, so not a
        temporary one); two-factor required of it when ``two_factor``."""
        command = [sys.executable, "-m", "fleet.cli", "account", "add", name, "--role", role]
        command += ["--dir", str(self.folder), "--password-stdin"]
        if not two_factor:
            command.append("--no-two-factor")
        done = subprocess.run(
            command,
            input=password + "\n",
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=self.env(),
            check=False,
        )
        assert done.returncode == 0, done.stderr + done.stdout
        return Account(name, role, password)


def unique(prefix: str) -> str:
    """A fresh account name (accounts live as long as the module's app)."""
    return f"{prefix}{os.getpid()}x{next(_names)}"


def log_in(page: Any, app: WebApp, account: Account) -> None:
    """Log ``page`` in as ``account`` (its code too, when it has set up two-factor)."""
    page.goto(app.url("/login/"))
    page.fill("input[name=username]", account.name)
    page.fill("input[name=password]", account.password)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    if "/login/code/" in page.url:
        assert account.totp is not None, f"{account.name} has two-factor codes the test lacks"
        page.fill("input[name=code]", account.totp.code())
        page.click("main button[type=submit]")
        page.wait_for_load_state()
    assert "/login/" not in page.url, page.content()[-2000:]


def set_up_two_factor(page: Any, app: WebApp, account: Account) -> None:
    """Set up two-factor codes for the account logged in on ``page``, as its owner would
    with a phone: the key read off the page, a code worked out from it."""
    page.goto(app.url("/two-factor/"))
    account.totp = Totp(page.text_content("#totp-key").strip())
    page.fill("input[name=code]", account.totp.code())
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    with contextlib.suppress(Exception):
        page.goto(app.url("/two-factor/"))
    assert page.locator("#two-factor-on").count() == 1, page.content()[-2000:]


def log_out(page: Any) -> None:
    """Log out with the page's own menu form."""
    page.locator("form[action='/logout/'] button").first.dispatch_event("click")
    page.wait_for_url("**/login/")


def url_paths(folder: Path) -> list[str]:
    """Every URL the application has (a sample value in each parameter), read from its
    own URL patterns (Django set up in this process, on ``folder``'s settings)."""
    os.environ.setdefault("SPIT_FLEET_DIR", str(folder))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fleet.web.settings")
    import django
    from django.urls import URLPattern, URLResolver, get_resolver

    django.setup()

    def sample(match: re.Match[str]) -> str:
        return "1" if match.group(1) == "int" else "x"

    def walk(patterns: list[Any], prefix: str) -> Iterator[str]:
        for p in patterns:
            route = re.sub(r"<(?:(\w+):)?\w+>", sample, str(p.pattern))
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + route)
            elif isinstance(p, URLPattern):
                yield "/" + prefix + route

    return sorted(set(walk(get_resolver().url_patterns, "")))


def csrf_token(context: Any) -> str:
    """The CSRF cookie of a Playwright browser context (it has loaded a page with a form)."""
    return next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
