"""What the display takes from the fleet link, once a second: the route's champions (for
attract's turn), the settings documents the link holds, decided on the service menu's
store and applied as the menu's are, and a release offered, taken a step further
(:mod:`cabinet.updates.watch`). The link only stores them (it never reaches the
display); this reads them back on the display's own thread."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable

from cabinet.display.app_settings import AppSettings
from cabinet.display.service_host import ServiceHost
from cabinet.storage import fleet_documents
from cabinet.storage.problems import StorageError
from cabinet.updates.watch import UpdateWatch
from fleet.wire_down import Champions
from game.units import S

log = logging.getLogger(__name__)

FLEET_LOOK_NS = S
"""How often the display looks at what the fleet link kept (champions, settings)."""


class FleetWatch:
    """Looks at most once every ``every_ns`` at what the link kept for ``host``'s store,
    and hands settings a document changed to ``apply``."""

    def __init__(
        self,
        host: ServiceHost,
        apply: Callable[[AppSettings], None],
        every_ns: int = FLEET_LOOK_NS,
        updates: UpdateWatch | None = None,
    ) -> None:
        self.host = host
        self.apply = apply
        self.every_ns = every_ns
        self.updates = updates
        """The release the fleet offered, taken a step further at each look."""
        self.champions: Champions | None = None
        """The newest board the link kept, as last read."""
        self._looked_ns: int | None = None

    def look(self, now: int) -> None:
        store = self.host.store
        looked = self._looked_ns
        if store is None or (looked is not None and now - looked < self.every_ns):
            return
        self._looked_ns = now
        try:
            self.champions = fleet_documents.champions(store.db.connection)
        except sqlite3.Error:
            log.exception("the route's champions could not be read")
        settings = self.host.take_documents()
        if settings is not None:
            self.apply(settings)
        if self.updates is not None and not self.host.is_open:
            try:
                self.updates.look()
            except (sqlite3.Error, OSError, StorageError):
                log.exception("the release offered could not be taken a step further")
