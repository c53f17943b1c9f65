"""A release the fleet offered this cabinet, and where the cabinet is with it
(docs/releases.md, "Rollouts"), in two rows of the ``fleet`` table:

- ``down.release.offer``: the offer as the fleet sent it (:class:`ReleaseOffer`);
- ``down.release.state``: ``{"rollout", "release", "state", "reason", "rollbacks"}``,
  the step it is at (:data:`fleet.wire.UPDATE_STATES`).

Each step is reported (an ``update`` event) in the transaction that records it, so the
fleet learns exactly what each cabinet did. Under ``down.``: leaving or joining a fleet
forgets them (:mod:`cabinet.link.membership`). Every function but the readers runs
inside the caller's transaction.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass

from cabinet.storage import outbox
from cabinet.storage.database import utc_now
from cabinet.storage.outbox import Kind
from fleet.wire import UPDATE_STATES
from fleet.wire_common import WireError
from fleet.wire_down import ReleaseOffer, parse_release_offer

OFFER = "down.release.offer"
STATE = "down.release.state"


@dataclass(frozen=True, slots=True)
class UpdateState:
    """Where the cabinet is with rollout ``rollout``'s release."""

    rollout: int
    release: str
    state: str
    reason: str = ""
    rollbacks: int = 0
    """The rollback log's lines when the install began: one more after it is a rollback."""


def offer(conn: sqlite3.Connection) -> ReleaseOffer | None:
    """The release offered, or ``None``."""
    text = outbox.fleet_value(conn, OFFER)
    if text is None:
        return None
    try:
        return parse_release_offer(text.encode())
    except WireError:
        return None


def state(conn: sqlite3.Connection) -> UpdateState | None:
    """Where the cabinet is with the offered release, or ``None`` (none offered yet)."""
    text = outbox.fleet_value(conn, STATE)
    if text is None:
        return None
    try:
        return UpdateState(**json.loads(text))
    except (ValueError, TypeError):
        return None


def advance(conn: sqlite3.Connection, now: UpdateState, synced: bool) -> None:
    """Record step ``now`` and report it (an ``update`` event)."""
    if now.state not in UPDATE_STATES:
        raise ValueError(f"{now.state!r} is not a step of an update")
    outbox.set_fleet_values(conn, {STATE: json.dumps(asdict(now))})
    body = {"rollout": now.rollout, "release": now.release, "state": now.state}
    outbox.add(conn, Kind.UPDATE, {**body, "reason": now.reason}, utc_now(), synced)


def hold(conn: sqlite3.Connection, offered: ReleaseOffer, synced: bool) -> bool:
    """Keep ``offered`` if it is of another rollout than the one held (a rollout offers a
    cabinet one release, once), reporting it as offered; returns whether it was kept."""
    held = offer(conn)
    if held is not None and held.rollout == offered.rollout:
        return False
    outbox.set_fleet_values(conn, {OFFER: offered.dumps().decode()})
    advance(conn, UpdateState(offered.rollout, offered.release, "offered"), synced)
    return True


def withdraw(conn: sqlite3.Connection) -> None:
    """The fleet cleared its offer (a halted rollout): nothing more is done for it."""
    conn.execute("DELETE FROM fleet WHERE name = ?", (OFFER,))
