"""A release the fleet offered, taken step by step (cabinet/updates/watch.py): each step
recorded and reported as an ``update`` event in the cabinet's real database; the download
is a process of its own (stood in for here by what it leaves: its exit status and its
log's last line), the install a request root takes (docs/releases.md, "Rollouts")."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cabinet.link import membership
from cabinet.storage import outbox, release_offers
from cabinet.storage.store import CabinetStore
from cabinet.updates.watch import (
    FETCH_LOG,
    INSTALL_LOG,
    INSTALL_STARTED,
    REQUEST,
    RESULT,
    RETRY_S,
    TRY_AGAIN,
    UpdateWatch,
    request_install,
)
from fleet.join_file import Join
from fleet.wire_down import ReleaseOffer

OFFER = ReleaseOffer(7, "0.2.0", "https://fleet.example.com:8443/releases/")


@dataclass
class Download:
    """A fetch process as the watch sees it: running until ``status`` is set."""

    status: int | None = None
    killed: bool = False

    def poll(self) -> int | None:
        return self.status

    def kill(self) -> None:
        self.killed = True


@dataclass
class Cabinet:
    store: CabinetStore
    data: Path
    install_dir: Path
    safe: bool = False
    downloads: list[Download] = field(default_factory=list)
    installs: int = 0
    boot: str = "boot-1"
    """This boot's id, as the kernel gives it."""

    def watch(self, running: str = "0.1.0") -> UpdateWatch:
        def spawn(url: str, data: Path, have: Path) -> Download:
            assert url == OFFER.url and data == self.data
            self.downloads.append(Download())
            return self.downloads[-1]

        def install(data: Path) -> None:
            self.installs += 1
            request_install(data)  # the real request, which the path unit would see

        return UpdateWatch(self.store, self.data, self.install_dir, running,
                           lambda: self.safe, spawn, install, boot=lambda: self.boot)  # fmt: skip

    def service_starts(self) -> None:
        """spit-cabinet-install.service's first steps (deploy/): the boot it starts in
        written, the request taken."""
        (self.data / INSTALL_STARTED).write_text(self.boot + "\n")
        (self.data / REQUEST).unlink()

    def power_cut(self) -> None:
        """The power goes and comes back: a new boot, whatever ran is gone."""
        self.boot = f"boot-{int(self.boot.removeprefix('boot-')) + 1}"

    def offer(self, offered: ReleaseOffer | None = OFFER) -> None:
        with self.store.db.transaction() as conn:
            if offered is None:
                release_offers.withdraw(conn)
            else:
                release_offers.hold(conn, offered, synced=True)

    def reported(self) -> list[tuple[str, str]]:
        rows = outbox.pending(self.store.db.connection, 0, 100)
        return [(r.body["state"], r.body["reason"]) for r in rows if r.kind == "update"]


@pytest.fixture
def cabinet(tmp_path: Path) -> Iterator[Cabinet]:
    data = tmp_path / "data"
    store = CabinetStore.open(data)
    with store.db.transaction() as conn:
        membership.join(conn, Join("Route", "bar-1", "The Anchor", "localhost", 8883, "pw", "ca"))
    (data / "releases").mkdir()
    install = tmp_path / "opt"
    install.mkdir()
    cab = Cabinet(store, data, install)
    yield cab
    store.close()


def installing(cabinet: Cabinet) -> UpdateWatch:
    """An offer taken to its install at a safe moment; the watch that asked for it."""
    cabinet.offer()
    watch = cabinet.watch()
    watch.look()
    cabinet.downloads[0].status = 0
    cabinet.safe = True
    watch.look()
    watch.look()
    assert cabinet.installs == 1
    return watch


def test_an_offer_is_downloaded_checked_and_installed_at_a_safe_moment(cabinet: Cabinet) -> None:
    watch = cabinet.watch()
    watch.look()
    assert cabinet.reported() == []  # nothing offered: nothing done
    cabinet.offer()
    cabinet.offer()  # the retained offer again (a reconnection): not a second rollout
    watch.look()
    watch.look()
    assert [s for s, _ in cabinet.reported()] == ["offered", "downloading"]
    assert len(cabinet.downloads) == 1
    cabinet.downloads[0].status = 0
    watch.look()
    watch.look()  # a game, or credits: it waits
    assert [s for s, _ in cabinet.reported()][2:] == ["verified", "waiting"]
    assert cabinet.installs == 0
    cabinet.safe = True
    watch.look()
    assert cabinet.installs == 1 and cabinet.reported()[-1] == ("installing", "")
    # The updater restarts the cabinet: the new version reports itself installed.
    cabinet.watch(running="0.2.0").look()
    assert cabinet.reported()[-1] == ("installed", "")
    assert release_offers.state(cabinet.store.db.connection).state == "installed"  # type: ignore[union-attr]


