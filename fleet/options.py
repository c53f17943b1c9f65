"""The operator's options, kept in ``fleet_options``: the alerts' thresholds
(:mod:`fleet.alerts`) and the digest's mail settings (:mod:`fleet.digest`). Each has a
default and a check; docs/fleet.md, "Alerts" and "The daily digest", says what each
does.

>>> parse("offline_hours", "1.5")
1.5
>>> parse("smtp_port", "0")
Traceback (most recent call last):
...
fleet.options.OptionError: smtp_port: 0 is not a port (1 to 65535)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg


class OptionError(ValueError):
    """An option that does not exist, or a value it does not take."""


def _positive(value: str) -> float:
    number = float(value)
    if not 0 < number < 1e6:
        raise ValueError(f"{value} is not a number above 0")
    return number


def _fraction(value: str) -> float:
    number = float(value)
    if not 0 < number < 1:
        raise ValueError(f"{value} is not a fraction between 0 and 1")
    return number


def _count(value: str) -> int:
    number = int(value)
    if not 1 <= number <= 10**9:
        raise ValueError(f"{value} is not a whole number from 1")
    return number


def _port(value: str) -> int:
    number = int(value)
    if not 1 <= number <= 65535:
        raise ValueError(f"{value} is not a port (1 to 65535)")
    return number


def _yes_no(value: str) -> bool:
    if value.lower() in ("yes", "true", "on", "1"):
        return True
    if value.lower() in ("no", "false", "off", "0"):
        return False
    raise ValueError(f"{value!r} is neither yes nor no")


def _text(value: str) -> str:
    if len(value) > 500 or "\n" in value or "\r" in value:
        raise ValueError("not one short line")
    return value.strip()


def _addresses(value: str) -> tuple[str, ...]:
    found = tuple(a.strip() for a in _text(value).split(",") if a.strip())
    bad = [a for a in found if "@" not in a or " " in a]
    if bad:
        raise ValueError(f"{bad[0]!r} is not a mail address")
    return found


def _file(value: str) -> Path | None:
    if not value:
        return None
    path = Path(_text(value))
    if not path.is_absolute():
        raise ValueError(f"{value!r} is not an absolute path")
    return path


@dataclass(frozen=True, slots=True)
class Option:
    default: str
    parse: Callable[[str], Any]
    help: str


OPTIONS: dict[str, Option] = {
    "offline_hours": Option("2", _positive, "hours offline, counted in opening hours"),
    "coin_errors": Option("5", _count, "coin errors in the last coin_error_hours"),
    "coin_error_hours": Option("24", _positive, "the window coin errors are counted in"),
    "door_minutes": Option("60", _positive, "a door opened this near a collection is its"),
    "door_hours": Option("24", _positive, "how long an unexplained door opening is shown"),
    "low_earnings_fraction": Option("0.5", _fraction, "of the weekday's mean"),
    "low_earnings_weeks": Option("4", _count, "the same weekdays before, all needed"),
    "low_earnings_min_cents": Option("1000", _count, "no alert below this mean"),
    "smtp_host": Option("", _text, "the operator's mail server"),
    "smtp_port": Option("587", _port, "its port"),
    "smtp_starttls": Option("yes", _yes_no, "STARTTLS before logging in"),
    "smtp_user": Option("", _text, "the user to log in as (none: no login)"),
    "smtp_password_file": Option("", _file, "a file holding the password"),
    "digest_from": Option("", _text, "the digest's From address"),
    "digest_to": Option("", _addresses, "technicians: alerts that reveal no money"),
    "digest_money_to": Option("", _addresses, "owners and collectors: every alert"),
}
"""Every option: its default (as text), its check, what it is."""


def parse(key: str, value: str) -> Any:
    """``value`` as option ``key`` takes it, else :class:`OptionError`."""
    option = OPTIONS.get(key)
    if option is None:
        raise OptionError(f"no option {key[:40]!r} (there are: {', '.join(OPTIONS)})")
    try:
        return option.parse(value)
    except ValueError as exc:
        raise OptionError(f"{key}: {exc}") from None


def options(conn: psycopg.Connection[Any]) -> dict[str, Any]:
    """Every option's value: the one set, else its default (a value set that no longer
    passes its check is the default)."""
    rows = conn.execute("SELECT key, value FROM fleet_options").fetchall()
    conn.commit()
    stored = {str(k): str(v) for k, v in rows}
    result = {}
    for key, option in OPTIONS.items():
        try:
            result[key] = option.parse(stored.get(key, option.default))
        except ValueError:
            result[key] = option.parse(option.default)
    return result


def set_option(conn: psycopg.Connection[Any], key: str, value: str) -> Any:
    """Set option ``key`` to ``value`` (checked: :class:`OptionError`); returns it
    parsed."""
    parsed = parse(key, value)
    with conn.transaction():
        conn.execute(
            "INSERT INTO fleet_options (key, value) VALUES (%s, %s) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value.strip()),
        )
    conn.commit()
    return parsed
