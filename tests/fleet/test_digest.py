"""The digest through a real mail server (aiosmtpd, on a free loopback port): the open
alerts by location, the money alerts to owners only; and the route's commands (location,
option, digest) with their errors, on a fleet set up by ``spit-fleet init``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest

from fleet import cli, digest, store
from fleet.digest import DigestError
from fleet.options import set_option
from fleet.wire import Presence
from tests.fleet.conftest import Route
from tests.fleet.events import empty, presence, weekday_earnings
from tests.fleet.services import Inbox, free_port, mail_server
from tests.fleet.waiting import wait_for


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    with mail_server() as served:
        yield served


def _spit_fleet(route: Route, *args: str) -> int:
    return cli.main([*args, "--dir", str(route.folder)])


def test_the_commands_refuse_bad_input_clearly(
    route: Route, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = [
        (("location", "Bar", "--opens", "25:00"), "'25:00' is not a time of day as HH:MM"),
        (("location", "Bar", "--timezone", "Europe/Atlantis"), "is not a time zone"),
        (("option", "offline_hours", "-1"), "offline_hours: -1 is not a number above 0"),
        (("option", "nothing", "1"), "no option 'nothing'"),
        (("option", "offline_hours"), "the value is missing"),
        (("digest",), "the digest has no sender or no recipient"),
    ]
    for args, said in bad:
        assert _spit_fleet(route, *args) == 1, args
        assert said in capsys.readouterr().err
    assert _spit_fleet(route, "option", "digest_from", "fleet@example.com") == 0
    assert _spit_fleet(route, "option", "digest_to", "tech@example.com") == 0
    assert _spit_fleet(route, "digest") == 1
    assert "no mail server: spit-fleet option smtp_host" in capsys.readouterr().err
    command = ("location", "Bar Roma", "--opens", "18:00", "--closes", "02:00")
    assert _spit_fleet(route, *command, "--timezone", "Europe/Rome") == 0
    assert "Bar Roma: open 18:00 to 02:00, Europe/Rome" in capsys.readouterr().out
    assert _spit_fleet(route, "option") == 0
    assert "digest_to = tech@example.com" in capsys.readouterr().out


def test_the_digest_arrives_with_the_alerts(route: Route, inbox: tuple[Inbox, int]) -> None:
    mails, port = inbox
    route.add_cabinet("bar-1", "Bar Roma")
    route.add_cabinet("bar-2", "Arcade")
    now = datetime.now(UTC)
    with route.db() as db:
        presence(db, "bar-1", Presence.OFFLINE, now - timedelta(hours=5))
        db.execute("UPDATE cabinets SET added_at = %s", (now - timedelta(days=60),))
        db.commit()
        presence(db, "bar-2", Presence.ONLINE, now - timedelta(days=40))
        yesterday = now - timedelta(days=1)
        weekday_earnings(db, "bar-2", yesterday, [5000, 5000, 5000, 5000, 100])
        for key, value in [
            ("smtp_host", "127.0.0.1"),
            ("smtp_port", str(port)),
            ("smtp_starttls", "no"),
            ("digest_from", "fleet@example.com"),
            ("digest_to", "tech@example.com"),
            ("digest_money_to", "owner@example.com, collector@example.com"),
        ]:
            set_option(db, key, value)
        sent = digest.send(db, "Test Route", now)
        assert store.cabinet_state(db, "bar-1") is store.CabinetState.ACTIVE
    wait_for("both mails", lambda: len(mails.mails) == len(sent) == 2, mails.changes, timeout_s=10)
    by_to = {tuple(to): message for to, message in mails.mails}
    owners = by_to[("owner@example.com", "collector@example.com")].get_content()
    tech = by_to[("tech@example.com",)].get_content()
    owners, tech = owners.replace("\r\n", "\n"), tech.replace("\r\n", "\n")  # SMTP's CRLF
    assert owners.index("Arcade\n------\n- bar-2: low earnings") < owners.index(
        "Bar Roma\n--------\n- bar-1: offline since"
    )
    assert "earned 1.00" in owners and "5.0 h offline within opening hours" in owners
    assert "bar-1: offline" in tech and "earn" not in tech and "bar-2" not in tech
    assert by_to[("tech@example.com",)]["Subject"].startswith("Test Route: 1 open alert(s)")


def test_the_digest_says_an_unreachable_mail_server(db: psycopg.Connection[Any]) -> None:
    empty(db)
    for key, value in [
        ("smtp_host", "127.0.0.1"),
        ("smtp_port", str(free_port())),
        ("digest_from", "fleet@example.com"),
        ("digest_money_to", "owner@example.com"),
    ]:
        set_option(db, key, value)
    with pytest.raises(DigestError, match=r"the mail server 127\.0\.0\.1:"):
        digest.send(db, "Test Route", datetime.now(UTC))
