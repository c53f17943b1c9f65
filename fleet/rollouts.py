"""Rolling a signed release out to the route (docs/releases.md, "Rollouts").

A rollout offers one release to a group of cabinets (the whole route, a venue, a list)
in two waves. The canaries, a share of the group drawn when it starts, go first. The rest
are offered it only once every canary has reported the new version installed and has
stayed so for ``healthy_minutes``. The first cabinet that reports a rollback or a refusal
halts the rollout: the offers not yet being installed are withdrawn, and an alert is
raised (:func:`halted_alerts`).

Cabinets report each step as ``update`` events (:data:`fleet.wire.UPDATE_STATES`);
ingest records them (:func:`record_update`), and the controller (:func:`tick`, run by
ingest once a second) offers, advances and halts; each says ``NOTIFY fleet_stored``
(:func:`fleet.store.notify`) in its transaction. Everything is deterministic in ``now``
and the rollout's id (its canaries' draw): no clock is read here.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import psycopg

from fleet.store import notify
from fleet.wire import UPDATE_STATES
from fleet.wire_common import WireError, check_name
from fleet.wire_down import RELEASE_VERSION, ReleaseOffer, release_topic

Publish = Callable[[str, bytes], None]
"""Publishes a retained message (topic, payload; empty: clears it)."""

RANK = {state: n for n, state in enumerate(("pending", *UPDATE_STATES))}
"""How far along each step is: a report never moves a cabinet back (a batch sent again)."""
FAILED = ("rolled_back", "refused")
WITHDRAWN = ("offered", "downloading", "verified", "waiting")
"""The steps whose offer a halt withdraws (an install under way is left to finish)."""


class RolloutError(ValueError):
    """A rollout that cannot be started; the message says why."""


@dataclass(frozen=True, slots=True)
class Rollout:
    id: int
    release: str
    url: str
    target: str
    canary_share: int
    healthy_minutes: int
    state: str
    reason: str


@dataclass(frozen=True, slots=True)
class Member:
    """One cabinet of a rollout: a canary or not, and the step it last reported."""

    cabinet: str
    canary: bool
    state: str
    reason: str
    changed_at: datetime


def group_cabinets(conn: psycopg.Connection[Any], target: str) -> list[str]:
    """The active cabinets of ``target``: ``all``, ``location:NAME`` or ``list:a,b,…``."""
    active = "SELECT name FROM cabinets WHERE revoked_at IS NULL"
    if target == "all":
        rows = conn.execute(active + " ORDER BY name").fetchall()
    elif target.startswith("location:"):
        rows = conn.execute(
            active + " AND location = %s ORDER BY name", (target.removeprefix("location:"),)
        ).fetchall()
    elif target.startswith("list:"):
        try:
            names = sorted({check_name(n.strip()) for n in target[5:].split(",") if n.strip()})
        except WireError as exc:
            raise RolloutError(str(exc)) from None
        rows = conn.execute(active + " AND name = ANY(%s) ORDER BY name", (names,)).fetchall()
        missing = sorted(set(names) - {r[0] for r in rows})
        if missing:
            raise RolloutError(f"not active cabinets of this fleet: {', '.join(missing)}")
    else:
        raise RolloutError(f"{target[:60]!r} is not a group: all, location:NAME or list:a,b")
    return [str(r[0]) for r in rows]


def start(
    conn: psycopg.Connection[Any],
    release: str,
    url: str,
    target: str,
    canary_share: int,
    healthy_minutes: int,
    by: str,
) -> int:
    """Start rolling ``release`` (served at ``url``) out to ``target``; returns its id.
    Its canaries are offered it at the controller's next tick."""
    if RELEASE_VERSION.fullmatch(release) is None:
        raise RolloutError(f"{release[:40]!r} is not a release's version")
    if not url.startswith("https://") or not url.rstrip("/").endswith("/releases"):
        raise RolloutError("the URL must be the fleet's https://HOST:PORT/releases/")
    if not 1 <= canary_share <= 100 or healthy_minutes < 0:
        raise RolloutError("the canary share is 1 to 100 %, the healthy time 0 or more minutes")
    cabinets = group_cabinets(conn, target)
    if not cabinets:
        raise RolloutError(f"no active cabinet in {target}")
    running = conn.execute(
        "SELECT id FROM rollouts WHERE state IN ('canary', 'rest', 'halting')"
    ).fetchone()
    if running is not None:
        raise RolloutError(f"rollout {running[0]} is still under way: halt it first")
    with conn.transaction():
        row = conn.execute(
            "INSERT INTO rollouts (release, url, target, canary_share, healthy_minutes, "
            "started_by) VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
            (release, url, target, canary_share, healthy_minutes, by),
        ).fetchone()
        assert row is not None
        rollout = int(row[0])
        count = max(1, math.ceil(len(cabinets) * canary_share / 100))
        canaries = set(random.Random(rollout).sample(cabinets, count))
        for cabinet in cabinets:
            conn.execute(
                "INSERT INTO rollout_cabinets (rollout, cabinet, canary) VALUES (%s, %s, %s)",
                (rollout, cabinet, cabinet in canaries),
            )
    return rollout


