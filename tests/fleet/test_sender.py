"""The sender on its own, stepped by the test on a clock the test moves: it backs off
between failed attempts, watches the door and the light board, and in no fleet does
nothing at all."""

from __future__ import annotations

import random
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from cabinet.link import membership
from cabinet.link.sender import Sender
from cabinet.link.status import read_status
from cabinet.storage.outbox import pending
from cabinet.storage.store import CabinetStore
from fleet.join_file import Join
from tests.fleet.services import free_port


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _joined(tmp_path: Path, port: int) -> CabinetStore:
    store = CabinetStore.open(tmp_path)
    with store.db.transaction() as conn:
        membership.join(conn, Join("Route", "bar-1", "Bar", "127.0.0.1", port, "pw", "x"))
    return store


def test_failed_attempts_back_off_doubling_with_jitter(tmp_path: Path) -> None:
    store = _joined(tmp_path, free_port())  # nothing listens there
    clock = Clock()
    sender = Sender(store.path or Path(), version="t", clock=clock, rng=random.Random(3))
    sender._new_client = lambda join: _plain_client(join)  # type: ignore[method-assign]
    assert sender.open()
    tries: list[float] = []
    for _ in range(8):
        before = sender._next_try_s
        sender.step()
        if sender._next_try_s != before:
            tries.append(sender._next_try_s - clock.now)
        clock.now = max(clock.now, sender._next_try_s)
    sender.close()
    assert len(tries) == 8
    for n, wait in enumerate(tries):
        full = min(sender.backoff_max_s, sender.backoff_min_s * 2**n)
        assert 0.5 * full <= wait <= full
    assert "cannot reach 127.0.0.1" in read_status(store.db.connection).error
    store.close()


def _plain_client(join: Join) -> mqtt.Client:
    """A client without TLS (the join's CA is a stand-in): connecting is what fails."""
    return mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id=join.cabinet, protocol=MQTTProtocolVersion.MQTTv5
    )


def test_the_door_and_the_light_board_are_watched(tmp_path: Path) -> None:
    store = _joined(tmp_path, free_port())
    clock = Clock()
    states = iter(
        [
            {"door": "closed", "light_board": "connected"},
            {"door": "open", "light_board": "connected"},
            {"door": "open", "light_board": "lost"},
            {"door": "closed", "light_board": "connected"},
        ]
    )
    sender = Sender(store.path or Path(), version="t", clock=clock, watch=lambda: next(states))
    sender._new_client = lambda join: _plain_client(join)  # type: ignore[method-assign]
    assert sender.open()
    for _ in range(4):
        sender.step()
        clock.now += 1.0
    sender.close()
    rows = [(r.kind, r.body) for r in pending(store.db.connection, 0, 100)]
    assert rows == [
        ("door", {"state": "open"}),
        ("fault", {"fault": "light_board_lost", "state": "raised"}),
        ("door", {"state": "closed"}),
        ("fault", {"fault": "light_board_lost", "state": "cleared"}),
    ]
    store.close()


def test_in_no_fleet_it_does_not_start(tmp_path: Path) -> None:
    store = CabinetStore.open(tmp_path)
    sender = Sender(store.path or Path(), version="t")
    assert sender.start() is False
    assert sender.connected is False
    store.close()
