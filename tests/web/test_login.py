"""Logging in, two-factor codes, the login's rate limit, and the accounts page, against
the real application in its own process, in a real browser."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from typing import Any

from playwright.sync_api import expect

from tests.web.harness import Account, WebApp, log_in, log_out, set_up_two_factor, unique


def submit(page: Any, username: str, password: str) -> None:
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def test_login_wrong_password_and_logout(
    web: WebApp, accounts: dict[str, Account], page: Any
) -> None:
    owner = accounts["owner"]
    page.goto(web.url("/accounts/"))
    assert page.url == web.url("/login/?next=/accounts/")
    submit(page, owner.name, "not the password")
    expect(page.locator(".errors")).to_contain_text("correct username and password")
    submit(page, owner.name, owner.password)
    assert page.url == web.url("/accounts/")  # where it was going
    expect(page.locator("#accounts")).to_contain_text("technician1")
    log_out(page)
    page.goto(web.url("/"))
    assert page.url.startswith(web.url("/login/"))


def test_too_many_failures_lock_the_login_with_a_clear_message(web: WebApp, page: Any) -> None:
    victim = web.account(unique("locked"), "collector")
    page.goto(web.url("/login/"))
    for _ in range(4):
        submit(page, victim.name, "wrong password")
        expect(page.locator(".errors")).to_be_visible()
    with page.expect_response(
        lambda r: r.url.endswith("/login/") and r.request.method == "POST"
    ) as r:
        submit(page, victim.name, "wrong password")
    assert r.value.status == 429
    expect(page.locator("#locked-out")).to_contain_text("Too many wrong passwords")
    page.goto(web.url("/login/"))
    submit(page, victim.name, victim.password)  # even the right one, until the cool-off
    expect(page.locator("#locked-out")).to_be_visible()
    # Counted per name and address: another account from here still logs in.
    log_in(page, web, web.account(unique("other"), "technician"))


def test_two_factor_required_then_set_up_then_asked_at_login(web: WebApp, page: Any) -> None:
    account = web.account(unique("tf"), "technician", two_factor=True)
    page.goto(web.url("/login/"))
    submit(page, account.name, account.password)
    assert page.url == web.url("/two-factor/")
    expect(page.locator("#two-factor-required")).to_be_visible()
    for path in ("/", "/cabinets/x/", "/accounts/"):  # nothing else until it is set up
        page.goto(web.url(path))
        assert page.url == web.url("/two-factor/"), path
    expect(page.locator(".qr svg")).to_be_visible()
    set_up_two_factor(page, web, account)
    page.goto(web.url("/"))
    assert page.url == web.url("/")
    log_out(page)
    page.goto(web.url("/login/"))
    submit(page, account.name, account.password)
    assert page.url == web.url("/login/code/")
    page.goto(web.url("/"))  # a right password alone signs nobody in
    assert page.url.startswith(web.url("/login/"))
    submit(page, account.name, account.password)
    assert account.totp is not None
    page.fill("input[name=code]", account.totp.wrong())
    page.click("main button[type=submit]")
    expect(page.locator(".error")).to_contain_text("not right")
    code = account.totp.code()
    page.fill("input[name=code]", code)  # at once: the device's back-off refuses even this
    page.click("main button[type=submit]")
    expect(page.locator(".error")).to_contain_text("Too many wrong codes")
    web.back_off_over(account.name)
    page.fill("input[name=code]", code)
    page.click("main button[type=submit]")
    page.wait_for_url(web.url("/"))


def test_the_owner_adds_an_account_that_must_set_up_two_factor_and_a_password(
    web: WebApp, accounts: dict[str, Account], browser: Any
) -> None:
    owner_side = browser.new_context()
    new_side = browser.new_context()
    try:
        owner = owner_side.new_page()
        log_in(owner, web, accounts["owner"])
        owner.goto(web.url("/accounts/"))
        name = unique("new")
        owner.fill("#add-account input[name=username]", name)
        owner.select_option("#add-account select[name=role]", "collector")
        owner.click("#add-account button[type=submit]")
        temporary = owner.text_content("#made-password")
        assert temporary and len(temporary) >= 12
        expect(owner.locator(f"#account-{name} .role")).to_have_text("collector")
        # Adding it again: a clear error, no 500.
        owner.fill("#add-account input[name=username]", name)
        owner.click("#add-account button[type=submit]")
        expect(owner.locator("#add-account .error")).to_contain_text("already")

        newcomer = Account(name, "collector", temporary)
        page = new_side.new_page()
        page.goto(web.url("/login/"))
        submit(page, name, temporary)
        assert page.url == web.url("/two-factor/")  # two-factor first (required by default)
        set_up_two_factor(page, web, newcomer)
        page.goto(web.url("/"))
        assert page.url == web.url("/password/")  # then a password of its own
        page.fill("input[name=old_password]", temporary)
        page.fill("input[name=new_password1]", "a new long passphrase 7")
        page.fill("input[name=new_password2]", "a new long passphrase 7")
        page.click("main button[type=submit]")
        page.wait_for_url(web.url("/"))
        page.goto(web.url("/accounts/"))
        assert page.locator("#accounts").count() == 0  # a collector: 403

        # The owner makes it a technician, then disables it: it is signed out.
        owner.goto(web.url("/accounts/"))
        row = owner.locator(f"#account-{name}")
        row.locator("select[name=role]").select_option("technician")
        row.locator("button:has-text('Set role')").click()
        expect(owner.locator(f"#account-{name} .role")).to_have_text("technician")
        owner.locator(f"#account-{name} button[value=disable]").click()
        expect(owner.locator(f"#account-{name}")).to_contain_text("(disabled)")
        page.goto(web.url("/"))
        assert page.url.startswith(web.url("/login/"))
    finally:
        owner_side.close()
        new_side.close()


def test_only_owners_reach_the_accounts_page(
    web: WebApp, accounts: dict[str, Account], browser: Any
) -> None:
    for role, status in (("collector", 403), ("technician", 403), ("owner", 200)):
        context = browser.new_context()
        try:
            page = context.new_page()
            log_in(page, web, accounts[role])
            response = page.goto(web.url("/accounts/"))
            assert response is not None and response.status == status, role
            response = context.request.post(web.url("/accounts/"), form={}, max_redirects=0)
            assert response.status == 403, role  # no CSRF token (and no right, for two)
            expect(page.locator("h1")).to_have_text(
                "Not for this account" if status == 403 else "Accounts"
            )
            page.goto(web.url("/"))
            nav = page.locator("nav").inner_text()
            assert ("Accounts" in nav) is (role == "owner")
        finally:
            context.close()


def test_server_timing_and_security_headers(web: WebApp) -> None:
    with urllib.request.urlopen(web.url("/login/")) as response:
        headers = response.headers
    assert re.fullmatch(r"app;dur=\d+(\.\d+)?", headers["Server-Timing"])
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "no-store" in headers["Cache-Control"]
    assert "HttpOnly" in headers["Set-Cookie"] and "SameSite=Lax" in headers["Set-Cookie"]
    with urllib.request.urlopen(web.url("/static/web/site.css")) as response:
        assert response.status == 200 and b"box-sizing" in response.read()
    try:
        urllib.request.urlopen(web.url("/static/web/missing.css"))
    except urllib.error.HTTPError as exc:
        assert exc.code in (302, 404)
