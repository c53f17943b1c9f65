"""The daily digest: the route's open alerts (:mod:`fleet.alerts`), grouped by location,
as a plain-text mail sent through the operator's own mail server (docs/fleet.md, "The
daily digest"). ``spit-fleet digest`` sends it; a systemd timer runs that every morning.

The mail settings are options (:mod:`fleet.options`): ``smtp_host``, ``smtp_port``,
``smtp_starttls``, ``smtp_user`` and ``smtp_password_file`` (a file only the fleet's user
reads: the database holds no password), ``digest_from``; and two lists of recipients:
``digest_money_to`` (owners and collectors: every alert) and ``digest_to`` (technicians:
the alerts that reveal no money). Each list gets its own mail.
"""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Sequence
from datetime import datetime
from email.message import EmailMessage
from typing import Any

import psycopg

from fleet.alerts import Alert, open_alerts
from fleet.options import options


class DigestError(ValueError):
    """The digest cannot be sent as set up (the message says what to set)."""


def body_text(fleet: str, alerts: Sequence[Alert], now: datetime) -> str:
    """The digest's text: each location's alerts under its name."""
    lines = [f"{fleet}: {len(alerts)} open alert(s) at {now:%Y-%m-%d %H:%M} UTC.", ""]
    if not alerts:
        lines.append("Nothing needs a visit.")
    location = None
    for alert in alerts:
        if alert.location != location:
            if location is not None:
                lines.append("")
            location = alert.location
            lines += [location, "-" * len(location)]
        since = f"{alert.since:%Y-%m-%d %H:%M}"
        lines.append(f"- {alert.cabinet}: {alert.kind.value.replace('_', ' ')} since {since} UTC")
        lines.append(f"  {alert.detail}")
    return "\n".join(lines) + "\n"


def messages(conn: psycopg.Connection[Any], fleet: str, now: datetime) -> list[EmailMessage]:
    """The digest's mails at ``now``: every alert to ``digest_money_to``, those that
    reveal no money to ``digest_to`` (:class:`DigestError` if no recipient or no sender is
    set)."""
    opt = options(conn)
    if not opt["digest_from"] or not (opt["digest_to"] or opt["digest_money_to"]):
        raise DigestError(
            "the digest has no sender or no recipient: spit-fleet option digest_from ADDRESS, "
            "and digest_money_to (owners, collectors) or digest_to (technicians)"
        )
    alerts = open_alerts(conn, now)
    found = []
    for recipients, shown in (
        (opt["digest_money_to"], alerts),
        (opt["digest_to"], [a for a in alerts if not a.money]),
    ):
        if not recipients:
            continue
        message = EmailMessage()
        message["Subject"] = f"{fleet}: {len(shown)} open alert(s), {now:%Y-%m-%d}"
        message["From"] = opt["digest_from"]
        message["To"] = ", ".join(recipients)
        message.set_content(body_text(fleet, shown, now))
        found.append(message)
    return found


def send(conn: psycopg.Connection[Any], fleet: str, now: datetime) -> list[EmailMessage]:
    """Send the digest's mails through the operator's mail server; returns them."""
    opt = options(conn)
    mails = messages(conn, fleet, now)
    if not opt["smtp_host"]:
        raise DigestError("no mail server: spit-fleet option smtp_host HOST (and smtp_port)")
    password = None
    if opt["smtp_user"]:
        if opt["smtp_password_file"] is None:
            raise DigestError("smtp_user is set but not smtp_password_file")
        try:
            password = opt["smtp_password_file"].read_text().strip()
        except OSError as exc:
            raise DigestError(f"the mail password file: {exc}") from None
    try:
        with smtplib.SMTP(opt["smtp_host"], opt["smtp_port"], timeout=30) as smtp:
            if opt["smtp_starttls"]:
                smtp.starttls(context=ssl.create_default_context())
            if password is not None:
                smtp.login(opt["smtp_user"], password)
            for mail in mails:
                smtp.send_message(mail)
    except (OSError, smtplib.SMTPException) as exc:
        raise DigestError(f"the mail server {opt['smtp_host']}:{opt['smtp_port']}: {exc}") from None
    return mails