def record_update(conn: psycopg.Connection[Any], cabinet: str, body: dict[str, Any]) -> None:
    """A cabinet's ``update`` event: its step in the rollout, if further along (inside the
    caller's transaction)."""
    state = str(body["state"])
    conn.execute(
        "UPDATE rollout_cabinets SET state = %s, reason = %s, changed_at = now() "
        "WHERE rollout = %s AND cabinet = %s AND state <> ALL(%s)",
        (state, str(body["reason"])[:300], int(body["rollout"]), cabinet,
         [s for s, n in RANK.items() if n >= RANK[state]]),
    )  # fmt: skip
    notify(conn, "rollouts")


def rollouts(conn: psycopg.Connection[Any], *, active_only: bool = False) -> list[Rollout]:
    where = " WHERE state IN ('canary', 'rest', 'halting')" if active_only else ""
    rows = conn.execute(
        "SELECT id, release, url, target, canary_share, healthy_minutes, state, reason "
        f"FROM rollouts{where} ORDER BY id DESC"
    ).fetchall()
    return [Rollout(*row) for row in rows]


def members(conn: psycopg.Connection[Any], rollout: int) -> list[Member]:
    rows = conn.execute(
        "SELECT cabinet, canary, state, reason, changed_at FROM rollout_cabinets "
        "WHERE rollout = %s ORDER BY NOT canary, cabinet",
        (rollout,),
    ).fetchall()
    return [Member(*row) for row in rows]


def ask_halt(conn: psycopg.Connection[Any], rollout: int, by: str) -> None:
    """Ask the controller to halt ``rollout`` at its next tick (it withdraws the offers)."""
    conn.execute(
        "UPDATE rollouts SET state = 'halting', reason = %s WHERE id = %s "
        "AND state IN ('canary', 'rest')",
        (f"halted by {by}", rollout),
    )


def halt(conn: psycopg.Connection[Any], rollout: Rollout, why: str, publish: Publish) -> None:
    """Stop ``rollout``: withdraw the offers not yet being installed, say why."""
    for member in members(conn, rollout.id):
        if member.state in WITHDRAWN:
            publish(release_topic(member.cabinet), b"")
    conn.execute(
        "UPDATE rollouts SET state = 'halted', reason = %s, ended_at = now() WHERE id = %s",
        (why[:300], rollout.id),
    )


def _offer(conn: psycopg.Connection[Any], rollout: Rollout, cabinets: list[str],
           publish: Publish) -> None:  # fmt: skip
    offer = ReleaseOffer(rollout.id, rollout.release, rollout.url).dumps()
    for cabinet in cabinets:
        publish(release_topic(cabinet), offer)
        conn.execute(
            "UPDATE rollout_cabinets SET state = 'offered', offered_at = now(), changed_at = "
            "now() WHERE rollout = %s AND cabinet = %s AND state = 'pending'",
            (rollout.id, cabinet),
        )


def tick(conn: psycopg.Connection[Any], publish: Publish, now: datetime) -> list[str]:
    """One step of every rollout under way; returns what it did, a line each."""
    done: list[str] = []
    for rollout in rollouts(conn, active_only=True):
        with conn.transaction():
            said = _step(conn, rollout, publish, now)
            if said:
                notify(conn, "rollouts")
        done += said
    return done


def _step(conn: psycopg.Connection[Any], rollout: Rollout, publish: Publish,
          now: datetime) -> list[str]:  # fmt: skip
    if rollout.state == "halting":  # asked for (spit-fleet rollout halt, the web page)
        halt(conn, rollout, rollout.reason, publish)
        return [f"rollout {rollout.id} halted: {rollout.reason}"]
    group = members(conn, rollout.id)
    failed = [m for m in group if m.state in FAILED]
    if failed:
        first = min(failed, key=lambda m: m.changed_at)
        why = f"{first.cabinet} {first.state.replace('_', ' ')}: {first.reason}".strip(": ")
        halt(conn, rollout, why, publish)
        return [f"rollout {rollout.id} halted: {why}"]
    canaries = [m for m in group if m.canary]
    wave = canaries if rollout.state == "canary" else group
    pending = [m.cabinet for m in wave if m.state == "pending"]
    if pending:
        _offer(conn, rollout, pending, publish)
        return [f"rollout {rollout.id}: {rollout.release} offered to {', '.join(pending)}"]
    healthy_since = now - timedelta(minutes=rollout.healthy_minutes)
    if rollout.state == "canary" and all(
        m.state == "installed" and m.changed_at <= healthy_since for m in canaries
    ):
        conn.execute("UPDATE rollouts SET state = 'rest' WHERE id = %s", (rollout.id,))
        return [f"rollout {rollout.id}: the canaries are healthy; the rest follow"]
    if rollout.state == "rest" and all(m.state == "installed" for m in group):
        conn.execute(
            "UPDATE rollouts SET state = 'done', ended_at = now() WHERE id = %s", (rollout.id,)
        )
        return [f"rollout {rollout.id}: {rollout.release} installed on every cabinet"]
    return []
