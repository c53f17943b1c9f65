"""The cabinets of ``bench/rollout.py``: a process of them, each the real store, the real
link (:class:`~cabinet.link.sender.Sender`) and the real update watch, whose download is
the real ``spit-cabinet release fetch`` (TUF's checks, the HTTPS download, the staging),
run in a thread (each cabinet is a Pi of its own; here they share the process). The
install is the updater's restart on the new version, without the updater (root's part is
measured by tests/deploy): the watch starts again on the release."""

from __future__ import annotations

import argparse
import io
import json
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cabinet.updates.watch import UpdateWatch

STEP_S = 0.2
"""How often each cabinet's watch looks (the display: once a second)."""


class Download:
    """``release fetch`` in a thread; its exit status when done."""

    def __init__(self, url: str, data: Path, have: Path | None) -> None:
        self.status: int | None = None
        self.thread = threading.Thread(target=self._run, args=(url, data, have), daemon=True)
        self.thread.start()

    def _run(self, url: str, data: Path, have: Path | None) -> None:
        from cabinet.commands import release

        args = argparse.Namespace(
            url=url, data_dir=str(data), running="0.1.0", rate_kbps=2048, have=have
        )
        try:
            self.status = release.fetch(args)
        except Exception:  # said by the cabinet as refused; counted by the driver
            self.status = 99

    def poll(self) -> int | None:
        return self.status

    def kill(self) -> None:
        pass


class Cabinet:
    def __init__(self, path: Path, have: Path | None) -> None:
        from cabinet.link.sender import Sender
        from cabinet.storage.store import CabinetStore

        self.store = CabinetStore.open(path.parent, synced=lambda: True)
        self.data = path.parent
        self.have = have
        self.running = "0.1.0"
        self.sender = Sender(path, version="bench")
        self.sender.poll_s = 0.2
        self.watch = self._watch()

    def _watch(self) -> UpdateWatch:
        from cabinet.updates.watch import UpdateWatch

        return UpdateWatch(self.store, self.data, self.data / "opt", self.running,
                           lambda: True, self._spawn, self._install)  # fmt: skip

    def _spawn(self, url: str, data: Path, have: Path) -> Download:
        return Download(url, data, self.have)

    def _install(self, data: Path) -> None:
        from cabinet.storage import release_offers

        now = release_offers.state(self.store.db.connection)
        assert now is not None
        self.running = now.release  # restarted on the new version
        self.watch = self._watch()


def worker(listing: Path, have: str) -> int:
    """Cabinets of ``listing``: their links started when told (a line on stdin), their
    watches stepped until told to stop."""
    import logging

    logging.basicConfig(filename=listing.with_suffix(".log"), level=logging.WARNING)
    protocol = sys.stdout
    sys.stdout = io.StringIO()  # the fetch command's lines: not the protocol's
    cabinets = [Cabinet(Path(p), Path(have) if have else None)
                for p in listing.read_text().split()]  # fmt: skip
    print("ready", file=protocol, flush=True)
    sys.stdin.readline()
    for cabinet in cabinets:
        cabinet.sender.start()
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
    while not stop.is_set():
        for cabinet in cabinets:
            cabinet.watch.look()
        sys.stdout = io.StringIO()
        time.sleep(STEP_S)
    for cabinet in cabinets:
        cabinet.sender.stop(1.0)
    print(json.dumps({"cpu_s": time.process_time()}), file=protocol, flush=True)
    return 0
