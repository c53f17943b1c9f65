"""Starting the fleet link in the display process (``spit-cabinet run``): only when the
cabinet is in a fleet, woken by the store's commits, watching the door and the light
board, stopped on the way out."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable

from cabinet.display.parts import CabinetParts
from cabinet.storage.store import CabinetStore

log = logging.getLogger("spit-cabinet")


def start_link(
    store: CabinetStore, cleanup: contextlib.ExitStack, watch: Callable[[], dict[str, str]]
) -> None:
    """The fleet link on a thread of this process, when the cabinet is in a fleet (none
    is: no thread, no connection, paho not even imported); stopped on the way out.
    ``watch`` reads the door and the light board for it."""
    from cabinet.storage.reports import joined

    if store.path is None or not joined(store.db.connection):
        return
    from cabinet.link.connection import cabinet_version
    from cabinet.link.sender import Sender

    sender = Sender(store.path, version=cabinet_version(), watch=watch)
    if sender.start():
        store.db.committed.append(sender.wake)  # what a commit queues goes out at once
        cleanup.callback(sender.stop)
        log.info("fleet link: reporting to %s", sender.join.host if sender.join else "?")


def watch_parts(parts: CabinetParts) -> Callable[[], dict[str, str]]:
    """The door and the light board, as the fleet link reads them (from its thread: plain
    reads of what the table last reported)."""

    def watch() -> dict[str, str]:
        lights = parts.lights
        health = None if lights is None else lights.health()
        if lights is None or lights.on_screen:
            board = "none"
        else:
            board = "connected" if health is not None and health.connected else "lost"
        seen = {"light_board": board}
        if parts.door_open is not None:
            seen["door"] = "open" if parts.door_open() else "closed"
        return seen

    return watch
