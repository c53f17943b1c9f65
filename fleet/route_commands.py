"""``spit-fleet location``, ``option`` and ``digest``: the operator's route settings from
the command line (docs/fleet.md, "Alerts" and "The daily digest").

::

    spit-fleet location "Bar Roma" --opens 18:00 --closes 02:00 --timezone Europe/Rome
    spit-fleet option offline_hours 3
    spit-fleet option                       # every option, its value
    spit-fleet digest [--print]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from fleet import store
from fleet.broker import FleetConfig, FleetError
from fleet.digest import DigestError, body_text, send
from fleet.locations import Hours, LocationError, parse_time, set_hours, zone
from fleet.options import OPTIONS, OptionError, options, set_option


def _database(args: argparse.Namespace) -> tuple[FleetConfig, Any]:
    config = FleetConfig.load(args.dir)
    return config, store.connect(config.database)


def _location(args: argparse.Namespace) -> int:
    try:
        hours = Hours(parse_time(args.opens), parse_time(args.closes), args.timezone)
        zone(hours.timezone)
        _, conn = _database(args)
        try:
            set_hours(conn, args.name, hours)
        finally:
            conn.close()
    except LocationError as exc:
        raise FleetError(str(exc)) from None
    span = "all day" if hours.opens == hours.closes else f"{args.opens} to {args.closes}"
    print(f"{args.name}: open {span}, {hours.timezone}")
    return 0


def _option(args: argparse.Namespace) -> int:
    _, conn = _database(args)
    try:
        if args.key is None:
            for key, value in options(conn).items():
                shown = "" if value is None else value
                if isinstance(shown, tuple):
                    shown = ", ".join(shown)
                print(f"{key} = {shown}    # {OPTIONS[key].help}")
            return 0
        if args.value is None:
            raise FleetError(f"spit-fleet option {args.key} VALUE: the value is missing")
        value = set_option(conn, args.key, args.value)
    except OptionError as exc:
        raise FleetError(str(exc)) from None
    finally:
        conn.close()
    print(f"{args.key} = {value}")
    return 0


def _digest(args: argparse.Namespace) -> int:
    config, conn = _database(args)
    now = datetime.now(UTC)
    try:
        if args.print:
            from fleet.alerts import open_alerts

            print(body_text(config.name, open_alerts(conn, now), now), end="")
            return 0
        mails = send(conn, config.name, now)
    except DigestError as exc:
        raise FleetError(str(exc)) from None
    finally:
        conn.close()
    for mail in mails:
        print(f"sent {mail['Subject']!r} to {mail['To']}")
    return 0


def register(make: Callable[[str, str], argparse.ArgumentParser]) -> None:
    """Add the route's subcommands to ``spit-fleet``'s parser (``make``: its own way of
    adding a subcommand, ``--dir`` included)."""
    location = make("location", "set a location's opening hours and time zone")
    location.add_argument("name", help="the location, as add-cabinet --location names it")
    location.add_argument("--opens", default="00:00", help="HH:MM, the venue's own time")
    location.add_argument("--closes", default="00:00", help="HH:MM; before --opens: past midnight")
    location.add_argument("--timezone", default="UTC", help="such as Europe/Rome")
    location.set_defaults(func=_location)

    option = make("option", "show the alerts' and the digest's options, or set one")
    option.add_argument("key", nargs="?", help="the option (none: show them all)")
    option.add_argument("value", nargs="?", help="its new value")
    option.set_defaults(func=_option)

    digest = make("digest", "mail the open alerts, by location, to the operator's recipients")
    digest.add_argument("--print", action="store_true", help="print the alerts, send nothing")
    digest.set_defaults(func=_digest)
