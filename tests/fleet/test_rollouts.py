"""Rollouts (docs/releases.md, "Rollouts") through the real broker, PostgreSQL and
ingest, to real cabinets (their store, their link, their update watch): the canary first,
the rest once it is healthy; a canary whose new version rolls back halts the rest and
raises an alert. The controller's healthy time is checked on a virtual clock.

A cabinet's download and install are what the watch is told of them (the download's exit
status, the version that started); the download and the install themselves are tested
in test_release_delivery.py and tests/deploy."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from cabinet.link.sender import Sender
from cabinet.storage import release_offers
from cabinet.updates.watch import UpdateWatch
from fleet import rollouts
from fleet.alerts import AlertKind, open_alerts
from fleet.rollouts import RolloutError
from tests.fleet.cabinets import Cabinet
from tests.fleet.conftest import Route
from tests.fleet.services import running
from tests.fleet.waiting import wait_for

URL = "https://fleet.example.com:8443/releases/"


@dataclass
class Done:
    """A finished download, as the watch polls it."""

    status: int = 0

    def poll(self) -> int | None:
        return self.status

    def kill(self) -> None:
        raise AssertionError("nothing here is withdrawn while downloading")


@dataclass
class Machine:
    """A cabinet of the route: its books and link, its version, and its update watch as
    the display runs it (safe at once: attract, no credits, the door shut)."""

    cabinet: Cabinet
    install_dir: Path
    running: str = "0.1.0"
    starts_new: bool = True
    """Whether the new version starts, or fails and the boot check rolls it back."""
    installs: list[str] = field(default_factory=list)
    _watch: UpdateWatch | None = None

    def watch(self) -> UpdateWatch:
        """The running cabinet's watch (a new one after each start)."""
        if self._watch is None:
            self._watch = UpdateWatch(self.cabinet.store, self.cabinet.data_dir,
                                      self.install_dir, self.running, lambda: True,
                                      lambda url, data, have: Done(), self._install)  # fmt: skip
        return self._watch

    def _install(self, data: Path) -> None:
        offered = release_offers.offer(self.cabinet.store.db.connection)
        assert offered is not None
        self.installs.append(offered.release)
        self._watch = None  # the updater restarts the cabinet
        if self.starts_new:
            self.running = offered.release  # the updater restarted it on the new version
        else:
            with (self.install_dir / "rollbacks.log").open("a") as log:
                log.write("2026-12-06T10:00:00Z 20261206T095900Z 20261201T000000Z failed to "
                          "start 3 times in a row\n")  # fmt: skip

    def step(self) -> str | None:
        """What the display does once a second; the step it is at."""
        self.watch().look()
        now = release_offers.state(self.cabinet.store.db.connection)
        return None if now is None else now.state


def machines(route: Route, names: list[str]) -> list[Machine]:
    made = []
    for name in names:
        cabinet = route.cabinet(name, "The Anchor" if name != "bar-3" else "Cinema Nova")
        install = cabinet.data_dir.parent / f"{name}-opt"
        install.mkdir()
        made.append(Machine(cabinet, install))
    return made


def states(route: Route, rollout: int) -> dict[str, str]:
    with route.db() as conn:
        return {m.cabinet: m.state for m in rollouts.members(conn, rollout)}


def senders(machines: list[Machine]) -> list[Sender]:
    started = [m.cabinet.sender() for m in machines]
    for sender in started:
        assert sender.start()
    return started


def test_the_canary_first_then_the_rest_then_done(route: Route) -> None:
    group = machines(route, ["bar-1", "bar-2", "bar-3"])
    with route.db() as conn:
        rollout = rollouts.start(conn, "0.2.0", URL, "all", 33, 0, "test")
        [canary] = [m.cabinet for m in rollouts.members(conn, rollout) if m.canary]
    first = next(m for m in group if m.cabinet.data_dir.name == canary)
    rest = [m for m in group if m is not first]
    links = []
    with running(route.broker, route.ingest):
        links = senders(group)
        try:
            # Each step the display takes is a commit of the cabinet's: the next look follows.
            wait_for(
                "the canary's offer", lambda: first.step() == "installed", first.cabinet.changes
            )
            assert first.installs == ["0.2.0"]
            assert all(m.step() is None for m in rest)  # not offered before the canary's done
            wait_for(
                "the canary's report",
                lambda: states(route, rollout)[canary] == "installed",
                route.ingested,
            )
            wait_for(
                "the rest's offers",
                lambda: all(m.step() == "installed" for m in rest),
                *(m.cabinet.changes for m in rest),
            )
            wait_for(
                "every report",
                lambda: set(states(route, rollout).values()) == {"installed"},
                route.ingested,
            )
            with route.db() as conn:
                wait_for(
                    "the rollout's end",
                    lambda: rollouts.rollouts(conn)[0].state == "done",
                    route.ingested,
                )
        finally:
            for link in links:
                link.stop()


