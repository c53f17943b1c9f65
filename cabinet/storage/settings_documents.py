"""Deciding the fleet's settings documents (``docs/fleet.md``, "What a cabinet takes"):
the link holds each one that is this cabinet's (:mod:`cabinet.storage.fleet_documents`),
and the display process decides it on its main thread, through the store the service
menu saves with, so what is applied reaches the running cabinet and no save of the menu
overwrites it.

A document is read exactly as ``spit-cabinet settings import`` reads a file
(:meth:`~cabinet.storage.store.CabinetStore.import_settings`). It is refused whole when it
holds ``remote_settings`` or ``unsigned_updates`` (set only at the cabinet), or pricing
settings or the operator PIN while ``remote_settings`` is off. From the route's document,
the settings the applied location document also sets are left as the location's says.
Each decision is reported
(a ``settings`` event) in the transaction that applies it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cabinet.storage import fleet_documents
from cabinet.storage.outbox import Kind
from cabinet.storage.problems import StorageError
from cabinet.storage.setting_table import (
    OPERATOR_PIN,
    REMOTE_SETTINGS,
    UNSIGNED_UPDATES,
    in_group,
)
from cabinet.storage.setting_types import SettingGroup
from cabinet.storage.settings_file import SettingsFileError, read_text
from cabinet.storage.store import CabinetStore
from fleet.wire_down import SettingsDocument

log = logging.getLogger("cabinet.storage")

GUARDED = frozenset({OPERATOR_PIN.name, *(s.name for s in in_group(SettingGroup.PRICING))})
"""What a document may set only while ``remote_settings`` is on."""
AT_THE_CABINET = frozenset({REMOTE_SETTINGS.name, UNSIGNED_UPDATES.name})
"""What no document may set: the switches that guard the cabinet from its fleet."""


@dataclass(frozen=True, slots=True)
class Decided:
    """One document decided: ``reason`` is empty when it was applied."""

    document: str
    version: int
    applied: bool
    reason: str
    changed: tuple[str, ...] = ()

    def report(self) -> dict[str, Any]:
        """The ``settings`` event's body."""
        result = "applied" if self.applied else "refused"
        return {
            "document": self.document,
            "version": self.version,
            "result": result,
            "reason": self.reason,
        }


def _vet(
    store: CabinetStore, document: SettingsDocument
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def vet(values: dict[str, Any]) -> dict[str, Any]:
        at_the_cabinet = sorted(AT_THE_CABINET & set(values))
        if at_the_cabinet:
            raise SettingsFileError(
                f"{', '.join(at_the_cabinet)}: set only at the cabinet, never by a settings "
                "document"
            )
        guarded = sorted(GUARDED & set(values))
        if guarded and not store.settings.get(REMOTE_SETTINGS):
            raise SettingsFileError(
                f"holds {', '.join(guarded)}: pricing settings and the operator PIN are "
                "taken only with remote_settings on (the cabinet's service menu)"
            )
        if document.location is None:
            return {k: v for k, v in values.items() if k not in _location_sets(store)}
        return values

    return vet


def _location_sets(store: CabinetStore) -> set[str]:
    """The settings the applied document of the cabinet's location sets."""
    conn = store.db.connection
    where = fleet_documents.location(conn)
    for last in fleet_documents.decisions(conn).values():
        if last.location is not None and last.location == where and last.applied:
            try:
                return set(read_text(last.applied))
            except SettingsFileError:  # a setting this version no longer has
                return set()
    return set()


def decide(store: CabinetStore, document: SettingsDocument) -> Decided | None:
    """Apply or refuse ``document`` (``None``: not this cabinet's, or not newer than the
    one last decided: let go untouched), reported in the same transaction."""
    conn = store.db.connection
    if not fleet_documents.concerns(conn, document) or not fleet_documents.newer(conn, document):
        with store.db.transaction() as held:
            held.execute(
                "DELETE FROM fleet WHERE name = ?", (fleet_documents.HELD + document.document,)
            )
        return None
    name, version = document.document, document.version
    applied = Decided(name, version, True, "")
    try:
        _, changed = store.import_settings(
            document.text,
            vet=_vet(store, document),
            also=lambda c: fleet_documents.decide(c, document, True),
            report=applied.report(),
        )
    except SettingsFileError as exc:
        refused = Decided(name, version, False, str(exc))
        store.report(
            Kind.SETTINGS,
            refused.report(),
            also=lambda c: fleet_documents.decide(c, document, False),
        )
        log.warning("fleet: settings document %s v%d refused: %s", name, version, exc)
        return refused
    log.info("fleet: settings document %s v%d applied: %s", name, version, changed)
    return Decided(name, version, True, "", tuple(changed))


def take(store: CabinetStore) -> list[Decided]:
    """Decide every document the link holds; a storage failure leaves the rest held
    (logged; tried again at the next look)."""
    done: list[Decided] = []
    try:
        for document in fleet_documents.held(store.db.connection):
            decided = decide(store, document)
            if decided is not None:
                done.append(decided)
    except StorageError:
        log.exception("fleet: the settings documents could not be decided")
    return done
