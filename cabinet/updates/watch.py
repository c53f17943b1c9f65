"""A release the fleet offered, taken step by step while the cabinet plays
(docs/releases.md, "Rollouts"). The display process looks once a second
(:class:`UpdateWatch`, from :class:`cabinet.display.fleet_watch.FleetWatch`):

1. *offered*: the link kept an offer; a download starts, in a process of its own at the
   lowest priority, paced (``spit-cabinet release fetch``): *downloading*;
2. it ends checked and staged (*verified*, then *waiting* for a safe moment) or refused;
3. at a safe moment (attract, no credits, no game, the door closed) the cabinet asks
   for the install (``spit-cabinet-install.path``, as root): *installing*;
4. the new version, started, reports *installed*; the old one, started again after the
   boot check rolled the new one back, reports *rolled_back* with the rollback log's
   reason; an install the updater refused reports *refused* with its last line. An install
   the power cut off (started in an earlier boot, no result) is asked for again, *waiting*
   for the next safe moment: the old version runs, and the staged release is still whole.

Each step is an ``update`` event in the transaction that records it.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from cabinet.storage import release_offers
from cabinet.storage.outbox import clock_synced
from cabinet.storage.release_offers import UpdateState
from cabinet.storage.store import CabinetStore

log = logging.getLogger(__name__)

RELEASES = Path("releases")
STAGED = RELEASES / "staged"
"""Under the data directory: the release downloaded, checked, waiting to be installed
(:mod:`cabinet.updates.staging` makes it)."""
REQUEST = RELEASES / "install-request"
"""Written by the cabinet, taken by spit-cabinet-install.service (root)."""
RESULT = RELEASES / "install-result"
INSTALL_STARTED = RELEASES / "install-started"
"""The boot id the install service started in, written before it takes the request."""
BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
INSTALL_LOG = RELEASES / "install.log"
FETCH_LOG = RELEASES / "fetch.log"
TRY_AGAIN = 3
"""``release fetch``'s exit status when the line failed (not a check): try again."""
RETRY_S = 60.0
"""How long after a download the line cut off the next try starts (it resumes)."""
ROLLBACK_LOG = "rollbacks.log"
"""The updater's log of rollbacks in the install directory: one line each."""


class Fetch(Protocol):
    """A download under way (a :class:`subprocess.Popen`)."""

    def poll(self) -> int | None: ...

    def kill(self) -> None: ...


