"""Every page needs a login, every form a CSRF token, and no input makes a 500: the
application's own URL patterns enumerated, its forms fuzzed over real HTTP."""

from __future__ import annotations

import http.client
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.harness import Account, WebApp, csrf_token, log_in, url_paths

OPEN = {"/login/", "/login/code/"}
"""The only pages an anonymous visitor gets (the code page sends it to the login)."""


def request(web: WebApp, method: str, path: str, body: str = "", cookie: str = "") -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if cookie:
        headers["Cookie"] = cookie
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def test_every_page_sends_an_anonymous_visitor_to_the_login(
    web: WebApp, fleet: tuple[Path, str]
) -> None:
    paths = url_paths(fleet[0])
    assert {"/", "/accounts/", "/cabinets/x/", "/login/"} <= set(paths)
    for path in paths:
        response = request(web, "GET", path)
        if path == "/login/":
            assert response.status == 200
        else:
            assert response.status == 302, path
            assert response.getheader("Location").startswith("/login/"), path


def test_every_form_refuses_a_missing_or_wrong_csrf_token(
    web: WebApp, fleet: tuple[Path, str], accounts: dict[str, Account], context: Any
) -> None:
    page = context.new_page()
    log_in(page, web, accounts["owner"])
    token = csrf_token(context)
    for path in url_paths(fleet[0]):
        for form in ({}, {"csrfmiddlewaretoken": "x" * 64}, {"csrfmiddlewaretoken": token[:-1]}):
            response = context.request.post(web.url(path), form=form, max_redirects=0)
            assert response.status == 403, (path, form)
    # Anonymous too: the login itself.
    assert request(web, "POST", "/login/", "username=a&password=b").status == 403
    # And the right token is taken (a form error, not a refusal).
    response = context.request.post(
        web.url("/accounts/"), form={"csrfmiddlewaretoken": token}, max_redirects=0
    )
    assert response.status == 400 and "This field is required" in response.text()


TEXT = st.text(st.characters(codec="utf-8"), max_size=200)
FUZZ = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(username=TEXT, password=TEXT)
def test_the_login_form_never_fails_on_any_input(
    web: WebApp, context: Any, username: str, password: str
) -> None:
    if not context.cookies():
        context.new_page().goto(web.url("/login/"))
    response = context.request.post(
        web.url("/login/"),
        form={
            "csrfmiddlewaretoken": csrf_token(context),
            "username": username,
            "password": password,
        },
        max_redirects=0,
    )
    assert response.status in (200, 429), response.status
    text = response.text()
    assert 'class="errors"' in text or 'class="error"' in text or 'id="locked-out"' in text


@FUZZ
@given(
    username=st.one_of(TEXT, st.from_regex(r"[a-z][a-z0-9._-]{0,20}", fullmatch=True)),
    role=st.one_of(st.sampled_from(["owner", "collector", "technician"]), TEXT),
    password=st.one_of(st.just(""), TEXT),
    two_factor=st.sampled_from(["", "on", "off", "\x00"]),
)
def test_the_account_form_never_fails_on_any_input(
    web: WebApp,
    accounts: dict[str, Account],
    context: Any,
    username: str,
    role: str,
    password: str,
    two_factor: str,
) -> None:
    if not context.cookies():
        log_in(context.new_page(), web, accounts["owner"])
    response = context.request.post(
        web.url("/accounts/"),
        form={
            "csrfmiddlewaretoken": csrf_token(context),
            "username": username,
            "role": role,
            "password": password,
            "two_factor": two_factor,
        },
        max_redirects=0,
    )
    text = response.text()
    if response.status == 200:
        assert 'id="made"' in text
    else:
        assert response.status == 400, response.status
        assert 'class="error"' in text or 'class="errors"' in text


@pytest.mark.parametrize("path", ["/cabinets/no-such/", "/cabinets/%00/", "/nowhere/"])
def test_unknown_pages_are_404_for_a_signed_in_account(
    web: WebApp, accounts: dict[str, Account], context: Any, path: str
) -> None:
    log_in(context.new_page(), web, accounts["technician"])
    assert context.request.get(web.url(path), max_redirects=0).status == 404