def test_a_canary_that_rolls_back_halts_the_rest_and_raises_an_alert(route: Route) -> None:
    group = machines(route, ["bar-1", "bar-2", "bar-3"])
    with route.db() as conn:
        rollout = rollouts.start(conn, "0.2.0", URL, "list:bar-1,bar-2,bar-3", 33, 0, "owner")
        [canary] = [m.cabinet for m in rollouts.members(conn, rollout) if m.canary]
    first = next(m for m in group if m.cabinet.data_dir.name == canary)
    first.starts_new = False
    rest = [m for m in group if m is not first]
    with running(route.broker, route.ingest):
        links = senders(group)
        try:
            wait_for(
                "the canary's install", lambda: first.step() == "installing", first.cabinet.changes
            )
            first.step()  # started again on the old version: the rollback is seen
            assert first.step() == "rolled_back"
            with route.db() as conn:
                wait_for(
                    "the halt", lambda: rollouts.rollouts(conn)[0].state == "halted", route.ingested
                )
                halted = rollouts.rollouts(conn)[0]
                assert halted.reason == f"{canary} rolled back: failed to start 3 times in a row"
                [alert] = [a for a in open_alerts(conn, datetime.now(UTC))
                           if a.kind is AlertKind.ROLLOUT_HALTED]  # fmt: skip
                assert alert.cabinet == canary
                assert alert.detail == f"rollout {rollout} of 0.2.0 halted: {halted.reason}"
            assert {n: s for n, s in states(route, rollout).items() if n != canary} == {
                m.cabinet.data_dir.name: "pending" for m in rest
            }
            assert all(m.step() is None and not m.installs for m in rest)
            with route.db() as conn, pytest.raises(RolloutError, match="no active cabinet"):
                rollouts.start(conn, "0.2.1", URL, "location:Nowhere", 10, 0, "owner")
        finally:
            for link in links:
                link.stop()


def test_the_rest_wait_for_the_canaries_healthy_time(route: Route) -> None:
    """The controller alone, on a virtual clock (ingest is not running)."""
    for name in ("bar-1", "bar-2", "bar-3", "bar-4"):
        route.add_cabinet(name)
    published: list[tuple[str, bytes]] = []
    with route.db() as conn:
        rollout = rollouts.start(conn, "0.2.0", URL, "all", 50, 30, "owner")
        canaries = [m.cabinet for m in rollouts.members(conn, rollout) if m.canary]
        assert len(canaries) == 2
        t0 = datetime.now(UTC)
        rollouts.tick(conn, lambda t, p: published.append((t, p)), t0)  # the canaries
        assert sorted(t.split("/")[2] for t, _ in published) == sorted(canaries)
        for cabinet in canaries:
            for state in ("downloading", "verified", "waiting", "installing", "installed"):
                rollouts.record_update(conn, cabinet, {"rollout": rollout, "release": "0.2.0",
                                                       "state": state, "reason": ""})  # fmt: skip
        # A batch sent again never moves a cabinet back.
        rollouts.record_update(conn, canaries[0], {"rollout": rollout, "release": "0.2.0",
                                                   "state": "waiting", "reason": ""})  # fmt: skip
        conn.commit()
        publish = lambda t, p: published.append((t, p))  # noqa: E731
        assert rollouts.tick(conn, publish, t0 + timedelta(minutes=29)) == []
        assert rollouts.rollouts(conn)[0].state == "canary"
        said = rollouts.tick(conn, publish, t0 + timedelta(minutes=31))
        assert said == [f"rollout {rollout}: the canaries are healthy; the rest follow"]
        said = rollouts.tick(conn, publish, t0 + timedelta(minutes=31))
        rest = sorted({"bar-1", "bar-2", "bar-3", "bar-4"} - set(canaries))
        assert said == [f"rollout {rollout}: 0.2.0 offered to {', '.join(rest)}"]
        assert sorted(t.split("/")[2] for t, _ in published) == sorted(
            ["bar-1", "bar-2", "bar-3", "bar-4"]
        )