def spawn_fetch(url: str, data: Path, have: Path) -> Fetch:
    """``spit-cabinet release fetch`` at the lowest priority, its output in fetch.log
    (``have``: the install's wheels, not downloaded again)."""
    log_path = data / FETCH_LOG
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as out:
        return subprocess.Popen(
            ["nice", "-n", "19", sys.executable, "-m", "cabinet", "release", "fetch", url,
             "--data-dir", str(data), "--have", str(have)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=out,
        )  # fmt: skip


def boot_id() -> str:
    """This boot's id: an install started under another one was cut off by the boot."""
    return BOOT_ID.read_text(encoding="ascii").strip()


def request_install(data: Path) -> None:
    """Ask root to install the staged release (a file the path unit watches)."""
    (data / RESULT).unlink(missing_ok=True)
    tmp = data / REQUEST.with_name(REQUEST.name + ".tmp")
    tmp.write_text(str(data / STAGED) + "\n", encoding="utf-8")
    tmp.replace(data / REQUEST)


def last_line(path: Path) -> str:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    except OSError:
        return ""
    return lines[-1][:200] if lines else ""


class UpdateWatch:
    """Takes the release offered to ``store``'s cabinet from one step to the next."""

    def __init__(
        self,
        store: CabinetStore,
        data: Path,
        install_dir: Path,
        running: str,
        safe: Callable[[], bool],
        spawn: Callable[[str, Path, Path], Fetch] = spawn_fetch,
        install: Callable[[Path], None] = request_install,
        clock: Callable[[], float] = time.monotonic,
        boot: Callable[[], str] = boot_id,
    ) -> None:
        self.store = store
        self.data = data
        self.install_dir = install_dir
        self.running = running
        self.safe = safe
        self.spawn = spawn
        self.install = install
        self.fetch: Fetch | None = None
        self.clock = clock
        self.boot = boot
        self.retry_at = 0.0
        """When a download the line cut off is tried again."""

    def _advance(self, now: UpdateState) -> None:
        with self.store.db.transaction() as conn:
            release_offers.advance(conn, now, clock_synced())
        log.info("update: release %s (rollout %d): %s %s", now.release, now.rollout,
                 now.state, now.reason)  # fmt: skip

    def _rollbacks(self) -> list[str]:
        try:
            text = (self.install_dir / ROLLBACK_LOG).read_text(encoding="utf-8")
        except OSError:
            return []
        return text.strip().splitlines()

    def look(self) -> None:
        conn = self.store.db.connection
        offered, now = release_offers.offer(conn), release_offers.state(conn)
        if now is None:
            return
        if offered is None or offered.rollout != now.rollout:  # withdrawn: the rollout halted
            if self.fetch is not None and now.state in ("offered", "downloading"):
                self.fetch.kill()
                self.fetch = None
            if now.state != "installing":
                return
        step = getattr(self, f"_{now.state}", None)
        if step is not None:
            step(now, offered.url if offered is not None else "")

    def _offered(self, now: UpdateState, url: str) -> None:
        self.fetch = self.spawn(url, self.data, self.install_dir / "wheels")
        self._advance(replace(now, state="downloading"))

    def _downloading(self, now: UpdateState, url: str) -> None:
        if self.fetch is None:  # restarted during the download, or cut off: it resumes
            if self.clock() >= self.retry_at:
                self.fetch = self.spawn(url, self.data, self.install_dir / "wheels")
            return
        status = self.fetch.poll()
        if status is None:
            return
        self.fetch = None
        if status == TRY_AGAIN:
            self.retry_at = self.clock() + RETRY_S
            log.info("update: the download was cut off (%s); again in %.0f s",
                     last_line(self.data / FETCH_LOG), RETRY_S)  # fmt: skip
            return
        if status != 0:
            reason = last_line(self.data / FETCH_LOG).removeprefix("release: refused: ")
            self._advance(replace(now, state="refused", reason=reason or f"exit {status}"))
            return
        self._advance(replace(now, state="verified"))
        self._advance(replace(now, state="waiting"))

    def _waiting(self, now: UpdateState, url: str) -> None:
        if not self.safe():
            return
        rollbacks = len(self._rollbacks())
        self._advance(replace(now, state="installing", reason="", rollbacks=rollbacks))
        self.install(self.data)

    def _installing(self, now: UpdateState, url: str) -> None:
        rollbacks = self._rollbacks()
        if self.running == now.release:
            self._advance(replace(now, state="installed"))
        elif len(rollbacks) > now.rollbacks:
            why = rollbacks[-1].split(" ", 3)[-1] if rollbacks[-1].count(" ") >= 3 else ""
            self._advance(replace(now, state="rolled_back", reason=why or "rolled back"))
        elif (self.data / RESULT).exists() and last_line(self.data / RESULT) not in ("", "0"):
            reason = last_line(self.data / INSTALL_LOG).removeprefix("error: ")
            self._advance(replace(now, state="refused", reason=reason or "the install failed"))
        elif self._cut_off():
            log.warning("update: the install of %s was cut off (the power?): asked for again",
                        now.release)  # fmt: skip
            self._advance(replace(now, state="waiting", reason="the install was cut off"))

    def _cut_off(self) -> bool:
        """No request waiting, no result, and no install started in this boot: the one
        asked for was cut off by a power cut or a reboot (or, cut between the step and the
        request, never asked for)."""
        if (self.data / REQUEST).exists() or (self.data / RESULT).exists():
            return False
        try:
            started = (self.data / INSTALL_STARTED).read_text(encoding="ascii").strip()
        except FileNotFoundError:
            return True
        return started != self.boot()