def test_a_new_version_rolled_back_by_the_boot_check_is_reported_with_why(
    cabinet: Cabinet,
) -> None:
    (cabinet.install_dir / "rollbacks.log").write_text(
        "2026-12-01T10:00:00Z a b asked for (--rollback)\n"
    )
    installing(cabinet)
    assert cabinet.reported()[-1] == ("installing", "")
    with (cabinet.install_dir / "rollbacks.log").open("a") as log:
        log.write("2026-12-06T15:00:00Z 20261206T145900Z 20261201T100000Z failed to start 3 "
                  "times in a row\n")  # fmt: skip
    cabinet.watch(running="0.1.0").look()  # the old version, started again
    assert cabinet.reported()[-1] == ("rolled_back", "failed to start 3 times in a row")


def test_a_download_refused_is_reported_with_the_check_s_line(cabinet: Cabinet) -> None:
    cabinet.offer()
    watch = cabinet.watch()
    watch.look()
    (cabinet.data / FETCH_LOG).write_text(
        "release: refused: the release is not signed by this route's release key\n"
    )
    cabinet.downloads[0].status = 1
    watch.look()
    assert cabinet.reported()[-1] == (
        "refused",
        "the release is not signed by this route's release key",
    )
    watch.look()
    assert len(cabinet.downloads) == 1 and cabinet.installs == 0  # and nothing more


def test_an_install_the_updater_refused_is_reported(cabinet: Cabinet) -> None:
    watch = installing(cabinet)
    (cabinet.data / INSTALL_LOG).write_text("== Check the update\nerror: no space left\n")
    (cabinet.data / RESULT).write_text("1\n")
    watch.look()
    assert cabinet.reported()[-1] == ("refused", "no space left")


def test_a_withdrawn_offer_stops_the_download(cabinet: Cabinet) -> None:
    cabinet.offer()
    watch = cabinet.watch()
    watch.look()
    cabinet.offer(None)  # the rollout halted
    watch.look()
    assert cabinet.downloads[0].killed
    cabinet.downloads[0].status = 0
    watch.look()
    assert [s for s, _ in cabinet.reported()] == ["offered", "downloading"]


def test_a_restart_during_the_download_resumes_it(cabinet: Cabinet) -> None:
    cabinet.offer()
    cabinet.watch().look()
    again = cabinet.watch()  # the cabinet restarted: no download under way
    again.look()
    assert len(cabinet.downloads) == 2
    assert [s for s, _ in cabinet.reported()] == ["offered", "downloading"]


def test_a_download_the_line_cut_off_is_tried_again_later_not_refused(cabinet: Cabinet) -> None:
    clock = [100.0]
    cabinet.offer()
    watch = cabinet.watch()
    watch.clock = lambda: clock[0]
    watch.look()
    cabinet.downloads[0].status = TRY_AGAIN  # a connection reset, a timeout
    watch.look()
    watch.look()
    assert len(cabinet.downloads) == 1  # not at once
    clock[0] += RETRY_S
    watch.look()
    assert len(cabinet.downloads) == 2  # it resumes
    cabinet.downloads[1].status = 0
    watch.look()
    assert [s for s, _ in cabinet.reported()] == ["offered", "downloading", "verified", "waiting"]


def test_an_install_the_power_cut_off_is_asked_for_again(cabinet: Cabinet) -> None:
    installing(cabinet)
    cabinet.service_starts()
    cabinet.power_cut()
    watch = cabinet.watch(running="0.1.0")  # the old version: the switch never came
    watch.look()
    assert cabinet.reported()[-1] == ("waiting", "the install was cut off")
    watch.look()  # the staged release waits for the next safe moment, as before
    assert cabinet.installs == 2 and cabinet.reported()[-1] == ("installing", "")
    assert (cabinet.data / REQUEST).exists()


def test_an_install_cut_off_before_it_was_asked_for_is_asked_for_again(
    cabinet: Cabinet,
) -> None:
    installing(cabinet)
    (cabinet.data / REQUEST).unlink()  # the step was recorded, the request never written
    cabinet.power_cut()
    cabinet.watch().look()
    assert cabinet.reported()[-1] == ("waiting", "the install was cut off")


@pytest.mark.parametrize("service_started", [False, True])
def test_an_install_asked_for_or_running_in_this_boot_is_left_to_finish(
    cabinet: Cabinet, service_started: bool
) -> None:
    """A request the path unit has not taken yet (it will, at boot), or an install the
    service runs in this very boot (the cabinet was restarted meanwhile): no second ask."""
    installing(cabinet)
    if service_started:
        cabinet.service_starts()
    else:
        cabinet.power_cut()
    watch = cabinet.watch()
    watch.look()
    watch.look()
    assert cabinet.installs == 1 and cabinet.reported()[-1] == ("installing", "")
