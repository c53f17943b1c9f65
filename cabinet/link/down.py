"""The fleet-wide documents the link takes (retained under :data:`fleet.wire_down.DOWN_FILTER`)
and a release offered on the cabinet's own topic (:mod:`cabinet.storage.release_offers`):
the route's champions, kept when newer than the board the cabinet has, and the settings
documents that are this cabinet's (the route's, its location's), held for the display
process to decide (:mod:`cabinet.storage.settings_documents`). Both are kept in the
cabinet's database (:mod:`cabinet.storage.fleet_documents`): the display reads them from
there, never from the link. A message that does not read is one log line, and ignored."""

from __future__ import annotations

import logging
import sqlite3

from cabinet.link.link_store import LinkStore
from fleet.wire_common import WireError
from fleet.wire_down import (
    CHAMPIONS_TOPIC,
    SETTINGS_PREFIX,
    parse_champions,
    parse_release_offer,
    parse_settings_document,
    release_topic,
)

log = logging.getLogger("cabinet.link")


def is_down(topic: str) -> bool:
    """Whether ``topic`` is one of the fleet-wide documents' or a release offered (not the
    acknowledgement)."""
    return (
        topic == CHAMPIONS_TOPIC
        or topic.startswith(SETTINGS_PREFIX + "/")
        or topic.endswith(RELEASE_SUFFIX)
    )


def take(db: LinkStore, topic: str, payload: bytes) -> bool:
    """Keep what the message on ``topic`` says; returns whether anything was kept (an
    empty payload is a retained document being cleared: nothing to do)."""
    if topic.endswith(RELEASE_SUFFIX):
        return _take_release(db, topic, payload)
    if not payload:
        return False
    try:
        if topic == CHAMPIONS_TOPIC:
            board = parse_champions(payload)
            kept = db.keep_champions(board)
            if kept:
                log.info("fleet link: route champions, version %d", board.version)
            return kept
        if topic.startswith(SETTINGS_PREFIX + "/"):
            document = parse_settings_document(topic, payload)
            return db.hold(document)
    except WireError as exc:
        log.warning("fleet link: a document it cannot read on %s: %s", topic[:80], exc)
    except sqlite3.Error as exc:
        log.warning("fleet link: cannot keep the document on %s: %s", topic[:80], exc)
    return False


RELEASE_SUFFIX = "/release"


def _take_release(db: LinkStore, topic: str, payload: bytes) -> bool:
    """A release offered on this cabinet's own topic (empty: the offer withdrawn)."""
    if topic != release_topic(db.join.cabinet):
        return False
    try:
        offered = parse_release_offer(payload) if payload else None
        kept = db.hold_release(offered)
    except WireError as exc:
        log.warning("fleet link: a release offer it cannot read: %s", exc)
        return False
    except sqlite3.Error as exc:
        log.warning("fleet link: cannot keep the release offered: %s", exc)
        return False
    if kept and offered is not None:
        log.info("fleet link: release %s offered (rollout %d)", offered.release, offered.rollout)
    return kept
